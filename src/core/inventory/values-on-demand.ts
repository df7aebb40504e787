import { existsSync } from 'node:fs';

/**
 * The inventory values of a doctor run, as `inventoryValues` gives them, with the inventory reader (and
 * the YAML parser under it, about 300 KB of code) loaded only when there is an inventory to read: a run
 * that checks named endpoints without one starts its probes that much sooner.
 */
export async function inventoryValuesOnDemand(input: {
  inventoryPath: string;
  inventoryExplicit: boolean;
  names?: string;
}): Promise<Record<string, unknown>> {
  if (!input.inventoryExplicit && !existsSync(input.inventoryPath)) return {};
  return (await import('./inventory.js')).inventoryValues(input);
}
