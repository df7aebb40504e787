import { resolve } from 'node:path';
import { UsageError, messageOf, codeOf } from '../core/errors.js';
import { readInventoryTree } from '../core/inventory/inventory.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import { namesView, respellFinding, spelled } from '../core/config/neutral-names.js';
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
  const view = namesView(values, path, flags.names);
  const names = view.profile;
  const rendered = renderInventory(view.values, names, { foreign: view.foreign });
  // With --names spec, the variables are named as that deployment reads them; a naming finding names both spellings already.
  const result = {
    ...rendered,
    objects: rendered.objects.map((o) => ({ ...o, from: o.from.map((name) => spelled(name, names)) })),
    findings: [...view.naming, ...rendered.findings.map((f) => respellFinding(f, names))],
  };
  if (names === 'spec') ctx.stderr.write("--names spec: the objects a deployment that reads the neutral aliases would create; the platform's own role reads its own names.\n");
  ctx.stdout.write(redact(flags.json ? renderJson(result) : renderYaml(result)));
  if (!flags.json) {
    for (const f of result.findings) {
      ctx.stderr.write(redact(`${f.severity}: ${f.message}\n${f.advice ? `  ${f.advice}\n` : ''}`));
    }
  }
  return result.findings.some((f) => f.severity === 'error') ? 2 : 0;
}
