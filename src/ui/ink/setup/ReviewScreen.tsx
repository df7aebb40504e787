import { Box, Text, useInput, useStdout } from 'ink';
import { useState } from 'react';
import { hasErrors } from '../../../core/findings.js';
import { escapeControl, escapeLine } from '../../../core/escape.js';
import { redact } from '../../../core/secrets.js';
import { Findings } from '../components/Findings.js';
import { KeyHints } from '../components/KeyHints.js';
import { tint } from '../components/theme.js';
import type { Review } from './types.js';

/** Rows a text takes once wrapped at the terminal's width. */
function rows(text: string, columns: number): number {
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / Math.max(20, columns))), 0);
}

/** Rows of everything around the diff window, so that the whole review fits the terminal. */
function chromeRows(review: Review, columns: number): number {
  const texts = [
    `Review: ${review.inventoryPath}`, ...(review.names ? [review.names] : []), 'lines 1-1 of 1 (arrows scroll)', '', 'Files to write:',
    ...review.files.map((f) => `  ${f.path} - ${f.description} (mode 0600, holds secrets)`),
    ...(review.issuerChange ? ['', `! The issuer changes from ${review.issuerChange.from} to ${review.issuerChange.to}: the existing certificate secrets must be deleted so that ${review.issuerChange.to} can issue new certificates.`, '  -> After writing, run: cloudgate regenerate (it finds and deletes the stale secrets).'] : []),
    ...review.findings.flatMap((f) => [`x ${f.message}`, ...(f.advice ? [`  -> ${f.advice}`] : [])]),
    '', 'Enter write these files · Esc back · Ctrl+C cancel (nothing written)',
  ];
  // +2: the "cloudgate setup" title above and one spare row for the cursor line.
  return texts.reduce((n, t) => n + rows(t, columns), 0) + 2;
}

function lineColor(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return undefined;
  if (line.startsWith('+')) return tint('green');
  if (line.startsWith('-')) return tint('red');
  if (line.startsWith('@@')) return tint('cyan');
  return undefined;
}

const octal = (mode?: number) => (mode === undefined ? '' : `mode ${mode.toString(8).padStart(4, '0')}`);

interface Props {
  review: Review;
  dryRun: boolean;
  onConfirm(): void;
}

/**
 * The diff, then one line per object that changes in the cluster (with --dry-run the objects' whole
 * diff too), scrollable so it fits the terminal; every file to be written, and what to know first.
 */
export function ReviewScreen({ review, dryRun, onConfirm }: Props) {
  const { stdout } = useStdout();
  // The patch header (Index:, ====, ---/+++ with the path) says nothing the title does not.
  const all = escapeControl(redact(review.diff)).replace(/\n$/, '').split('\n');
  const firstHunk = all.findIndex((l) => l.startsWith('@@'));
  const cluster = review.cluster ? ['', ...review.cluster.lines.map(redact)] : [];
  const objects = dryRun && review.cluster?.diff ? redact(review.cluster.diff).replace(/\n$/, '').split('\n') : [];
  const lines = [...(review.diff.trim() === '' ? [] : firstHunk < 0 ? all : all.slice(firstHunk)), ...cluster, ...objects];
  const height = Math.max(3, (stdout.rows || 24) - chromeRows(review, stdout.columns || 80));
  const [top, setTop] = useState(0);
  const blocked = hasErrors(review.findings);
  const maxTop = Math.max(0, lines.length - height);

  useInput((input, key) => {
    if (key.ctrl) return;
    if (key.upArrow || input === 'k') setTop((t) => Math.max(0, t - 1));
    else if (key.downArrow || input === 'j') setTop((t) => Math.min(maxTop, t + 1));
    else if (key.pageUp) setTop((t) => Math.max(0, t - height));
    else if (key.pageDown || input === ' ') setTop((t) => Math.min(maxTop, t + height));
    else if (key.return && !blocked) onConfirm();
  });

  const shown = lines.slice(top, top + height);
  return (
    <Box flexDirection="column">
      <Text bold wrap="wrap">Review: {escapeLine(review.inventoryPath)}</Text>
      {review.names ? <Text dimColor wrap="wrap">{review.names}</Text> : null}
      {review.diff.trim() === '' ? <Text dimColor>No change to the inventory.</Text> : null}
      {lines.length === 0 ? null : (
        <Box flexDirection="column">
          {shown.map((line, i) => (
            <Text key={top + i} color={lineColor(line.replace(/^ {2}(?=[-+~] )/, ''))} wrap="truncate-end">
              {line === '' ? ' ' : line}
            </Text>
          ))}
          {lines.length > height ? (
            <Text dimColor>
              lines {top + 1}-{Math.min(lines.length, top + height)} of {lines.length} (arrows scroll)
            </Text>
          ) : null}
        </Box>
      )}
      <Box marginTop={1} flexDirection="column">
        <Text bold>{dryRun ? 'Would write (dry run: nothing is written):' : 'Files to write:'}</Text>
        {review.files.map((f) => (
          <Text key={f.path} wrap="wrap">
            {'  '}
            {escapeLine(f.path)} - {escapeLine(f.description)}
            {f.mode !== undefined || f.holdsSecret ? ` (${[octal(f.mode), f.holdsSecret ? 'holds secrets' : ''].filter(Boolean).join(', ')})` : ''}
          </Text>
        ))}
      </Box>
      {review.issuerChange ? (
        <Box marginTop={1} flexDirection="column">
          <Text color={tint('yellow')} wrap="wrap">
            ! The issuer changes from {escapeLine(review.issuerChange.from)} to {escapeLine(review.issuerChange.to)}: the existing certificate
            secrets must be deleted so that {escapeLine(review.issuerChange.to)} can issue new certificates.
          </Text>
          <Text wrap="wrap">  {'->'} After writing, run: cloudgate regenerate (it finds and deletes the stale secrets).</Text>
        </Box>
      ) : null}
      <Findings findings={review.findings} />
      <Box marginTop={1}>
        <KeyHints
          hints={[
            blocked ? 'Esc back to fix the errors' : dryRun ? 'Enter finish (dry run)' : 'Enter write these files',
            ...(blocked ? [] : ['Esc back']),
            'Ctrl+C cancel (nothing written)',
          ]}
        />
      </Box>
    </Box>
  );
}
