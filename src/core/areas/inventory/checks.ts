/**
 * Doctor group `inventory`: lints an inventory file or folder with the rules of validate.ts.
 * Each finding is one check `inventory.<rule>` (suffixed with the variable when a rule fires more
 * than once); a clean inventory is one `inventory.valid` ok line.
 */
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { CheckProvider } from '../../doctor/input.js';
import type { Check, CheckResult, Status } from '../../doctor/types.js';
import { configured, type Gate } from '../../doctor/gates.js';
import type { Finding } from '../../findings.js';
import { isTagged } from '../../inventory/ansible-tagged.js';
import { InventoryInputError, type InventoryTree } from '../../inventory/inventory.js';
import { registerSecret } from '../../secrets.js';
import { VARIABLES, choicesOf } from '../../config/variables.js';
import { judgeInventory } from '../../render/judge-inventory.js';
import { engineChoice } from '../../render/role-engine.js';
import { respell, respellFinding, spelled } from '../../config/neutral-names.js';
import { messageOf } from '../../errors.js';
import { vaultKeyringFromOptions } from '../../inventory/vault-options.js';
import { memberOf, textOf } from '../../records.js';

const GROUP = 'inventory';
const STATUS: Record<Finding['severity'], Status> = { error: 'fail', warning: 'warn', info: 'ok' };

const fixed = (id: string, title: string, result: CheckResult, gate?: Gate): Check => ({
  id: `${GROUP}.${id}`, group: GROUP, title, ...(gate ? { gate } : {}), run: async () => result,
});

export const provideChecks: CheckProvider = async (input) => {
  const path = input.inventoryPath;
  try {
    await stat(path);
  } catch {
    return [input.inventoryExplicit
      ? fixed('file', 'Inventory file', { status: 'fail', message: `The inventory ${path} does not exist.`,
        advice: 'Check the path given to --inventory (a YAML file, or a folder with group_vars/).' })
      : fixed('file', 'Inventory file', { status: 'skip', message: `No inventory at the default path ${path}.` },
        configured({ '--inventory': undefined }, {
          message: `No inventory at the default path ${path}.`,
          text: 'Pass --inventory PATH, or create it with "cloudgate setup".',
        }))];
  }
  // A bad vault option is the run's input error (exit 2); a bad inventory file is this group's failure.
  const keyring = await vaultKeyringFromOptions(input.vault, input.env, input.cwd);
  let judged;
  try {
    judged = await judgeInventory({ path, names: input.names, vault: input.vault, env: input.env, cwd: input.cwd, keyring, engine: engineChoice(undefined, input.env) });
  } catch (error) {
    if (error instanceof InventoryInputError) throw error;
    return [fixed('file', 'Inventory file', { status: 'fail', message: messageOf(error),
      advice: textOf(memberOf(error, 'advice')) ?? 'Fix the file and run the doctor again.' })];
  }
  const { tree, view, findings, definedIn } = judged;
  if (tree.files.length === 0) {
    return [fixed('file', 'Inventory file', { status: 'fail', message: `No *.yml or *.yaml files under ${path}/group_vars.`,
      advice: 'Point --inventory at the inventory folder (the one holding group_vars/) or at a YAML file.' })];
  }
  const { profile } = view;
  const keyOf = (name: string) => view.keys[name] ?? spelled(name, profile);
  for (const file of tree.files) {
    for (const row of VARIABLES.filter((r) => r.secret)) {
      for (const key of [row.name, row.alias]) {
        const value = key ? file.values[key] : undefined;
        registerSecret(isTagged(value) ? value.text : value);
      }
    }
  }
  if (findings.length === 0) {
    const choices = choicesOf(view.values);
    const branch = choices.issuer !== 'acme' ? choices.issuer : choices.solver === 'route53' ? `acme, route53 auth ${choices.auth}` : `acme, ${choices.solver}`;
    return [fixed('valid', 'Inventory variables', { status: 'ok',
      message: `${tree.files.length === 1 ? tree.files[0].path : `${tree.files.length} files under ${path}`}: no problems (issuer ${branch}${profile === 'spec' ? ', the neutral aliases (--names spec)' : ''}; rendered by ${judged.engine.engine === 'role' ? "the platform's role" : "cloudgate's model"}).`,
      details: { files: tree.files.map((f) => f.path), names: profile, engine: judged.engine } })];
  }

  const perRule = new Map<string, number>();
  for (const f of findings) perRule.set(f.rule, (perRule.get(f.rule) ?? 0) + 1);
  const used = new Set<string>();
  return findings.map((found) => {
    const f = found.rule === 'naming' ? found : respellFinding(found, profile);
    let id = perRule.get(f.rule)! > 1 && f.variable ? `${f.rule}.${f.variable}` : f.rule;
    for (let n = 2; used.has(id); n++) id = `${f.rule}.${f.variable ?? 'x'}-${n}`;
    used.add(id);
    const file = definedIn(found.variable);
    const merged = file && found.variable && f.rule !== 'merge-key' ? mergedFrom(tree, file, keyOf(found.variable)) : undefined;
    const from = merged ? ` (from ${merged} in ${file}, through a YAML merge key <<)`
      : file && tree.files.length > 1 && !['duplicate', 'overridden'].includes(f.rule) ? ` (from ${file.startsWith('/') ? relative(path, file) || file : file})` : '';
    return fixed(id, f.rule === 'naming' ? titleOf(f) : respell(titleOf(f), profile), {
      status: STATUS[f.severity], message: f.message + from, ...(f.advice ? { advice: f.advice } : {}),
      details: { rule: f.rule, severity: f.severity, ...(f.variable ? { variable: f.variable } : {}), ...(file ? { file } : {}), engine: judged.engine.engine },
    });
  });
};

/** The top-level key a variable's value was merged from (`<<: *anchor`), when it was (`key`: as the file writes it). */
function mergedFrom(tree: InventoryTree, file: string, key: string): string | undefined {
  return (tree.files.find((f) => f.path === file)?.merged ?? {})[key];
}

function titleOf(f: Finding): string {
  const rule = f.rule.replaceAll('-', ' ');
  return f.variable ? `${rule[0].toUpperCase()}${rule.slice(1)} (${f.variable})` : `${rule[0].toUpperCase()}${rule.slice(1)}`;
}
