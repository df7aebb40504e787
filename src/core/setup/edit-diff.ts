/**
 * A unified diff built from the splices that made the new text, in time linear in the size of the
 * file and memory of the changed lines only (a general line diff of a 16 MB inventory holds every
 * line of both texts). The layout is that of `diff -u`, three lines of context. Masks (values to
 * hide) are applied to the lines shown only.
 */
import type { TextEdit } from '../inventory/inventory.js';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

/** Changed whole lines: [start, end) of the old text, [newStart, newEnd) of the new one, and where they start. */
interface Region {
  start: number;
  end: number;
  newStart: number;
  newEnd: number;
  /** 0-based first line and number of lines, in the old text; the first line in the new one. */
  oldLine: number;
  oldCount: number;
  newLine: number;
}

export interface DiffTexts {
  before: string;
  after: string;
  /** Splices applied to the lines shown (masking values); each within one line, sorted. */
  beforeMasks?: readonly TextEdit[];
  afterMasks?: readonly TextEdit[];
}

export function unifiedDiffOfEdits(path: string, texts: DiffTexts, edits: readonly TextEdit[]): string {
  const { before, after } = texts;
  const old = (from: number, to: number) => linesOf(before, texts.beforeMasks ?? [], from, to);
  const regions = changedRegions(before, edits);
  const hunks: string[] = [];
  for (let i = 0; i < regions.length;) {
    // Regions closer than twice the context share one hunk.
    let j = i;
    while (j + 1 < regions.length && regions[j + 1].oldLine - (regions[j].oldLine + regions[j].oldCount) <= 2 * CONTEXT)
      j++;
    const from = linesBack(before, regions[i].start);
    const body: string[] = [];
    let at = from;
    for (const r of regions.slice(i, j + 1)) {
      body.push(
        ...mark(' ', old(at, r.start)),
        ...mark('-', old(r.start, r.end)),
        ...mark('+', linesOf(after, texts.afterMasks ?? [], r.newStart, r.newEnd)),
      );
      at = r.end;
    }
    body.push(...mark(' ', old(at, linesOn(before, at))));
    const oldFrom = regions[i].oldLine - countNewlines(before, from, regions[i].start);
    const newFrom = oldFrom + regions[i].newLine - regions[i].oldLine;
    const oldCount = body.filter((l) => l[0] === ' ' || l[0] === '-').length;
    const newCount = body.filter((l) => l[0] === ' ' || l[0] === '+').length;
    hunks.push(
      `@@ -${oldCount === 0 ? oldFrom : oldFrom + 1},${oldCount} +${newCount === 0 ? newFrom : newFrom + 1},${newCount} @@`,
      ...body,
    );
    i = j + 1;
  }
  return hunks.length === 0
    ? ''
    : [`Index: ${path}`, '='.repeat(67), `--- ${path}`, `+++ ${path}`, ...hunks, ''].join('\n');
}

const mark = (prefix: string, lines: string[]): string[] =>
  lines.map((line) => (line === NO_NEWLINE ? line : prefix + line));

/** The edits widened to whole lines (edits sharing a line merged), those that change something. */
function changedRegions(text: string, edits: readonly TextEdit[]): Region[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const regions: Region[] = [];
  let line = 0;
  let counted = 0;
  let lineDelta = 0;
  let charDelta = 0;
  for (let i = 0; i < sorted.length;) {
    const start = text.lastIndexOf('\n', sorted[i].start - 1) + 1;
    let end = lineEndAt(text, sorted[i].end, sorted[i].start);
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1].start < end) {
      j++;
      end = Math.max(end, lineEndAt(text, sorted[j].end, sorted[j].start));
    }
    let replaced = '';
    let at = start;
    for (const edit of sorted.slice(i, j + 1)) {
      replaced += text.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    replaced += text.slice(at, end);
    line += countNewlines(text, counted, start);
    counted = start;
    const oldPart = text.slice(start, end);
    if (oldPart !== replaced) {
      const oldCount = lineCount(oldPart);
      regions.push({
        start,
        end,
        newStart: start + charDelta,
        newEnd: start + charDelta + replaced.length,
        oldLine: line,
        oldCount,
        newLine: line + lineDelta,
      });
      lineDelta += lineCount(replaced) - oldCount;
      charDelta += replaced.length - oldPart.length;
    }
    i = j + 1;
  }
  return regions;
}

/** The end of the line holding `end` (just after its newline); an insertion at a line start covers no line. */
function lineEndAt(text: string, end: number, start: number): number {
  if (end === start && (start === 0 || text[start - 1] === '\n')) return start;
  if (end > start && text[end - 1] === '\n') return end;
  const nl = text.indexOf('\n', end);
  return nl === -1 ? text.length : nl + 1;
}

/** The start of the line CONTEXT lines before the line starting at `at`. */
function linesBack(text: string, at: number): number {
  for (let n = 0; n < CONTEXT && at > 0; n++) at = at === 1 ? 0 : text.lastIndexOf('\n', at - 2) + 1;
  return at;
}

/** The end of the line CONTEXT lines on from the line starting at `at`. */
function linesOn(text: string, at: number): number {
  for (let n = 0; n < CONTEXT && at < text.length; n++) {
    const nl = text.indexOf('\n', at);
    at = nl === -1 ? text.length : nl + 1;
  }
  return at;
}

/** The lines of [from, to) (whole lines), masks applied; a last line without a newline is marked as such. */
function linesOf(text: string, masks: readonly TextEdit[], from: number, to: number): string[] {
  if (from >= to) return [];
  let part = '';
  let at = from;
  for (const m of masks) {
    if (m.start >= to) break;
    if (m.start < at) continue;
    part += text.slice(at, m.start) + m.text;
    at = m.end;
  }
  const lines = (part + text.slice(at, to)).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines.push(NO_NEWLINE);
  return lines;
}

function lineCount(part: string): number {
  if (part === '') return 0;
  return countNewlines(part, 0, part.length) + (part.endsWith('\n') ? 0 : 1);
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
