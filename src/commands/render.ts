import { resolve } from 'node:path';
import { UsageError, messageOf, codeOf } from '../core/errors.js';
import { readInventoryTree } from '../core/inventory/inventory.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import { neutralView, respellFinding } from '../core/config/platform-names.js';
import { renderInventory, renderJson, renderYaml } from '../core/render/index.js';
import { redact } from '../core/secrets.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'render'>): Promise<number> {
  const path = resolve(ctx.cwd, flags.inventory ?? DEFAULT_INVENTORY);
  let values: Record<string, unknown>;
  try {
    values = (await readInventoryTree(path)).values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the inventory ${path}: ${codeOf(error) ?? messageOf(error)}.`,
      'Give --inventory a YAML file or an inventory folder with group_vars/.');
  }
  const view = neutralView(values, path, flags.names);
  const names = view.profile;
  const rendered = renderInventory(view.values, names, { foreign: view.foreign });
  // A naming finding names both spellings on purpose: it is not respelled.
  const result = { ...rendered, findings: [...view.naming, ...rendered.findings.map((f) => respellFinding(f, names))] };
  ctx.stdout.write(redact(flags.json ? renderJson(result) : renderYaml(result)));
  if (!flags.json) {
    for (const f of result.findings) {
      ctx.stderr.write(redact(`${f.severity}: ${f.message}\n${f.advice ? `  ${f.advice}\n` : ''}`));
    }
  }
  return result.findings.some((f) => f.severity === 'error') ? 2 : 0;
}
