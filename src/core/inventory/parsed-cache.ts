/**
 * The one cache of parsed inventory files. Setup reads, updates and diffs the same text, and every
 * check of a doctor run reads the same inventory: each text is parsed once. A text is found by its
 * content; a file read again is found by its identity (device, inode, size, modification and change
 * times) without being read again, so a file that changed is read and parsed anew. The newest
 * entries are kept, up to a total size.
 */
import type { Stats } from 'node:fs';
import type { YamlMapping } from './yaml-load.js';

interface Entry {
  mapping: YamlMapping;
  /** The identity of the file the text was read from, if it was. */
  stamp?: string;
}

const MAX_ENTRIES = 64;

export class ParsedCache {
  /** Oldest first. */
  private entries: Entry[] = [];

  constructor(private readonly maxChars: number) {}

  byText(text: string): YamlMapping | undefined {
    const hit = this.entries.find((e) => e.mapping.text === text);
    if (hit) this.touch(hit);
    return hit?.mapping;
  }

  byFile(info: Stats): YamlMapping | undefined {
    const stamp = stampOf(info);
    const hit = this.entries.find((e) => e.stamp === stamp);
    if (hit) this.touch(hit);
    return hit?.mapping;
  }

  /** Keeps a parse; `info`: the stats of the file its text was read from. */
  add(mapping: YamlMapping, info?: Stats): void {
    const stamp = info ? stampOf(info) : undefined;
    this.entries = this.entries.filter(
      (e) => e.mapping.text !== mapping.text && (stamp === undefined || e.stamp !== stamp),
    );
    this.entries.push({ mapping, ...(stamp ? { stamp } : {}) });
    let chars = this.entries.reduce((n, e) => n + e.mapping.text.length, 0);
    while (this.entries.length > 1 && (chars > this.maxChars || this.entries.length > MAX_ENTRIES)) {
      chars -= this.entries.shift()!.mapping.text.length;
    }
  }

  private touch(entry: Entry): void {
    this.entries = [...this.entries.filter((e) => e !== entry), entry];
  }
}

function stampOf(info: Stats): string {
  return [info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs].join(':');
}
