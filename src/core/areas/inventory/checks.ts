/**
 * Doctor group `inventory`: lints an inventory file or folder with the rules of validate.ts.
 * Each finding is one check `inventory.<rule>.<variable>` (`inventory.<rule>` for a finding about no
 * variable), so an id names the same problem whatever else the inventory holds; a clean inventory is one
 * `inventory.valid` ok line.
 */
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { CheckProvider } from '../../doctor/input.js';
import type { Check, CheckResult, Verdict } from '../../doctor/types.js';
import { notConfigured, type Gate } from '../../doctor/gates.js';
import type { Finding } from '../../findings.js';
import { isTagged } from '../../inventory/ansible-tagged.js';
import { InventoryInputError, type InventoryTree } from '../../inventory/inventory.js';
import { registerSecret } from '../../secrets.js';
import { VARIABLES, choicesOf } from '../../config/variables.js';
import { isPemVariableFinding } from '../../tls/variable-rules.js';
import { judgeInventory } from '../../render/judge-inventory.js';
import { engineChoice } from '../../render/role-engine.js';
import { respell, respellFinding, spelled } from '../../config/neutral-names.js';
import { messageOf } from '../../errors.js';
import { vaultKeyringFromOptions } from '../../inventory/vault-options.js';
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
  /** Which engine rendered: the platform's role run, or cloudgate's model (and why). */
  engine?: unknown;
}

const fixed = (id: string, title: string, result: CheckResult<InventoryFacts>, gate?: Gate): Check => ({
  id: `${GROUP}.${id}`,
  group: GROUP,
  title,
  ...(gate ? { gate } : {}),
  run: async () => result,
});

export const provideChecks: CheckProvider = async (input) => {
  const path = input.inventoryPath;
  try {
    await stat(path);
  } catch {
    return [
      input.inventoryExplicit
        ? fixed('file', 'Inventory file', {
            status: 'fail',
            message: `The inventory ${path} does not exist.`,
            advice: 'Check the path given to --inventory (a YAML file, or a folder with group_vars/).',
          })
        : {
            id: `${GROUP}.file`,
            group: GROUP,
            title: 'Inventory file',
            gate: notConfigured(
              `No inventory at the default path ${path}.`,
              'Pass --inventory PATH, or create it with "cloudgate setup".',
            ),
          },
    ];
  }
  // A bad vault option is the run's input error (exit 2); a bad inventory file is this group's failure.
  const keyring = await vaultKeyringFromOptions(input.vault, input.env, input.cwd);
  let judged;
  try {
    judged = await judgeInventory({
      path,
      names: input.names,
      vault: input.vault,
      env: input.env,
      cwd: input.cwd,
      keyring,
      engine: engineChoice(undefined, input.env),
    });
  } catch (error) {
    if (error instanceof InventoryInputError) throw error;
    return [
      fixed('file', 'Inventory file', {
        status: 'fail',
        message: messageOf(error),
        advice: textOf(memberOf(error, 'advice')) ?? 'Fix the file and run the doctor again.',
      }),
    ];
  }
  const { tree, view, definedIn } = judged;
  // One group owns each fact: in a run with the certificate group, it checks the PEM variables (one broken PEM is reported once).
  const certificateRuns = !input.groups || input.groups.includes('certificate');
  const findings = certificateRuns ? judged.findings.filter((f) => !isPemVariableFinding(f.rule)) : judged.findings;
  if (tree.files.length === 0) {
    return [
      fixed('file', 'Inventory file', {
        status: 'fail',
        message: `No *.yml or *.yaml files under ${path}/group_vars.`,
        advice: 'Point --inventory at the inventory folder (the one holding group_vars/) or at a YAML file.',
      }),
    ];
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
    const branch =
      choices.issuer !== 'acme'
        ? choices.issuer
        : choices.solver === 'route53'
          ? `acme, route53 auth ${choices.auth}`
          : `acme, ${choices.solver}`;
    return [
      fixed('valid', 'Inventory variables', {
        status: 'ok',
        message: `${tree.files.length === 1 ? tree.files[0].path : `${tree.files.length} files under ${path}`}: no problems (issuer ${branch}${profile === 'spec' ? ', the neutral aliases (--names spec)' : ''}; rendered by ${judged.engine.engine === 'role' ? "the platform's role" : "cloudgate's model"}).`,
        facts: { files: tree.files.map((f) => f.path), names: profile, engine: judged.engine },
      }),
    ];
  }

  const used = new Set<string>();
  return findings.map((found) => {
    const f = found.rule === 'naming' ? found : respellFinding(found, profile);
    const stable = f.variable ? `${f.rule}.${f.variable}` : f.rule;
    let id = stable;
    for (let n = 2; used.has(id); n++) id = `${stable}-${n}`;
    used.add(id);
    const file = definedIn(found.variable);
    const merged =
      file && found.variable && f.rule !== 'merge-key' ? mergedFrom(tree, file, keyOf(found.variable)) : undefined;
    const from = merged
      ? ` (from ${merged} in ${file}, through a YAML merge key <<)`
      : file && tree.files.length > 1 && !['duplicate', 'overridden'].includes(f.rule)
        ? ` (from ${file.startsWith('/') ? relative(path, file) || file : file})`
        : '';
    return fixed(id, f.rule === 'naming' ? titleOf(f) : respell(titleOf(f), profile), {
      status: STATUS[f.severity],
      message: f.message + from,
      ...(f.advice ? { advice: f.advice } : {}),
      facts: {
        rule: f.rule,
        severity: f.severity,
        ...(f.variable ? { variable: f.variable } : {}),
        ...(file ? { file } : {}),
        engine: judged.engine.engine,
      },
    });
  });
};

/** The top-level key a variable's value was merged from (`<<: *anchor`), when it was (`key`: as the file writes it). */
function mergedFrom(tree: InventoryTree, file: string, key: string): string | undefined {
  return (tree.files.find((f) => f.path === file)?.merged ?? {})[key];
}

function titleOf(f: Finding): string {
  const rule = f.rule.replaceAll('-', ' ');
  return f.variable
    ? `${rule[0].toUpperCase()}${rule.slice(1)} (${f.variable})`
    : `${rule[0].toUpperCase()}${rule.slice(1)}`;
}
