/**
 * The judgement of an inventory, the one `cloudgate render` and `doctor --only inventory` both give:
 * the inventory read as Ansible reads it for the host the role runs on (inventory.ts), its files'
 * problems (YAML, links, merge keys, what wins over what), the neutral aliases, the vaulted values
 * (opened with every vault password Ansible would use), then judge.ts on the values; with the
 * platform's role installed, the objects are the ones the role itself records (role-run.ts).
 */
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Finding } from '../findings.js';
import { namesView, rowOf, type NamesView } from '../config/neutral-names.js';
import { readInventoryTree, type InventoryTree } from '../inventory/inventory.js';
import { overrideWarnings } from '../inventory/vars-overrides.js';
import { vaultKeyringFromOptions, type VaultKeyring, type VaultOptions } from '../inventory/vault-options.js';
import { openVaulted } from '../inventory/vaulted-values.js';
import { where } from '../inventory/yaml-load.js';
import { OWNED_PREFIXES, VARIABLES } from '../config/variables.js';
import { merge, objectFindings, renderJudgement, ruleFindings } from './judge.js';
import {
  disagreements,
  renderWithRole,
  type EngineChoice,
  type EngineUsed,
  type Locator,
  type RoleRendered,
} from './role-engine.js';
import type { HelmRelease, RenderFinding, RenderedObject } from './types.js';
import { valueHazards } from './value-hazards.js';
import type { Conversion } from './values.js';
import { UsageError } from '../errors.js';
import { ansibleSetting } from '../inventory/ansible-config.js';

export interface InventoryJudgeInput {
  path: string;
  names?: string;
  vault: VaultOptions;
  env: NodeJS.ProcessEnv;
  cwd: string;
  now?: Date;
  /** ansible-core's conversion of templated strings (default: that of the release the platform pins). */
  conversion?: Conversion;
  /** A keyring already opened from the same options (the vault passwords are read once). */
  keyring?: VaultKeyring;
  /** Who renders: the platform's role where installed (auto), only it (role), or cloudgate's model. */
  engine?: EngineChoice;
}

export interface InventoryJudgement {
  tree: InventoryTree;
  view: NamesView;
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: Finding[];
  keyring?: VaultKeyring;
  /** Which rendered: the platform's role or cloudgate's model, said in one line. */
  engine: EngineUsed;
  /** The file (or hosts-file section) the value of a variable (the platform's name) comes from. */
  definedIn: (name?: string) => string | undefined;
}

export async function judgeInventory(input: InventoryJudgeInput): Promise<InventoryJudgement> {
  const keyring = input.keyring ?? (await vaultKeyringFromOptions(input.vault, input.env, input.cwd));
  const tree = await readInventoryTree(input.path, { keyring });
  // The platform's words unless --names spec; a variable or value in the other words is a finding with its rename.
  const view = namesView(tree.values, input.path, input.names);
  const vaulted = openVaulted(view.meant, keyring);
  const keyOf = (name: string) => view.keys[name] ?? name;
  const definedIn = (name?: string) => (name ? (tree.sources[keyOf(name)] ?? tree.sources[name]) : undefined);
  // A vaulted file no password opens: Ansible stops while it loads the inventory, before any task.
  if (tree.files.some((f) => f.vault === 'closed' && f.applies !== false)) {
    if (input.engine === 'role') {
      throw new UsageError(
        "The platform's role cannot be run here: the inventory holds a file encrypted with ansible-vault and no vault password was given.",
        'Give the vault password (--vault-password-file FILE or --vault-id LABEL@FILE), or use --engine model.',
      );
    }
    const findings = [...(await treeFindings(tree, input.path)), ...view.naming];
    return {
      tree,
      view,
      objects: [],
      helm: [],
      findings: merge(findings, []),
      keyring,
      definedIn,
      engine: {
        engine: 'model',
        description:
          "cloudgate's model of the platform's role (Ansible stops before any task: a vaulted file cannot be opened without its password)",
      },
    };
  }
  const settings = ansibleSettings(input.env, input.cwd);
  const options = {
    profile: view.profile,
    foreign: view.foreign,
    meant: view.meant,
    unchecked: vaulted.unchecked,
    complete: tree.layout !== undefined,
    conversion: input.conversion ?? settings.conversion,
    now: input.now,
    ...(keyring ? { open: (envelope: string) => keyring.open(envelope) } : {}),
  };
  const model = renderJudgement(view.values, options);
  let rendered = { objects: model.objects, helm: model.helm, findings: model.findings };
  let engine: EngineUsed = { engine: 'model', description: "cloudgate's model of the platform's role" };
  const choice = input.engine ?? 'model';
  if (view.profile === 'spec' && choice !== 'model') {
    if (choice === 'role')
      throw new UsageError(
        "--engine role with --names spec: the platform's role reads only its own names.",
        'Leave out --names spec, or use --engine model.',
      );
    engine = {
      engine: 'model',
      description:
        "cloudgate's model of the platform's role (--names spec: the platform's own role reads only its own names)",
    };
  } else if (choice !== 'model') {
    const role = await renderWithRole({
      tree,
      path: input.path,
      vault: input.vault,
      env: input.env,
      cwd: input.cwd,
      model: model.objects,
      locate: locator(view.values),
      vaultGiven: keyring !== undefined,
    });
    if ('missing' in role) {
      if (choice === 'role') {
        throw new UsageError(
          `The platform's role cannot be run here: ${role.missing}.`,
          role.advice ??
            (/vault/.test(role.missing)
              ? 'Give the vault password (--vault-password-file FILE or --vault-id LABEL@FILE), or use --engine model.'
              : "Install ansible-core and the platform's collection (ansible-galaxy collection install vexxhost.atmosphere), or use --engine model."),
        );
      }
      engine = { engine: 'model', description: `cloudgate's model of the platform's role (${role.missing})` };
    } else {
      engine = role.used;
      // The model compared and kept as the role's ansible-core converts (2.19 and later keep templated text).
      const native = role.used.ansibleCore !== undefined && versionAtLeast(role.used.ansibleCore, 2, 19);
      rendered = withRole(
        native ? renderJudgement(view.values, { ...options, conversion: 'native' }) : model,
        role,
        view.values,
      );
    }
  }
  // A neutral word as a choosing value: its naming finding already says the role stops there, in words that name the fix.
  const namedStops = new Set(view.naming.filter((f) => f.severity === 'error').map((f) => f.variable));
  const renderedFindings = rendered.findings.filter((f) => !(f.rule === 'role-stop' && namedStops.has(f.variable)));
  const findings: Finding[] = [
    ...(await treeFindings(tree, input.path)),
    ...(engine.engine === 'model' ? settings.findings : []),
    ...merge(ruleFindings(view.values, options), renderedFindings, vaulted.unchecked),
    ...view.naming,
    ...vaulted.findings,
  ];
  return {
    tree,
    view,
    objects: rendered.objects,
    helm: rendered.helm,
    findings: merge(findings, []),
    keyring,
    engine,
    definedIn,
  };
}

/** Stops and refusals the model predicts are the role's to say when it ran: what it recorded is judged instead. */
const STOPS = new Set([
  'platform-needs',
  'platform-no-task',
  'platform-assert',
  'template-undefined',
  'template-syntax',
  'template-loop',
  'helm-refuses',
]);

function withRole(
  model: ReturnType<typeof renderJudgement>,
  role: RoleRendered,
  values: Record<string, unknown>,
): { objects: RenderedObject[]; helm: HelmRelease[]; findings: RenderFinding[] } {
  const conversion = role.used.ansibleCore && versionAtLeast(role.used.ansibleCore, 2, 19) ? 'native' : 'literal';
  const modelStop = model.model.findings.find((f) => f.severity === 'error' && STOPS.has(f.rule ?? ''));
  const agreeOnStop =
    role.stop &&
    modelStop &&
    (modelStop.variable === role.stop.variable ||
      (modelStop.cause !== undefined && modelStop.cause === role.stop.cause));
  // The model's own findings on values (not stops, not what its objects would meet) still hold; its
  // stops too when it stops where the role does (its words name the fix).
  const kept = model.model.findings.filter((f) => !STOPS.has(f.rule ?? '') || agreeOnStop);
  const differ = disagreements(model.objects, role.objects);
  return {
    objects: role.objects,
    helm: role.helm,
    findings: [
      ...kept,
      ...(role.stop && !agreeOnStop ? [role.stop] : []),
      ...objectFindings(role.objects, role.helm, values, conversion),
      ...valueHazards(values, model.model.read),
      ...(differ.length
        ? [
            {
              variable: 'cluster_issuer_type',
              severity: 'info' as const,
              rule: 'model-differs',
              message: `cloudgate's model of the role differs from what the platform's role applied here: ${differ.slice(0, 3).join('; ')}${differ.length > 3 ? ` (and ${differ.length - 3} more)` : ''}. The role's own objects are the ones shown and judged.`,
              advice:
                "Nothing to do for this inventory; cloudgate's model (used where the role is not installed) may need an update for this version of the platform.",
            },
          ]
        : []),
    ],
  };
}

/** Ansible settings (ansible.cfg or the environment) that change how values are templated: cloudgate's model follows Ansible's defaults, and says so. */
function ansibleSettings(env: NodeJS.ProcessEnv, cwd: string): { conversion?: Conversion; findings: Finding[] } {
  const on = (name: string, key: string) => /^(true|yes|on|1)$/i.test(ansibleSetting(env, cwd, name, key)?.value ?? '');
  const findings: Finding[] = [];
  const merge = ansibleSetting(env, cwd, 'ANSIBLE_HASH_BEHAVIOUR', 'hash_behaviour');
  if (merge && merge.value.trim() === 'merge') {
    findings.push({
      rule: 'ansible-settings',
      severity: 'warning',
      message: `hash_behaviour is merge (${merge.source}): Ansible merges mappings defined in several places, where cloudgate's model replaces them (Ansible's default).`,
      advice:
        "Check mappings set in several files (the webhooks' helm_values, the annotations); where the platform's role is installed, render runs it with your settings.",
    });
  }
  const undefinedOk = ansibleSetting(env, cwd, 'ANSIBLE_ERROR_ON_UNDEFINED_VARS', 'error_on_undefined_vars');
  if (undefinedOk && /^(false|no|off|0)$/i.test(undefinedOk.value.trim())) {
    findings.push({
      rule: 'ansible-settings',
      severity: 'warning',
      message: `error_on_undefined_vars is off (${undefinedOk.source}): Ansible then renders an undefined variable as its template text instead of stopping, where cloudgate's model stops.`,
      advice:
        'Leave error_on_undefined_vars at its default (true): an undefined variable then stops the deployment instead of reaching the cluster as text.',
    });
  }
  if (on('ANSIBLE_JINJA2_NATIVE', 'jinja2_native')) {
    findings.push({
      rule: 'ansible-settings',
      severity: 'warning',
      message:
        'jinja2_native is on: up to ansible-core 2.18 every templated value is then read as a Python literal ("600" becomes 600), where cloudgate\'s model converts as Ansible\'s default does.',
      advice:
        "Where the platform's role is installed, render runs it with your settings; otherwise check the values that look like numbers, booleans or lists.",
    });
  }
  return { findings };
}

/** The variable behind Ansible's words: the one holding a quoted value, or the one whose template names a variable. */
function locator(values: Record<string, unknown>): Locator {
  const strings = Object.entries(values).filter(([name, v]) => typeof v === 'string' && rowOf(name));
  return {
    byValue: (text) => strings.find(([, v]) => v === text)?.[0],
    byReference: (name) => strings.find(([, v]) => new RegExp(`\\{\\{[^}]*\\b${name}\\b`).test(String(v)))?.[0],
  };
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a, b] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

const READ = VARIABLES.flatMap((row) => [row.name, ...(row.alias ? [row.alias] : [])]);

/** What the files themselves say: links, YAML, merge keys, which value wins where. */
async function treeFindings(tree: InventoryTree, path: string): Promise<Finding[]> {
  const read = READ.filter((name) => name in tree.values);
  const layout = tree.layout;
  const overrides = layout
    ? hostOverrides(tree)
    : (await stat(path)).isDirectory()
      ? []
      : await overrideWarnings(path, read);
  return [
    ...tree.loops.map((loop): Finding => ({
      rule: 'link-loop',
      severity: 'warning',
      message: `${loop} is a symbolic link back to a folder being read (a loop); it was read once, not again.`,
      advice: 'Remove the link, or point it at a folder outside the inventory tree.',
    })),
    ...tree.files.flatMap((file) =>
      file.notices.map((n): Finding => ({
        // An unknown tag makes Ansible refuse the file; other warnings do not.
        rule: n.code === 'TAG_RESOLVE_FAILED' ? 'yaml-tag' : 'yaml-warning',
        severity: n.code === 'TAG_RESOLVE_FAILED' ? 'error' : 'warning',
        message: `${file.path}${where(n)}: ${n.message}.`,
        advice:
          n.code === 'TAG_RESOLVE_FAILED'
            ? 'Remove the tag, or use one Ansible knows: !vault or !unsafe.'
            : 'Fix the YAML there.',
      })),
    ),
    // A value a merge key (<<) brings: Ansible deploys it, and the reader of the file may not see it.
    ...tree.files
      .filter((f) => f.applies !== false)
      .flatMap((file) =>
        Object.entries(file.merged)
          .flatMap(([name, key]) => {
            const row = rowOf(name);
            return row ? [{ name, key, row }] : [];
          })
          .map(({ name, key, row }): Finding => ({
            rule: 'merge-key',
            variable: name,
            severity: 'info',
            message: `${name} is ${row.secret || typeof file.values[name] === 'object' ? 'set' : JSON.stringify(file.values[name])} through the YAML merge key (<<) in ${file.path}, from ${key === '<<' ? 'the mapping written there' : `"${key}"`}: Ansible deploys this value.`,
            advice:
              'Setup and regenerate change it by writing the variable itself (which wins over the merge); they cannot remove it from the merged mapping.',
          })),
      ),
    ...overrides,
    ...tree.conflicts
      .filter((c) => owned(c.name))
      .map((c): Finding => ({
        rule: 'duplicate',
        variable: c.name,
        severity: 'warning',
        message: `${c.name} is defined with different values in ${c.files.join(' and ')}${c.winner && layout ? `: for ${layout.host.name}, the host the role runs on, Ansible uses the value of ${c.winner}` : ''}.`,
        advice: "Keep one definition: which one wins depends on the host's groups, which is easy to get wrong.",
      })),
    ...(layout?.notes ?? []),
  ];
}

const owned = (name: string) => OWNED_PREFIXES.some((p) => name.startsWith(p)) || READ.includes(name);

/**
 * The values the deploying host takes from its own host variables, and those the other controllers
 * see differently: the role's objects come from the first controller, but the tasks every host runs
 * (the include of the issuer type and solver, Venafi's CA copy) read each host's own.
 */
function hostOverrides(tree: InventoryTree): Finding[] {
  const layout = tree.layout!;
  const out: Finding[] = [];
  for (const [name, source] of Object.entries(tree.sources)) {
    if (!owned(name) || !/host_vars|\(.*\)$/.test(source)) continue;
    out.push({
      rule: 'overridden',
      variable: name,
      severity: 'info',
      message: `${name} comes from ${relativeTo(tree, source)}, the variables of ${layout.host.name}, the host the role's tasks run on: it wins over every group's value.`,
      advice: 'Keep certificate settings in group_vars/all unless one host must differ.',
    });
  }
  for (const [host, values] of layout.otherControllers) {
    for (const name of Object.keys({ ...values, ...tree.values })) {
      if (!owned(name) || JSON.stringify(values[name]) === JSON.stringify(tree.values[name])) continue;
      out.push({
        rule: 'overridden',
        variable: name,
        severity: 'warning',
        message: `${name} differs between ${layout.host.name} and ${host}: the role creates the objects from ${layout.host.name}'s value, but the tasks every host runs (the include of the issuer type and solver, Venafi's CA copy) read ${host}'s own.`,
        advice: `Give ${name} one value for every controller (in group_vars/all or group_vars/controllers).`,
      });
    }
  }
  return out;
}

function relativeTo(tree: InventoryTree, source: string): string {
  const root = tree.layout?.hostsFiles[0];
  return root && source.startsWith('/') ? relative(root.replace(/\/[^/]*$/, ''), source) : source;
}
