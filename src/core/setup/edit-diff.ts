/**
 * A unified diff built from the splices that made the new text, in time linear in the size of the
 * file and memory of the changed lines only (a general line diff of a 16 MB inventory holds every
 * line of both texts). The layout is that of `diff -u`, three lines of context. Masks (values to
 * hide) are applied to the lines shown only.
 */
import type { TextEdit } from '../inventory/inventory.js';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

interface Region {
  /** 0-based first line and number of lines, in the old and in the new text. */
  oldLine: number;
  oldCount: number;
  newLine: number;
  newCount: number;
}

export interface DiffTexts {
  before: string;
  after: string;
  /** Splices applied to the lines shown (masking values); each within one line, sorted. */
  beforeMasks?: readonly TextEdit[];
  afterMasks?: readonly TextEdit[];
}

export function unifiedDiffOfEdits(path: string, texts: DiffTexts, edits: readonly TextEdit[]): string {
  const regions = changedRegions(texts.before, edits);
  if (regions.length === 0) return '';
  const old = new LineReader(texts.before, texts.beforeMasks ?? []);
  const now = new LineReader(texts.after, texts.afterMasks ?? []);
  const totalOld = lineCount(texts.before);
  const hunks: string[] = [];
  for (let i = 0; i < regions.length;) {
    // Regions closer than twice the context share one hunk.
    let j = i;
    while (j + 1 < regions.length && regions[j + 1].oldLine - (regions[j].oldLine + regions[j].oldCount) <= 2 * CONTEXT) j++;
    const first = regions[i];
    const last = regions[j];
    const from = Math.max(0, first.oldLine - CONTEXT);
    const to = Math.min(totalOld, last.oldLine + last.oldCount + CONTEXT);
    const body: string[] = [];
    let at = from;
    for (let k = i; k <= j; k++) {
      const r = regions[k];
      body.push(...old.lines(at, r.oldLine - at).map((l) => mark(' ', l)));
      body.push(...old.lines(r.oldLine, r.oldCount).map((l) => mark('-', l)));
      body.push(...now.lines(r.newLine, r.newCount).map((l) => mark('+', l)));
      at = r.oldLine + r.oldCount;
    }
    body.push(...old.lines(at, to - at).map((l) => mark(' ', l)));
    const oldCount = to - from;
    const newCount = oldCount + regions.slice(i, j + 1).reduce((n, r) => n + r.newCount - r.oldCount, 0);
    const newFrom = from + (first.newLine - first.oldLine);
    hunks.push(`@@ -${oldCount === 0 ? from : from + 1},${oldCount} +${newCount === 0 ? newFrom : newFrom + 1},${newCount} @@`, ...body);
    i = j + 1;
  }
  return [`Index: ${path}`, '='.repeat(67), `--- ${path}`, `+++ ${path}`, ...hunks, ''].join('\n');
}

const mark = (prefix: string, line: string): string => (line === NO_NEWLINE ? line : prefix + line);

/** The edits widened to whole lines (edits sharing a line merged), as line ranges. */
function changedRegions(text: string, edits: readonly TextEdit[]): Region[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const regions: Region[] = [];
  let line = 0;
  let counted = 0;
  let delta = 0;
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
    for (let k = i; k <= j; k++) {
      replaced += text.slice(at, sorted[k].start) + sorted[k].text;
      at = sorted[k].end;
    }
    replaced += text.slice(at, end);
    line += countNewlines(text, counted, start);
    counted = start;
    const oldPart = text.slice(start, end);
    if (oldPart !== replaced) {
      const oldCount = lineCount(oldPart);
      const newCount = lineCount(replaced);
      regions.push({ oldLine: line, oldCount, newLine: line + delta, newCount });
      delta += newCount - oldCount;
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

function lineCount(part: string): number {
  if (part === '') return 0;
  return countNewlines(part, 0, part.length) + (part.endsWith('\n') ? 0 : 1);
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Reads lines by number, masks applied, only forward through the text (hunks come in order, apart). */
class LineReader {
  private line = 0;
  private offset = 0;
  private mask = 0;

  constructor(private readonly text: string, private readonly masks: readonly TextEdit[]) {}

  lines(from: number, count: number): string[] {
    while (this.line < from) this.skip();
    const out: string[] = [];
    for (let n = 0; n < count && this.offset < this.text.length; n++) {
      const nl = this.text.indexOf('\n', this.offset);
      const end = nl === -1 ? this.text.length : nl;
      out.push(this.masked(this.offset, end));
      if (nl === -1) out.push(NO_NEWLINE);
      this.skip();
    }
    return out;
  }

  private masked(start: number, end: number): string {
    while (this.mask < this.masks.length && this.masks[this.mask].end <= start) this.mask++;
    let line = '';
    let at = start;
    for (let i = this.mask; i < this.masks.length && this.masks[i].start < end; i++) {
      const m = this.masks[i];
      if (m.start < at) continue;
      line += this.text.slice(at, m.start) + m.text;
      at = Math.min(m.end, end);
    }
    return line + this.text.slice(at, end);
  }

  private skip(): void {
    const nl = this.text.indexOf('\n', this.offset);
    this.offset = nl === -1 ? this.text.length : nl + 1;
    this.line++;
  }
}
