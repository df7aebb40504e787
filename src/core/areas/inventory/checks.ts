/**
 * Doctor group `inventory`: lints an inventory file or folder with the rules of validate.ts.
 * Each finding is one check `inventory.<rule>` (suffixed with the variable when a rule fires more
 * than once); a clean inventory is one `inventory.valid` ok line.
 */
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { CheckProvider } from '../../doctor/input.js';
import type { Check, CheckResult, Verdict } from '../../doctor/types.js';
import { notConfigured, type Gate } from '../../doctor/gates.js';
import type { Finding } from '../../findings.js';
import { isTagged } from '../../inventory/ansible-tagged.js';
import { InventoryInputError, readInventoryTree, type InventoryTree } from '../../inventory/inventory.js';
import { validate } from '../../config/validate.js';
import { isPemVariableFinding } from '../../tls/variable-rules.js';
import { vaultKeyringFromOptions } from '../../inventory/vault-options.js';
import { openVaulted, withoutUnchecked } from '../../inventory/vaulted-values.js';
import { registerSecret } from '../../secrets.js';
import { VARIABLES, choicesOf } from '../../config/variables.js';
import { where } from '../../inventory/yaml-load.js';
import { hostVarsOverrides, overrideWarnings } from '../../inventory/vars-overrides.js';
import { platformFindings } from '../../render/findings.js';
import { namesView, respell, respellFinding, rowOf, spelled } from '../../config/neutral-names.js';
import { messageOf } from '../../errors.js';
import { memberOf, textOf } from '../../records.js';

const GROUP = 'inventory';
const STATUS: Record<Finding['severity'], Verdict> = { error: 'fail', warning: 'warn', info: 'ok' };

/** What --verbose and --json show of an inventory check. */
interface InventoryFacts {
  files?: string[];
  names?: string;
  rule?: string;
  severity?: Finding['severity'];
  variable?: string;
  file?: string;
}

const fixed = (id: string, title: string, result: CheckResult<InventoryFacts>, gate?: Gate): Check => ({
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
      : { id: `${GROUP}.file`, group: GROUP, title: 'Inventory file',
        gate: notConfigured(`No inventory at the default path ${path}.`, 'Pass --inventory PATH, or create it with "cloudgate setup".') }];
  }
  let tree;
  try {
    tree = await readInventoryTree(path);
  } catch (error) {
    if (error instanceof InventoryInputError) throw error;
    return [fixed('file', 'Inventory file', { status: 'fail', message: messageOf(error),
      advice: textOf(memberOf(error, 'advice')) ?? 'Fix the file and run the doctor again.' })];
  }
  if (tree.files.length === 0) {
    return [fixed('file', 'Inventory file', { status: 'fail', message: `No *.yml or *.yaml files under ${path}/group_vars.`,
      advice: 'Point --inventory at the inventory folder (the one holding group_vars/) or at a YAML file.' })];
  }

  // The platform's words unless --names spec; a variable or value in the other words is a finding with its rename.
  const view = namesView(tree.values, path, input.names);
  const { profile } = view;
  for (const file of tree.files) {
    for (const row of VARIABLES.filter((r) => r.secret)) {
      for (const key of [row.name, row.alias]) {
        const value = key ? file.values[key] : undefined;
        registerSecret(isTagged(value) ? value.text : value);
      }
    }
  }
  // The rules check what the operator meant (aliases translated); the render, what the deployment reads.
  const vaulted = openVaulted(view.meant, await vaultKeyringFromOptions(input.vault, input.env, input.cwd));
  const deployed = Object.fromEntries(Object.keys(view.values).map((k) => [k, view.foreign.has(k) ? view.values[k] : vaulted.values[k]]));
  const keyOf = (name: string) => view.keys[name] ?? spelled(name, profile);
  const definedIn = (name?: string) => (name ? tree.sources[keyOf(name)] ?? tree.sources[name] : undefined);
  // The certificate group owns the checks of the PEM variables (one broken PEM is reported once).
  const rules = validate(vaulted.values).filter((f) => !isPemVariableFinding(f.rule));
  // Values Ansible takes from elsewhere for some hosts: host_vars/, and for one file, the other groups' files.
  const read = VARIABLES.flatMap((row) => [row.name, ...(row.alias ? [row.alias] : [])]).filter((name) => name in tree.values);
  const overrides = (await stat(path)).isDirectory() ? await hostVarsOverrides(path, read) : await overrideWarnings(path, read);
  const findings: Finding[] = [
    ...tree.loops.map((loop): Finding => ({
      rule: 'link-loop', severity: 'warning',
      message: `${loop} is a symbolic link back to a folder being read (a loop); it was read once, not again.`,
      advice: 'Remove the link, or point it at a folder outside the inventory tree.',
    })),
    ...tree.files.flatMap((file) => file.notices.map((n): Finding => ({
      // An unknown tag makes Ansible refuse the file; other warnings do not.
      rule: n.code === 'TAG_RESOLVE_FAILED' ? 'yaml-tag' : 'yaml-warning',
      severity: n.code === 'TAG_RESOLVE_FAILED' ? 'error' : 'warning',
      message: `${file.path}${where(n)}: ${n.message}.`,
      advice: n.code === 'TAG_RESOLVE_FAILED' ? 'Remove the tag, or use one Ansible knows: !vault or !unsafe.' : 'Fix the YAML there.',
    }))),
    // A value a merge key (<<) brings: Ansible deploys it, and the reader of the file may not see it.
    ...tree.files.flatMap((file) => Object.entries(file.merged)
      .flatMap(([name, key]) => { const row = rowOf(name); return row ? [{ name, key, row }] : []; })
      .map(({ name, key, row }): Finding => ({
        rule: 'merge-key', variable: name, severity: 'info',
        message: `${name} is ${row.secret || typeof file.values[name] === 'object' ? 'set' : JSON.stringify(file.values[name])} through the YAML merge key (<<) in ${file.path}, from ${key === '<<' ? 'the mapping written there' : `"${key}"`}: Ansible deploys this value.`,
        advice: 'Setup and regenerate change it by writing the variable itself (which wins over the merge); they cannot remove it from the merged mapping.',
      }))),
    ...overrides,
    ...tree.conflicts.map((c): Finding => ({
      rule: 'duplicate', variable: c.name, severity: 'warning',
      message: `${c.name} is defined with different values in ${c.files.join(' and ')}.`,
      advice: 'Keep one definition: which one wins depends on the host\'s groups, which is easy to get wrong.',
    })),
    // Then what the deployment itself would fail on (a variable its templates need, an object refused).
    ...withoutUnchecked([...rules, ...platformFindings(deployed, rules, profile, { foreign: view.foreign, yamlNulls: true })], vaulted.unchecked),
    ...view.naming,
    ...vaulted.findings,
  ];
  if (findings.length === 0) {
    const choices = choicesOf(view.values);
    const branch = choices.issuer !== 'acme' ? choices.issuer : choices.solver === 'route53' ? `acme, route53 auth ${choices.auth}` : `acme, ${choices.solver}`;
    return [fixed('valid', 'Inventory variables', { status: 'ok',
      message: `${tree.files.length === 1 ? tree.files[0].path : `${tree.files.length} files under ${path}`}: no problems (issuer ${branch}${profile === 'spec' ? ', the neutral aliases (--names spec)' : ''}).`,
      facts: { files: tree.files.map((f) => f.path), names: profile } })];
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
      : file && tree.files.length > 1 && f.rule !== 'duplicate' ? ` (from ${relative(path, file) || file})` : '';
    return fixed(id, f.rule === 'naming' ? titleOf(f) : respell(titleOf(f), profile), {
      status: STATUS[f.severity], message: f.message + from, ...(f.advice ? { advice: f.advice } : {}),
      facts: { rule: f.rule, severity: f.severity, ...(f.variable ? { variable: f.variable } : {}), ...(file ? { file } : {}) },
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
