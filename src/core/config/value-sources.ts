/**
 * Where values of the answers were read from (`file:PATH`), so that a finding about a value names the
 * file to fix. Resolving the answers returns it beside them, and the plan passes it to the rules: it
 * is never kept aside, so one run never sees the files of another (a long-running process included).
 */
import type { BindKey } from './tsig-key.js';

export interface ValueSources {
  /** Variable → the file its value was read from. */
  files: Record<string, string>;
  /** The BIND key statement the TSIG secret was taken from: its name and algorithm are compared. */
  tsigKey?: BindKey;
}

/** The sources of answers resolved in two steps (an answers file, then the plan): the later step's win. */
export function joinSources(earlier: ValueSources | undefined, later: ValueSources): ValueSources {
  const tsigKey = later.tsigKey ?? earlier?.tsigKey;
  return { files: { ...earlier?.files, ...later.files }, ...(tsigKey ? { tsigKey } : {}) };
}
