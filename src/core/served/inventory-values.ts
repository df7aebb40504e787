/**
 * The inventory's variables as one flat mapping, for checks that only read them. A missing default
 * inventory gives `{}`; a missing --inventory is an error naming it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../errors.js';

export function readInventoryValues(path: string, explicit: boolean): Record<string, unknown> {
  let files: string[];
  try {
    files = statSync(path).isDirectory() ? yamlFiles(join(path, 'group_vars')) : [path];
  } catch (error) {
    if (!explicit) return {};
    throw new UsageError(`Cannot read the inventory ${path}: ${(error as NodeJS.ErrnoException).code ?? error}.`, 'Give --inventory a YAML file or an inventory folder with group_vars/.');
  }
  const values: Record<string, unknown> = {};
  for (const file of files) {
    let doc: unknown;
    try {
      doc = parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`The inventory file ${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) Object.assign(values, doc);
  }
  return values;
}

function yamlFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return entries.filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
}
