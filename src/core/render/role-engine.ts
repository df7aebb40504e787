/**
 * Which renders the inventory: the platform's own role where this host has it (role-run.ts), else
 * cloudgate's model (objects.ts). With the role, the objects are the ones it recorded, in its order,
 * and its first failure is the stop; what cloudgate judges on them (the API server, cert-manager's
 * webhook, the solvers) is the same as for the model's. Where the two disagree, a finding says so.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { notOneOf } from '../closest.js';
import { ansibleConfigFile } from '../inventory/ansible-config.js';
import { checkPath, isRefusal, MissingFolder } from '../inventory/owned-path.js';
import type { InventoryTree } from '../inventory/inventory.js';
import type { VaultOptions } from '../inventory/vault-options.js';
import { isRecord } from '../records.js';
import { redact } from '../secrets.js';
import { PLATFORM_NAMESPACE } from './names.js';
import {
  findPlatformRole,
  PLATFORM_ROLE,
  ROLE_DEADLINE_MS,
  runPlatformRole,
  type PlatformRole,
  type RecordedCall,
} from './role-run.js';
import type { HelmRelease, KubeObject, RenderFinding, RenderedObject } from './types.js';

export type EngineChoice = 'auto' | 'role' | 'model';
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'role', 'model'];

/** Which rendered, said to the operator. */
export interface EngineUsed {
  engine: 'role' | 'model';
  /** One line: `the platform's role vexxhost.atmosphere 6.0.0 (ansible-core 2.14.18, check mode, recording stand-ins)`, or why the model. */
  description: string;
  ansibleCore?: string;
  collection?: string;
}

export function engineChoice(asked: string | undefined, env: NodeJS.ProcessEnv): EngineChoice {
  const value = asked ?? env.CLOUDGATE_RENDER_ENGINE ?? 'auto';
  if (!isEngineChoice(value)) {
    throw notOneOf(asked === undefined ? 'CLOUDGATE_RENDER_ENGINE' : '--engine', value, ENGINE_CHOICES, {
      otherwise: "auto (the default) runs the platform's role where it is installed and cloudgate's model elsewhere.",
    });
  }
  return value;
}

function isEngineChoice(value: string): value is EngineChoice {
  return ENGINE_CHOICES.some((choice) => choice === value);
}

export interface RoleRendered {
  objects: RenderedObject[];
  helm: HelmRelease[];
  /** Where the role stopped, as a finding (with the variable when Ansible's message names one). */
  stop?: RenderFinding;
  used: EngineUsed;
}

export interface RoleEngineInput {
  locate: Locator;
  /** Whether cloudgate was given a vault password (without one, a vaulted value stops the role here, not at deploy time). */
  vaultGiven: boolean;
  tree: InventoryTree;
  path: string;
  vault: VaultOptions;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The model's objects: names which variables made each recorded object. */
  model: RenderedObject[];
}

/**
 * The last runs, by what they read: the exporter judges the same inventory every cycle, and the role
 * runs again only when a file it reads (or a setting) changed.
 */
/** Why the role did not render, and what to do when the operator insisted on it (--engine role). */
export interface RoleMissing {
  missing: string;
  advice?: string;
}

const runs = new Map<string, Promise<RoleRendered | RoleMissing>>();
const KEPT_RUNS = 8;

/** Runs the platform's role; undefined (with why) when this host does not have it. */
export async function renderWithRole(input: RoleEngineInput): Promise<RoleRendered | RoleMissing> {
  const role = findPlatformRole(input.env, input.cwd);
  if ('missing' in role) return role;
  const refused = refusedToRun(input, role);
  if (refused) return refused;
  const key = runKey(input, role);
  const known = runs.get(key);
  if (known) return known;
  const run = runRole(input, role);
  runs.set(key, run);
  if (runs.size > KEPT_RUNS) runs.delete(runs.keys().next().value!);
  // A run that did not finish is not kept: the next asks again.
  void run.then((r) => {
    if ('missing' in r) runs.delete(key);
  });
  return run;
}

/**
 * Ansible runs code from the role, from its ansible.cfg (plugins) and from the inventory (an executable
 * hosts file, a lookup in a templated value): each must pass the ownership rule of a script cloudgate
 * runs, so that root's render or doctor never runs what another user could change. Why not, or undefined.
 */
function refusedToRun(input: RoleEngineInput, role: PlatformRole): RoleMissing | undefined {
  const config = ansibleConfigFile(input.env, input.cwd);
  const paths = [
    join(role.collections, 'ansible_collections', 'vexxhost', 'atmosphere'),
    ...(config ? [config] : []),
    ...input.tree.files.map((f) => f.path),
    ...(input.tree.layout?.hostsFiles ?? []),
  ];
  for (const path of paths) {
    try {
      checkPath(path, { purpose: 'run' }).folder.close();
    } catch (error) {
      if (error instanceof MissingFolder) continue;
      if (isRefusal(error))
        return {
          missing: `the platform's role was not run, as Ansible would run code from ${path}: ${error.message.replace(/\.$/, '')}`,
          advice: `${error.advice} Or use --engine model.`,
        };
      throw error;
    }
  }
  return undefined;
}

/** What a run depends on: every file it reads (path, size, time of change), the options and Ansible's settings. */
function runKey(input: RoleEngineInput, role: PlatformRole): string {
  const files = [...input.tree.files.map((f) => f.path), ...(input.tree.layout?.hostsFiles ?? [])].map((path) => {
    const info = statSync(path, { throwIfNoEntry: false });
    return [path, info?.size, info?.mtimeMs, info?.ino];
  });
  const settings = Object.entries(input.env)
    .filter(([k]) => k.startsWith('ANSIBLE_') || k.startsWith('CLOUDGATE_ROLE') || k === 'CLOUDGATE_PLATFORM_ROLE')
    .sort();
  return JSON.stringify([input.path, input.cwd, files, input.vault, input.vaultGiven, settings, role]);
}

async function runRole(input: RoleEngineInput, role: PlatformRole): Promise<RoleRendered | RoleMissing> {
  const work = mkdtempSync(join(tmpdir(), 'cloudgate-render-'));
  try {
    const inventories = inventoryArgs(input.tree, input.path, work);
    const seconds = Number(input.env.CLOUDGATE_ROLE_TIMEOUT);
    const run = await runPlatformRole({
      role,
      inventories,
      vault: input.vault,
      env: input.env,
      cwd: input.cwd,
      work,
      deadlineMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : ROLE_DEADLINE_MS,
      ...(input.env.CLOUDGATE_PLATFORM_ROLE ? { roleName: input.env.CLOUDGATE_PLATFORM_ROLE } : {}),
    });
    const used: EngineUsed = {
      engine: 'role',
      collection: role.version,
      ...(run.ansibleVersion ? { ansibleCore: run.ansibleVersion } : {}),
      description: `the platform's role ${PLATFORM_ROLE} (collection ${role.version}${run.ansibleVersion ? `, ansible-core ${run.ansibleVersion}` : ''}), run in check mode with cloudgate's recording stand-ins: nothing was applied`,
    };
    if (run.timedOut)
      return {
        missing: `the platform's role did not finish within ${Number.isFinite(seconds) && seconds > 0 ? seconds : ROLE_DEADLINE_MS / 1000} s and was stopped`,
      };
    const failure = run.failures[0];
    if (!input.vaultGiven && [run.error ?? '', failure?.msg ?? ''].some(vaultFailure)) {
      return {
        missing:
          'the role needs the vault password to template the vaulted values (give --vault-password-file or --vault-id, as to ansible-playbook)',
      };
    }
    if (run.calls.length === 0 && run.failures.length === 0) {
      if (!run.error) return { missing: `ansible-playbook ran no task (exit code ${run.exitCode})` };
      // Ansible stopped before any task: what it says is the deployment's stop too.
      return {
        objects: [],
        helm: [],
        used,
        stop: {
          variable: 'cluster_issuer_type',
          severity: 'error',
          rule: 'role-stop',
          message: `Ansible stops before any task of the platform's role: ${redact(run.error)}.`,
          advice: 'Fix what Ansible names (the inventory, a vault, the collection), then render again.',
        },
      };
    }
    const { objects, helm } = fromCalls(run.calls, input.model);
    return { objects, helm, used, ...(failure ? { stop: stopFinding(failure.task, failure.msg, input.locate) } : {}) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The `-i` arguments: the operator's hosts files; or, for vars files alone, a private inventory whose
 * one host is in `controllers`, with the files linked where Ansible reads them.
 */
function inventoryArgs(tree: InventoryTree, path: string, work: string): string[] {
  const layout = tree.layout;
  if (layout && layout.hostsFiles.length > 0) return layout.hostsFiles;
  const inventory = join(work, 'inventory');
  mkdirSync(join(inventory, 'group_vars'), { recursive: true, mode: 0o700 });
  writeFileSync(join(inventory, 'hosts.ini'), '[controllers]\ncloudgate-render\n', { mode: 0o600 });
  if (layout) {
    const root = basename(path) === 'group_vars' ? dirname(path) : path;
    for (const folder of ['group_vars', 'host_vars']) {
      if (!existsSync(join(root, folder))) continue;
      if (folder === 'group_vars') rmSync(join(inventory, folder), { recursive: true });
      symlinkSync(join(root, folder), join(inventory, folder));
    }
  } else {
    mkdirSync(join(inventory, 'group_vars', 'all'), { mode: 0o700 });
    for (const file of tree.files) symlinkSync(file.path, join(inventory, 'group_vars', 'all', basename(file.path)));
  }
  return [join(inventory, 'hosts.ini')];
}

/** The role's k8s and helm calls as objects and releases, in its order. */
export function fromCalls(
  calls: RecordedCall[],
  model: RenderedObject[],
): { objects: RenderedObject[]; helm: HelmRelease[] } {
  const objects: RenderedObject[] = [];
  const helm: HelmRelease[] = [];
  for (const call of calls) {
    const name = call.action.split('.').pop();
    if (name === 'k8s') {
      const definition = call.args.definition;
      for (const item of Array.isArray(definition) ? definition : [definition]) {
        if (!isRecord(item) || !isRecord(item.metadata)) continue;
        const object = asStored(item);
        const same = model.find((m) => idOf(m.object) === idOf(object));
        objects.push({
          object,
          from: same?.from ?? [],
          ...(same?.nameFrom ? { nameFrom: same.nameFrom } : {}),
          ...(object.kind === 'ClusterIssuer' && object.metadata.name !== 'self-signed'
            ? { part: 'issuer' as const }
            : {}),
        });
      }
    } else if (name === 'helm') {
      helm.push({
        name: String(call.args.name ?? ''),
        namespace: String(call.args.release_namespace ?? ''),
        chart: String(call.args.chart_ref ?? ''),
        values: isRecord(call.args.values) ? call.args.values : {},
      });
    }
  }
  // The ingress role's wildcard Certificate is made in a later play: the model's, when the role went through.
  for (const m of model)
    if (m.part === 'wildcard' && m.object.metadata.namespace === PLATFORM_NAMESPACE) objects.push(m);
  return { objects, helm };
}

/** What the API server stores: the metadata keys it knows (the role writes two others under metadata, which it drops). */
function asStored(item: Record<string, unknown>): KubeObject {
  const metadata = isRecord(item.metadata) ? item.metadata : {};
  const kept = Object.fromEntries(
    Object.entries(metadata).filter(([k]) => ['name', 'namespace', 'labels', 'annotations'].includes(k)),
  );
  return {
    ...item,
    metadata: { ...kept, name: typeof kept.name === 'string' ? kept.name : String(kept.name ?? '') },
  } as KubeObject; // a k8s definition: apiVersion, kind, metadata as recorded
}

export const idOf = (object: KubeObject) => `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`;

/** Finds the inventory variable behind Ansible's words: by the value it quotes, or by the variable a template of it names. */
export interface Locator {
  byValue(text: string): string | undefined;
  byReference(name: string): string | undefined;
}

/** Ansible's failure as a finding: the variable it names, never the value it may quote. */
export function stopFinding(task: string, msg: string, locate: Locator): RenderFinding {
  const undefinedName = /'([A-Za-z_][A-Za-z0-9_]*)' is undefined/.exec(msg)?.[1];
  const include = /Could not find or access '[^']*\/(type\/[^/']+\/main\.yml|solver\/[^/']+\.yml)'/.exec(msg)?.[1];
  const quoted = /while templating '([\s\S]*?)'\. Error was/.exec(msg)?.[1] ?? /String: ([\s\S]*)$/.exec(msg)?.[1];
  const variable = undefinedName
    ? (locate.byReference(undefinedName) ?? undefinedName)
    : include?.startsWith('type/')
      ? 'cluster_issuer_type'
      : include
        ? 'cluster_issuer_acme_solver'
        : /cluster_issuer_acme_route53_auth/.test(msg)
          ? 'cluster_issuer_acme_route53_auth'
          : ((quoted !== undefined ? locate.byValue(quoted) : undefined) ?? 'cluster_issuer_type');
  // Jinja's errors quote the template, which may be a secret: only Jinja's own words are kept.
  const jinja =
    /original message: ([^\n]*)/.exec(msg)?.[1] ??
    /(template error while templating string|Syntax error in template)[^.\n]*/.exec(msg)?.[0];
  const said = undefinedName
    ? `'${undefinedName}' is undefined`
    : include
      ? `no ${include} in the role`
      : jinja
        ? `Jinja cannot parse the value of ${variable} (${jinja
            .replace(/\. String: [\s\S]*$/, '')
            .replace(/String: [\s\S]*$/, '')
            .slice(0, 200)})`
        : msg.split('\n')[0].slice(0, 300);
  return {
    variable,
    severity: 'error',
    rule: 'role-stop',
    ...(undefinedName ? { cause: undefinedName } : {}),
    message: `The platform's role stops at the task "${task.replace(/^[\w.]+ : /, '')}": ${redact(said)}. Nothing after it is applied.`,
    advice: undefinedName
      ? `Define ${undefinedName} where the controllers read it (group_vars/all).`
      : jinja
        ? `If the braces are part of the value, mark it literal: ${variable}: !unsafe '...'.`
        : `Fix ${variable}, then render again.`,
  };
}

/** Ansible could not open a vaulted value: without cloudgate's vault password, the deployment's own would. */
export function vaultFailure(msg: string): boolean {
  return /no vault secrets (were )?found|Decryption failed/i.test(msg);
}

/** Where the model and the role disagree on what is applied (kind, name, then the first field). */
export function disagreements(model: RenderedObject[], role: RenderedObject[]): string[] {
  const out: string[] = [];
  const ids = (list: RenderedObject[]) => list.filter((o) => o.part !== 'wildcard').map((o) => idOf(o.object));
  const [a, b] = [ids(model), ids(role)];
  for (const id of b) if (!a.includes(id)) out.push(`the role applies ${id}, cloudgate's model does not`);
  for (const id of a) if (!b.includes(id)) out.push(`cloudgate's model applies ${id}, the role does not`);
  for (const r of role) {
    const m = model.find((o) => idOf(o.object) === idOf(r.object));
    if (!m) continue;
    const field = firstDifference(m.object, r.object);
    if (field) out.push(`${idOf(r.object)} differs at ${field}`);
  }
  return out;
}

/** JSON with every mapping's keys sorted: two objects the same but for key order compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (canonical(a) === canonical(b)) return undefined;
  if (!isRecord(a) || !isRecord(b)) return path || '.';
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
    if (d) return d;
  }
  return path || '.';
}

export type { PlatformRole };
