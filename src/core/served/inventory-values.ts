/**
 * The inventory's variables as one flat mapping (file or folder, through inventory.ts), for checks
 * that only read them. A missing default inventory gives `{}`; a missing --inventory is an error.
 */
import { UsageError } from '../errors.js';
import { readInventoryTree } from '../inventory.js';

export async function readInventoryValues(path: string, explicit: boolean): Promise<Record<string, unknown>> {
  try {
    return (await readInventoryTree(path)).values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) return {};
    throw new UsageError(`Cannot read the inventory ${path}: ${code ?? (error as Error).message}.`,
      'Give --inventory a YAML file or an inventory folder with group_vars/.');
  }
}
