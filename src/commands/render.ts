import { resolve } from 'node:path';
import { UsageError, messageOf, codeOf } from '../core/errors.js';
import { memberOf, textOf } from '../core/records.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import { respellFinding, spelled } from '../core/config/neutral-names.js';
import { renderJson, renderYaml, renderedResult } from '../core/render/index.js';
import { judgeInventory } from '../core/render/judge-inventory.js';
import { engineChoice } from '../core/render/role-engine.js';
import { vaultKeyringFromOptions } from '../core/inventory/vault-options.js';
import { redact } from '../core/secrets.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'render'>): Promise<number> {
  const path = resolve(ctx.cwd, flags.inventory ?? DEFAULT_INVENTORY);
  const vault = { passwordFiles: flags.vaultPasswordFile, ids: flags.vaultId };
  const keyring = await vaultKeyringFromOptions(vault, ctx.env, ctx.cwd);
  let judged;
  try {
    judged = await judgeInventory({
      path,
      names: flags.names,
      vault,
      env: ctx.env,
      cwd: ctx.cwd,
      keyring,
      engine: engineChoice(flags.engine, ctx.env),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Cannot read the inventory ${path}: ${codeOf(error) ?? messageOf(error)}.`,
      textOf(memberOf(error, 'advice')) ?? 'Give --inventory a YAML file or an inventory folder with group_vars/.',
    );
  }
  const names = judged.view.profile;
  const rendered = renderedResult(judged);
  // With --names spec, the variables are named as that deployment reads them; a naming finding names both spellings already.
  const result = {
    ...rendered,
    objects: rendered.objects.map((o) => ({ ...o, from: o.from.map((name) => spelled(name, names)) })),
    findings: rendered.findings.map((f) => (f.rule === 'naming' ? f : respellFinding(f, names))),
  };
  ctx.stderr.write(`Rendered by ${judged.engine.description}.\n`);
  if (names === 'spec')
    ctx.stderr.write(
      "--names spec: the objects a deployment that reads the neutral aliases would create; the platform's own role reads its own names.\n",
    );
  ctx.stdout.write(redact(flags.json ? renderJson(result, judged.engine) : renderYaml(result)));
  if (!flags.json) {
    for (const f of result.findings) {
      ctx.stderr.write(redact(`${f.severity}: ${f.message}\n${f.advice ? `  ${f.advice}\n` : ''}`));
    }
  }
  return result.findings.some((f) => f.severity === 'error') ? 2 : 0;
}
