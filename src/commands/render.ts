import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { readInventoryTree } from '../core/inventory/inventory.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import { detectProfile, respell, toNeutral } from '../core/config/platform-names.js';
import { NAMING_PROFILES, type NamingProfile } from '../core/render/names.js';
import { renderInventory, renderJson, renderYaml } from '../core/render/index.js';
import { redact } from '../core/secrets.js';
import { bool, str, type CommandContext } from '../core/run-context.js';

export async function run(ctx: CommandContext): Promise<number> {
  const asked = str(ctx.flags, 'names') as NamingProfile | undefined;
  if (asked !== undefined && !NAMING_PROFILES.includes(asked)) {
    throw new UsageError(`--names must be one of ${NAMING_PROFILES.join(', ')}, not "${asked}".`);
  }
  const path = resolve(ctx.cwd, str(ctx.flags, 'inventory') ?? DEFAULT_INVENTORY);
  let values: Record<string, unknown>;
  try {
    values = (await readInventoryTree(path)).values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the inventory ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      'Give --inventory a YAML file or an inventory folder with group_vars/.');
  }
  const detected = detectProfile(Object.keys(values), path);
  if (asked && detected && asked !== detected) {
    throw new UsageError(`--names ${asked} was given, but ${path} uses the ${detected === 'platform' ? "platform's" : 'neutral'} variable names.`,
      `Drop --names (it is detected from the inventory) or give --names ${detected}.`);
  }
  const names = asked ?? detected ?? 'spec';
  const rendered = renderInventory(names === 'platform' ? toNeutral(values) : values, names);
  const result = { ...rendered, findings: rendered.findings.map((f) => ({ ...f, variable: respell(f.variable, names), message: respell(f.message, names), ...(f.advice ? { advice: respell(f.advice, names) } : {}) })) };
  ctx.stdout.write(redact(bool(ctx.flags, 'json') ? renderJson(result) : renderYaml(result)));
  if (!bool(ctx.flags, 'json')) {
    for (const f of result.findings) {
      ctx.stderr.write(redact(`${f.severity}: ${f.message}\n${f.advice ? `  ${f.advice}\n` : ''}`));
    }
  }
  return result.findings.some((f) => f.severity === 'error') ? 2 : 0;
}
