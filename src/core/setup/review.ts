/**
 * The review every front-end shows before anything is written: a model built from the plan, with the
 * wording decided here once (the issuer change, the files, the removed keys), and its rendering as
 * lines for the line front-ends (`setup --answers` on stderr, `setup --plain`, `regenerate`). The Ink
 * review screen lays out the same strings.
 */
import { hasErrors, SEVERITY_MARK, type Finding } from '../findings.js';
import { profileLine, respell, respellFinding, spelled, spelledValue, type Rename } from '../config/neutral-names.js';
import { clusterLines } from '../render/review.js';
import { shellQuote } from '../shell-quote.js';
import type { SetupPlan } from './plan.js';

export interface ReviewFile {
  path: string;
  description: string;
  mode: number;
  holdsSecret: boolean;
  /** `+12 -3 lines`, for the inventory when its diff is known. */
  changes?: string;
}

export interface IssuerChange {
  from: string;
  to: string;
  /** What the change means for the certificates already issued. */
  message: string;
  /** What to do about them (in setup: the regenerate command, also listed under the next steps). */
  advice: string;
}

export interface Review {
  inventoryPath: string;
  inventoryExists: boolean;
  /** `Review: PATH (exists)`: the first line of every review. */
  heading: string;
  /** `--names spec`: the inventory is written in the neutral aliases (said once; absent for the platform's own names). */
  names?: string;
  /** `Issuer: ca (was acme)`. */
  issuer: string;
  issuerChange?: IssuerChange;
  /** The variables set or changed, as the inventory spells them. */
  set: string[];
  /** `Remove: KEY (why)`, one line per variable deleted from the inventory. */
  removed: string[];
  /** `Rename: OLD -> NEW (why)`: variables written in the other words, renamed in place. */
  renamed: string[];
  /** `Read as: ALIAS -> NAME`: neutral aliases of the answers, written in the platform's words. */
  translated: string[];
  /** Every finding, in the inventory's spelling; an error refuses the write. */
  findings: Finding[];
  blocked: boolean;
  files: ReviewFile[];
  /** The unified diff of the inventory, secrets masked; empty when it does not change. */
  diff: string;
  /** What changes in the cluster: a heading and one line per object, then the objects' diff (secrets masked). */
  cluster: { lines: string[]; diff: string };
  dryRun: boolean;
  /** `! Secrets written in plain text: ...` when the inventory written holds secrets not vaulted. */
  plainText?: string;
}

export interface ReviewOptions {
  dryRun?: boolean;
  /** The review of `cloudgate regenerate`, which deletes the old secrets itself. */
  regenerating?: boolean;
}

export const NO_INVENTORY_CHANGE = 'No change to the inventory.';

export function reviewOf(plan: SetupPlan, options: ReviewOptions = {}): Review {
  const say = (name: string) => spelled(name, plan.names);
  const word = (type: string) => String(spelledValue('cluster_issuer_type', type, plan.names));
  const counts = diffCounts(plan.diff);
  const change =
    plan.issuerChanged && plan.previousIssuer
      ? issuerChange(word(plan.previousIssuer), word(plan.issuer), plan.inventoryPath, options.regenerating ?? false)
      : undefined;
  const line = profileLine(plan.names);
  return {
    inventoryPath: plan.inventoryPath,
    inventoryExists: plan.inventoryExists,
    heading: `Review: ${plan.inventoryPath} (${plan.inventoryExists ? 'exists' : 'new file'})`,
    ...(line ? { names: line } : {}),
    issuer: `Issuer: ${word(plan.issuer)}${change ? ` (was ${change.from})` : ''}`,
    issuerChange: change,
    set: plan.changedKeys.map(say),
    removed: plan.removedKeys.map(
      (key) => `Remove: ${plan.keys[key] ?? say(key)} (${respell(plan.removedReasons[key] ?? '', plan.names)})`,
    ),
    renamed: plan.renamed.map(renameLine),
    translated: plan.translated.map(
      (t) =>
        `Read as: ${t.from} -> ${t.to} (a neutral alias in the answers${plan.names === 'spec' ? '; written as --names spec says' : ''})`,
    ),
    findings: plan.findings.map((f) => respellFinding(f, plan.names)),
    blocked: hasErrors(plan.findings),
    files: plan.files.map((f) => ({
      path: f.path,
      description: f.description,
      mode: f.mode,
      holdsSecret: f.holdsSecret ?? false,
      ...(f.path === plan.inventoryPath ? { changes: `+${counts.added} -${counts.removed} lines` } : {}),
    })),
    diff: plan.diff,
    cluster: { lines: clusterLines(plan.cluster), diff: plan.cluster.diff },
    dryRun: options.dryRun ?? false,
    ...plainTextLine(plan),
  };
}

/** `Rename: OLD -> NEW (why)`, with the values where they change; `Remove: KEY (why)` for one set both ways. */
function renameLine(r: Rename): string {
  if (r.to === undefined) return `Remove: ${r.from} (${r.reason})`;
  const before = r.was !== undefined ? `${r.from}: ${r.was}` : r.from;
  const after = r.from === r.to ? r.value : r.value !== undefined ? `${r.to}: ${r.value}` : r.to;
  return `Rename: ${before} -> ${after} (${r.reason})`;
}

/** The secrets the written inventory holds in plain text, and how to vault them instead. */
function plainTextLine(plan: SetupPlan): Pick<Review, 'plainText'> {
  if (plan.plainSecrets.length === 0 || !plan.files.some((f) => f.path === plan.inventoryPath)) return {};
  const names = plan.plainSecrets.map((name) => spelled(name, plan.names)).join(', ');
  return {
    plainText: `Secrets written in plain text (no vault password): ${names}. --vault-password-file FILE writes them vaulted.`,
  };
}

/**
 * The issuer changes: the certificates the old one issued stay until their secrets are deleted. In
 * setup the advice is the next step to run once the deployment has put the new issuer in place.
 */
export function issuerChange(from: string, to: string, inventoryPath: string, regenerating: boolean): IssuerChange {
  return {
    from,
    to,
    message: `The issuer changes from ${from} to ${to}: the existing certificate secrets must be deleted so that ${to} issues new ones.`,
    advice: regenerating
      ? 'cloudgate regenerate deletes them once the deployment has put the new issuer in place (checked below).'
      : regenerateStep(inventoryPath, from),
  };
}

/** The next step after an issuer change; regenerate refuses until the deployment has run. */
export function regenerateStep(inventoryPath: string, from: string): string {
  return `cloudgate regenerate --inventory ${shellQuote(inventoryPath)}   # after the deployment: deletes the certificate secrets of ${from}`;
}

/** `PATH - DESCRIPTION (mode 0600, holds secrets, +3 -1 lines)`. */
export function fileLine(file: ReviewFile): string {
  const notes = [
    `mode ${file.mode.toString(8).padStart(4, '0')}`,
    file.holdsSecret ? 'holds secrets' : '',
    file.changes ?? '',
  ].filter(Boolean);
  return `${file.path} - ${file.description} (${notes.join(', ')})`;
}

/** The heading of the files to write; with none, the one line that says so. */
export function filesHeading(review: Review): string {
  if (review.files.length === 0) return 'Files to write: none (nothing changes).';
  return review.dryRun ? 'Would write (dry run: nothing is written):' : 'Files to write:';
}

export function findingLines(findings: Finding[]): string[] {
  return findings.flatMap((f) => [
    `${SEVERITY_MARK[f.severity]} ${f.message}`,
    ...(f.advice ? f.advice.split('\n').map((l) => `  -> ${l}`) : []),
  ]);
}

/** The diff without its patch header (Index:, ====, ---/+++ with the path): the heading names the file. */
export function diffBody(diff: string): string[] {
  if (diff.trim() === '') return [];
  const lines = diff.replace(/\n$/, '').split('\n');
  const firstHunk = lines.findIndex((l) => l.startsWith('@@'));
  return firstHunk < 0 ? lines : lines.slice(firstHunk);
}

export interface ReviewTextOptions {
  /** False when the inventory's diff is printed elsewhere (`setup --answers --dry-run`: on stdout). */
  inventoryDiff?: boolean;
}

/**
 * The review as lines, for the line front-ends: what is set and removed, the inventory diff, then what
 * changes in the cluster (one line per object, then the objects' diff), the files, the issuer change
 * and the findings. Lines are not yet escaped: the writer escapes and redacts each.
 */
export function reviewText(review: Review, options: ReviewTextOptions = {}): string[] {
  const lines = [review.heading, ...(review.names ? [review.names] : []), review.issuer];
  lines.push(...review.translated);
  if (review.set.length) lines.push(`Set: ${review.set.join(', ')}`);
  lines.push(...review.renamed, ...review.removed);
  if (review.diff.trim() === '') lines.push(NO_INVENTORY_CHANGE);
  else if (options.inventoryDiff === false) lines.push("The inventory's diff: on standard output.");
  else lines.push(...diffBody(review.diff));
  lines.push(...review.cluster.lines);
  if (review.cluster.diff) lines.push(...review.cluster.diff.replace(/\n$/, '').split('\n'));
  lines.push(filesHeading(review), ...review.files.map((f) => `  ${fileLine(f)}`));
  if (review.plainText) lines.push(`! ${review.plainText}`);
  if (review.issuerChange) lines.push(`! ${review.issuerChange.message}`, `  -> ${review.issuerChange.advice}`);
  lines.push(...findingLines(review.findings));
  return lines;
}

function diffCounts(diff: string): { added: number; removed: number } {
  const lines = diff.split('\n');
  return {
    added: lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length,
    removed: lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length,
  };
}
