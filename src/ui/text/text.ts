import { escapeControl, escapeLine } from '../../core/escape.js';
import { redact } from '../../core/secrets.js';
import type { CheckOutcome, DoctorReport, SkipCode, Status } from '../../core/doctor/types.js';
import { uncheckedGroups } from '../../core/doctor/runner.js';
import {
  interruptedVerdict,
  isInterrupted,
  STATUS_MARK as MARK,
  statusCounts,
  summarize,
} from '../../core/doctor/status.js';
import { wrapText } from './wrap.js';

/** Each group's title, as its area names it; a group without one is shown by its name. */
export type GroupTitles = Readonly<Record<string, string>>;

export function titleOf(group: string, titles: GroupTitles = {}): string {
  return titles[group] ?? group;
}

/** Worst status of a group: fail > warn > ok > skip. */
export function groupStatus(checks: { status: Status }[]): Status {
  for (const s of ['fail', 'warn', 'ok'] as const) if (checks.some((c) => c.status === s)) return s;
  return 'skip';
}

export interface TextOptions {
  verbose: boolean;
  color: boolean;
  /** TERM=dumb: only ASCII. */
  ascii?: boolean;
  titles?: GroupTitles;
  /** Wrap at word boundaries to this many columns (a terminal's width); no wrapping when absent. */
  width?: number;
  /** The groups named with --only: one that checked nothing is said so at the end. */
  requested?: string[];
}

/** The `flutter doctor` shape: a line per group, details under it, a closing line. */
export function renderText(report: DoctorReport, options: TextOptions): string {
  const paint = painter(options.color);
  const groups = groupBy(report.checks);
  const lines: string[] = [];
  for (const [group, checks] of groups) {
    const status = groupStatus(checks);
    const counts = statusCounts(summarize(checks));
    lines.push(
      `${paint(status, `[${MARK[status]}]`)} ${shown(titleOf(group, options.titles))} ${paint('dim', `(${counts})`)}`,
    );
    for (const check of checks) {
      // A check stopped by Ctrl+C is listed even without --verbose: the operator must see what did not run.
      if (!options.verbose && (check.status === 'ok' || check.status === 'skip') && !isInterrupted(check)) continue;
      lines.push(...renderCheck(check, options, paint));
    }
    // A group that checked nothing says why, per reason, without --verbose (a first run, say).
    if (status === 'skip' && !options.verbose)
      lines.push(...skipSummary(checks).map((hint) => `    ${paint('dim', hint)}`));
  }
  lines.push('', ...closingLines(report.checks, options.requested), countsLine(report.checks));
  const text = redact(lines.join('\n'));
  return wrapText(options.ascii ? asAscii(text) : text, options.width) + '\n';
}

type SkipKind = Exclude<SkipCode, 'interrupted'>;

const SKIP_ORDER: SkipKind[] = ['no-cluster', 'not-configured', 'needs-failed', 'not-applicable'];
const SKIP_LABEL: Record<SkipKind, string> = {
  'no-cluster': 'No cluster',
  'not-configured': 'Not configured',
  'needs-failed': 'Not run',
  'not-applicable': 'Does not apply',
};
const MOST_REASONS = 3;

/**
 * Why a group checked nothing, one line per reason, from the reason codes of its skipped checks (the
 * code that covers the most checks first, so a line never speaks for checks it does not apply to).
 * Interrupted checks are listed on their own lines and left out here.
 */
export function skipSummary(checks: CheckOutcome[]): string[] {
  const byReason = new Map<string, { kind: SkipKind; text: string; count: number }>();
  for (const check of checks) {
    if (check.status !== 'skip' || isInterrupted(check)) continue;
    const kind: SkipKind = check.reason && check.reason.code !== 'interrupted' ? check.reason.code : 'not-applicable';
    // What is missing, then what to do; for no-cluster the reason says both (the message repeats it).
    const text =
      !check.reason || kind === 'not-applicable' || check.reason.text === check.message
        ? check.message
        : kind === 'no-cluster'
          ? check.reason.text
          : `${check.message} → ${check.reason.text}`;
    // One line per thing to do: checks that ask for the same setting count together, the first one's words shown.
    const key = `${kind}\n${check.reason?.text ?? check.message}`;
    const entry = byReason.get(key) ?? { kind, text, count: 0 };
    entry.count++;
    byReason.set(key, entry);
  }
  const reasons = [...byReason.values()].sort(
    (a, b) => b.count - a.count || SKIP_ORDER.indexOf(a.kind) - SKIP_ORDER.indexOf(b.kind),
  );
  const lines = reasons
    .slice(0, MOST_REASONS)
    .map((r) => `${SKIP_LABEL[r.kind]}${r.count > 1 ? ` (${r.count} checks)` : ''}: ${shown(r.text)}`);
  const more = reasons.length - MOST_REASONS;
  if (more > 0) lines.push(`… and ${more} other reason${more === 1 ? '' : 's'} (--verbose lists every check).`);
  return lines;
}

/** What the skipped checks ask to be set, each once (for the closing line of a run that checked nothing). */
export function whatToSet(checks: CheckOutcome[]): string[] {
  const texts = checks
    .filter((c) => c.status === 'skip' && c.reason?.code === 'not-configured')
    .map((c) => c.reason!.text);
  return [...new Set(texts)];
}

/** `12 checks: 9 ok, 1 warn, 1 fail, 1 skipped.` */
export function countsLine(checks: CheckOutcome[]): string {
  const n = summarize(checks);
  return `${checks.length} check${checks.length === 1 ? '' : 's'}: ${n.ok} ok, ${n.warn} warn, ${n.fail} fail, ${n.skip} skipped.`;
}

/** Characters a dumb terminal may not show, as ASCII. */
const ASCII: Record<string, string> = {
  '✓': 'ok',
  '✗': 'x',
  '→': '->',
  '•': '*',
  '—': '-',
  '–': '-',
  '·': '-',
  '…': '...',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
};

export function asAscii(text: string): string {
  return text.replace(/[^\x00-\x7e]/g, (c) => ASCII[c] ?? '?');
}

/** "No issues found." only when something was checked: a run of nothing but skips says so, and what to set. */
export function closingLine(checks: CheckOutcome[]): string {
  const failing = [...groupBy(checks).values()].filter((c) => ['fail', 'warn'].includes(groupStatus(c))).length;
  if (failing > 0) return `! Found issues in ${failing} group${failing === 1 ? '' : 's'}.`;
  const stopped = checks.filter(isInterrupted).length;
  if (stopped > 0) return `! ${interruptedVerdict(stopped)}`;
  if (checks.every((c) => c.status === 'skip')) {
    const set = whatToSet(checks);
    return `! Nothing was checked: every check was skipped.${set.length ? ` To check something: ${shown(set.slice(0, MOST_REASONS).join(' '))}` : ' The lines above say why.'}`;
  }
  return '• No issues found.';
}

/** The closing line, and a line naming each group asked for with --only that checked nothing. */
export function closingLines(checks: CheckOutcome[], requested: string[] = []): string[] {
  const lines = [closingLine(checks)];
  if (checks.some((c) => c.status !== 'skip') && requested.length > 0) {
    const unchecked = uncheckedGroups({ checks }, requested);
    if (unchecked.length)
      lines.push(
        `! Nothing was checked in ${unchecked.join(', ')}: every check of ${unchecked.length === 1 ? 'it' : 'them'} was skipped (see above).`,
      );
  }
  return lines;
}

/**
 * Titles, messages, advice and details quote servers and files (an error body, an issuer, an
 * inventory value): each is redacted and escaped here, before any colour of ours is added. A line
 * stays one line, so nothing quoted can pass for a check of its own.
 */
export function shown(text: string): string {
  return escapeLine(redact(text));
}

export function renderCheck(check: CheckOutcome, options: TextOptions, paint = painter(options.color)): string[] {
  const out = [
    `    ${paint(check.status, MARK[check.status])} ${shown(check.title)}: ${shown(check.message)} ${paint('dim', `(${check.durationMs} ms)`)}`,
  ];
  if (check.advice && (check.status === 'fail' || check.status === 'warn' || options.verbose)) {
    out.push(`      → ${shown(check.advice)}`);
  } else if (check.reason && options.verbose) {
    out.push(`      → ${shown(check.reason.text)}`);
  }
  // The parts of a check that judges several things: the ones with a problem always, every one with --verbose.
  for (const part of check.parts ?? []) {
    if (!options.verbose && part.status === 'ok') continue;
    out.push(`      ${paint(part.status, MARK[part.status])} ${shown(part.name)}: ${shown(part.message)}`);
    if (part.advice && part.status !== 'ok') out.push(`        → ${shown(part.advice)}`);
  }
  if (options.verbose && check.facts) {
    for (const [key, value] of Object.entries(check.facts)) {
      if (value === undefined) continue;
      out.push(
        `      ${shown(key)}: ${typeof value === 'string' ? escapeControl(redact(value)) : shown(JSON.stringify(value))}`,
      );
    }
  }
  return out;
}

export function groupBy(checks: CheckOutcome[]): Map<string, CheckOutcome[]> {
  const groups = new Map<string, CheckOutcome[]>();
  for (const check of checks) {
    const list = groups.get(check.group) ?? [];
    list.push(check);
    groups.set(check.group, list);
  }
  return groups;
}

type Tone = Status | 'dim';
const CODES: Record<Tone, number> = { ok: 32, warn: 33, fail: 31, skip: 90, dim: 90 };

function painter(color: boolean) {
  return (tone: Tone, text: string) => (color ? `\x1b[${CODES[tone]}m${text}\x1b[39m` : text);
}
