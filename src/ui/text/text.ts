import { escapeControl, escapeLine } from '../../core/escape.js';
import { colorEnabled } from '../color.js';
import { redact } from '../../core/secrets.js';
import type { CheckOutcome, DoctorReport, Status } from '../../core/doctor/types.js';
import { INTERRUPTED } from '../../core/doctor/runner.js';
import { groupTitle } from '../../core/areas/index.js';


const MARK: Record<Status, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/** The title each area gives its group. */
export { groupTitle };

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
}

/** The `flutter doctor` shape: a line per group, details under it, a closing line. */
export function renderText(report: DoctorReport, options: TextOptions): string {
  const paint = painter(options.color);
  const groups = groupBy(report.checks);
  const lines: string[] = [];
  for (const [group, checks] of groups) {
    const status = groupStatus(checks);
    const counts = countLine(checks);
    lines.push(`${paint(status, `[${MARK[status]}]`)} ${groupTitle(group)} ${paint('dim', `(${counts})`)}`);
    for (const check of checks) {
      // A check stopped by Ctrl+C is listed even without --verbose: the operator must see what did not run.
      if (!options.verbose && (check.status === 'ok' || check.status === 'skip') && check.message !== INTERRUPTED) continue;
      lines.push(...renderCheck(check, options, paint));
    }
    // A group that checked nothing says what it needs, without --verbose (a first run, say); an
    // interrupted group already lists what did not run.
    const interrupted = checks.some((c) => c.message === INTERRUPTED);
    const hint = status === 'skip' && !options.verbose && !interrupted ? skipHint(checks) : undefined;
    if (hint) lines.push(`    ${paint('dim', hint)}`);
  }
  lines.push('', closingLine(report.checks), countsLine(report.checks));
  const text = redact(lines.join('\n')) + '\n';
  return options.ascii ? asAscii(text) : text;
}

/** What a group whose every check was skipped needs: its first reason, and the advice with it. */
export function skipHint(checks: CheckOutcome[]): string | undefined {
  const first = checks.find((c) => c.status === 'skip' && !c.message.startsWith('Not run:')) ?? checks[0];
  if (!first) return undefined;
  return shown(`${first.message}${first.advice ? ` → ${first.advice}` : ''}`);
}

/** `12 checks: 9 ok, 1 warn, 1 fail, 1 skipped.` */
export function countsLine(checks: CheckOutcome[]): string {
  const n = (s: Status) => checks.filter((c) => c.status === s).length;
  return `${checks.length} check${checks.length === 1 ? '' : 's'}: ${n('ok')} ok, ${n('warn')} warn, ${n('fail')} fail, ${n('skip')} skipped.`;
}

/** Characters a dumb terminal may not show, as ASCII. */
const ASCII: Record<string, string> = { '✓': 'ok', '✗': 'x', '→': '->', '•': '*', '—': '-', '–': '-', '·': '-', '…': '...', '‘': "'", '’': "'", '“': '"', '”': '"' };

export function asAscii(text: string): string {
  return text.replace(/[^\x00-\x7e]/g, (c) => ASCII[c] ?? '?');
}

/** "No issues found." only when something was checked: a run of nothing but skips says so. */
export function closingLine(checks: CheckOutcome[]): string {
  const failing = [...groupBy(checks).values()].filter((c) => ['fail', 'warn'].includes(groupStatus(c))).length;
  if (failing > 0) return `! Found issues in ${failing} group${failing === 1 ? '' : 's'}.`;
  const stopped = checks.filter((c) => c.message === INTERRUPTED).length;
  if (stopped > 0) return `! Interrupted: ${stopped} check${stopped === 1 ? ' was' : 's were'} not run; no verdict.`;
  if (checks.every((c) => c.status === 'skip')) {
    return '• Nothing was checked: every check was skipped for want of settings (--verbose says which).';
  }
  return '• No issues found.';
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
  const out = [`    ${paint(check.status, MARK[check.status])} ${shown(check.title)}: ${shown(check.message)} ${paint('dim', `(${check.durationMs} ms)`)}`];
  if (check.advice && (check.status === 'fail' || check.status === 'warn' || options.verbose)) {
    out.push(`      → ${shown(check.advice)}`);
  }
  if (options.verbose && check.details && Object.keys(check.details).length > 0) {
    for (const [key, value] of Object.entries(check.details)) {
      out.push(`      ${shown(key)}: ${typeof value === 'string' ? escapeControl(redact(value)) : shown(JSON.stringify(value))}`);
    }
  }
  return out;
}

function countLine(checks: CheckOutcome[]): string {
  const parts: string[] = [];
  for (const s of ['ok', 'warn', 'fail', 'skip'] as const) {
    const n = checks.filter((c) => c.status === s).length;
    if (n) parts.push(`${n} ${s}`);
  }
  return parts.join(', ');
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

/** Colour only on a terminal, under the one colour rule (NO_COLOR, TERM=dumb). */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && colorEnabled(env);
}
