import { Box, Text, useInput, useStdout } from 'ink';
import { useState } from 'react';
import { escapeControl, escapeLine } from '../../../core/escape.js';
import { redact } from '../../../core/secrets.js';
import {
  NO_INVENTORY_CHANGE,
  diffBody,
  fileLine,
  filesHeading,
  findingLines,
  type Review,
} from '../../../core/setup/review.js';
import { Findings } from '../components/Findings.js';
import { KeyHints } from '../components/KeyHints.js';
import { tint } from '../components/theme.js';

/** Rows a text takes once wrapped at the terminal's width. */
function rows(text: string, columns: number): number {
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / Math.max(20, columns))), 0);
}

/** The keys of the review; `confirm`: what Enter does when it is not writing the files shown (regenerate). */
function hints(review: Review, confirm?: ConfirmLabels): string[] {
  if (review.blocked) return ['Esc back to fix the errors', 'Ctrl+C cancel (nothing written)'];
  if (confirm) return [`Enter ${confirm.enter}`, `Esc ${confirm.escape}`, `Ctrl+C ${confirm.escape}`];
  const enter = review.dryRun
    ? 'Enter finish (dry run)'
    : review.files.length === 0
      ? 'Enter finish (nothing to write)'
      : 'Enter write these files';
  return [enter, 'Esc back', 'Ctrl+C cancel (nothing written)'];
}

export interface ConfirmLabels {
  /** `write the inventory and delete 3 secret(s)`. */
  enter: string;
  /** `cancel (nothing written or deleted)`. */
  escape: string;
}

/** Rows of everything around the scrolling window, so that the whole review fits the terminal. */
function chromeRows(review: Review, columns: number, confirm?: ConfirmLabels): number {
  const texts = [
    review.heading,
    ...(review.names ? [review.names] : []),
    review.issuer,
    ...(review.diff.trim() === '' ? [NO_INVENTORY_CHANGE] : []),
    'lines 1-1 of 1 (arrows scroll)',
    '',
    filesHeading(review),
    ...review.files.map((f) => `  ${fileLine(f)}`),
    ...(review.plainText ? [`! ${review.plainText}`] : []),
    ...(review.issuerChange ? ['', `! ${review.issuerChange.message}`, `  -> ${review.issuerChange.advice}`] : []),
    ...findingLines(review.findings),
    '',
    hints(review, confirm).join(' · '),
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

/** What scrolls: the inventory diff and the keys it removes, then what changes in the cluster and the objects' diff. */
function scrolled(review: Review): string[] {
  const cluster = [
    ...review.cluster.lines,
    ...(review.cluster.diff ? review.cluster.diff.replace(/\n$/, '').split('\n') : []),
  ];
  const inventory = [...review.translated, ...diffBody(review.diff), ...review.renamed, ...review.removed];
  return escapeControl(
    redact([...inventory, ...(inventory.length && cluster.length ? [''] : []), ...cluster].join('\n')),
  ).split('\n');
}

interface Props {
  review: Review;
  onConfirm(): void;
  /** Enter and Esc when the review confirms another command's action (regenerate); Esc is then the screen's to handle. */
  confirm?: ConfirmLabels;
}

/**
 * The inventory diff, then what changes in the cluster (one line per object, then the objects' diff),
 * scrollable so it fits the terminal; every file to be written, and what to know first.
 */
export function ReviewScreen({ review, onConfirm, confirm }: Props) {
  const { stdout } = useStdout();
  const lines = scrolled(review);
  const height = Math.max(3, (stdout.rows || 24) - chromeRows(review, stdout.columns || 80, confirm));
  const [top, setTop] = useState(0);
  const maxTop = Math.max(0, lines.length - height);

  useInput((input, key) => {
    if (key.ctrl) return;
    if (key.upArrow || input === 'k') setTop((t) => Math.max(0, t - 1));
    else if (key.downArrow || input === 'j') setTop((t) => Math.min(maxTop, t + 1));
    else if (key.pageUp) setTop((t) => Math.max(0, t - height));
    else if (key.pageDown || input === ' ') setTop((t) => Math.min(maxTop, t + height));
    // Two Enters over a slow link arrive as one chunk: that is Enter too (the write happens once).
    else if ((key.return || /^[\r\n]+$/.test(input)) && !review.blocked) onConfirm();
  });

  const shown = lines.slice(top, top + height);
  return (
    <Box flexDirection="column">
      <Text bold wrap="wrap">
        {escapeLine(review.heading)}
      </Text>
      {review.names ? (
        <Text dimColor wrap="wrap">
          {review.names}
        </Text>
      ) : null}
      <Text wrap="wrap">{escapeLine(review.issuer)}</Text>
      {review.diff.trim() === '' ? <Text dimColor>{NO_INVENTORY_CHANGE}</Text> : null}
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
      <Box marginTop={1} flexDirection="column">
        <Text bold>{filesHeading(review)}</Text>
        {review.files.map((f) => (
          <Text key={f.path} wrap="wrap">
            {'  '}
            {escapeLine(fileLine(f))}
          </Text>
        ))}
      </Box>
      {review.plainText ? (
        <Text color={tint('yellow')} wrap="wrap">
          ! {escapeLine(review.plainText)}
        </Text>
      ) : null}
      {review.issuerChange ? (
        <Box marginTop={1} flexDirection="column">
          <Text color={tint('yellow')} wrap="wrap">
            ! {escapeLine(review.issuerChange.message)}
          </Text>
          <Text wrap="wrap">
            {' '}
            {'->'} {escapeLine(review.issuerChange.advice)}
          </Text>
        </Box>
      ) : null}
      <Findings findings={review.findings} />
      <Box marginTop={1}>
        <KeyHints hints={hints(review, confirm)} />
      </Box>
    </Box>
  );
}
