/**
 * Running the platform's own `cluster_issuer` role, as the deployment would, without touching a
 * cluster (docs/render-role.md): `ansible-playbook --check` with cloudgate's recording stand-ins first
 * in `ANSIBLE_COLLECTIONS_PATH` (ansible/standins/: `kubernetes.core` k8s, helm and k8s_info, and
 * `vexxhost.kubernetes` upload_helm_chart), which write down each module call with its arguments as
 * Ansible templated them and apply nothing, and cloudgate's callback, which writes down where the run
 * failed. Every child runs with a deadline that ends its whole process group; no secret is put in its
 * arguments (vault passwords stay in their files), and its output is never shown raw.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { ansibleSetting, expandHome } from '../inventory/ansible-config.js';
import { fileURLToPath } from 'node:url';
import { isRecord } from '../records.js';
import type { VaultOptions } from '../inventory/vault-options.js';

/** The platform's collection and the role in it. */
export const PLATFORM_COLLECTION = 'vexxhost.atmosphere';
export const PLATFORM_ROLE = `${PLATFORM_COLLECTION}.cluster_issuer`;
/** How long the role may run (CLOUDGATE_ROLE_TIMEOUT seconds overrides). */
export const ROLE_DEADLINE_MS = 120_000;
const MAX_OUTPUT = 8 * 1024 * 1024;

export interface PlatformRole {
  playbook: string;
  /** The folder holding `ansible_collections/vexxhost/atmosphere`. */
  collections: string;
  version: string;
}

/** The programs a deploy host has, on PATH. */
function onPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, program);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The platform's role where this host has it: ansible-playbook on PATH, and the platform's collection
 * where Ansible looks for collections: `ANSIBLE_COLLECTIONS_PATH` (or `collections_path` in ansible.cfg),
 * else `~/.ansible/collections` and `/usr/share/ansible/collections`, the first holding it. Otherwise
 * why not. Nothing is run to find out.
 */
export function findPlatformRole(env: NodeJS.ProcessEnv, cwd: string): PlatformRole | { missing: string } {
  const playbook = onPath('ansible-playbook', env);
  if (!playbook) return { missing: 'ansible-playbook (ansible-core) is not on PATH' };
  const setting = env.ANSIBLE_COLLECTIONS_PATH
    ? ansibleSetting(env, cwd, 'ANSIBLE_COLLECTIONS_PATH', 'collections_path')
    : env.ANSIBLE_COLLECTIONS_PATHS
      ? ansibleSetting(env, cwd, 'ANSIBLE_COLLECTIONS_PATHS', 'collections_paths')
      : (ansibleSetting(env, cwd, 'ANSIBLE_COLLECTIONS_PATH', 'collections_path') ??
        ansibleSetting(env, cwd, 'ANSIBLE_COLLECTIONS_PATHS', 'collections_paths'));
  const paths = setting
    ? setting.value
        .split(':')
        .filter(Boolean)
        .map((p) => resolve(setting.base, expandHome(p, env)))
    : [join(env.HOME || homedir(), '.ansible', 'collections'), '/usr/share/ansible/collections'];
  for (const dir of paths) {
    // A path may name the folder holding ansible_collections/, or that folder itself.
    const base = basename(dir) === 'ansible_collections' ? dirname(dir) : dir;
    const collection = join(base, 'ansible_collections', 'vexxhost', 'atmosphere');
    if (existsSync(join(collection, 'roles', 'cluster_issuer')))
      return { playbook, collections: base, version: collectionVersion(collection) };
  }
  return {
    missing: `the platform's collection ${PLATFORM_COLLECTION} is not installed in ${paths.join(' or ')}, where Ansible looks`,
  };
}

/** The collection's version, from what ansible-galaxy installed (MANIFEST.json) or its galaxy.yml. */
function collectionVersion(collection: string): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(collection, 'MANIFEST.json'), 'utf8'));
    const info = isRecord(manifest) ? manifest.collection_info : undefined;
    if (isRecord(info) && typeof info.version === 'string') return info.version;
  } catch {
    // no MANIFEST.json: a collection used from its source
  }
  try {
    return /^version:\s*['"]?([^'"\s]+)/m.exec(readFileSync(join(collection, 'galaxy.yml'), 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Kills every process whose environment carries this run's record file (Linux: read from /proc). */
function killMarked(record: string): void {
  if (process.platform !== 'linux') return;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  const mark = `CLOUDGATE_RENDER_RECORD=${record}`;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(mark))
        process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone already, or not ours to read
    }
  }
}

/** cloudgate's stand-in collections, shipped with it (ansible/standins/). */
export function standinsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'ansible', 'standins');
    if (existsSync(join(candidate, 'ansible_collections', 'kubernetes', 'core'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('ansible/standins/ was not found next to the cloudgate installation; reinstall cloudgate.');
}

/** One line of the record: a module call, or an event of cloudgate's callback. */
export interface RecordedCall {
  action: string;
  task: string;
  host?: string;
  ansibleVersion?: string;
  args: Record<string, unknown>;
}

export interface RecordedFailure {
  event: 'failed' | 'unreachable';
  task: string;
  action?: string;
  host?: string;
  msg: string;
}

export interface RoleRun {
  calls: RecordedCall[];
  failures: RecordedFailure[];
  /** The run reached its end (its stats), whatever failed on the way. */
  ended: boolean;
  exitCode: number;
  timedOut: boolean;
  /** The first `ERROR!` line of ansible-playbook (it stops before any task: an inventory it cannot read, a vault it cannot open). */
  error?: string;
  ansibleVersion?: string;
}

export interface RoleRunInput {
  role: PlatformRole;
  /** `-i` arguments: the operator's hosts files, or a temporary inventory around the vars files. */
  inventories: string[];
  /** The vault options cloudgate was given; the environment and ansible.cfg are Ansible's own to read. */
  vault: VaultOptions;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** A private folder (0700) for the playbook and the record. */
  work: string;
  deadlineMs?: number;
  /** The role to run: the platform's (tests run their own under the same name). */
  roleName?: string;
}

const PLAYBOOK = (
  role: string,
) => `# Written by cloudgate render: the platform's role in check mode, its cluster modules recorded.
- name: cloudgate render (check mode, recording stand-ins)
  hosts: controllers
  gather_facts: true
  gather_subset: ["!all", "min"]
  roles:
    - role: ${role}
`;

export async function runPlatformRole(input: RoleRunInput): Promise<RoleRun> {
  const { writeFileSync } = await import('node:fs');
  const playbook = join(input.work, 'render.yml');
  const record = join(input.work, 'record.jsonl');
  writeFileSync(playbook, PLAYBOOK(input.roleName ?? PLATFORM_ROLE), { mode: 0o600, flag: 'wx' });
  writeFileSync(record, '', { mode: 0o600, flag: 'wx' });
  const args = [
    ...input.inventories.flatMap((i) => ['-i', i]),
    playbook,
    '--check',
    // Facts from this host, never ssh or sudo to the controllers: nothing of the role reaches them.
    '-e',
    'ansible_connection=local',
    '-e',
    'ansible_become=false',
    '-e',
    'ansible_python_interpreter={{ ansible_playbook_python }}',
    ...input.vault.passwordFiles.flatMap((f) => ['--vault-password-file', f]),
    ...input.vault.ids.flatMap((id) => ['--vault-id', id]),
  ];
  const env: NodeJS.ProcessEnv = {
    ...input.env,
    ANSIBLE_COLLECTIONS_PATH: [standinsFolder(), input.role.collections].join(':'),
    ANSIBLE_CALLBACKS_ENABLED: 'cloudgate.render.record',
    CLOUDGATE_RENDER_RECORD: record,
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_RETRY_FILES_ENABLED: 'false',
    ANSIBLE_DEPRECATION_WARNINGS: 'false',
    ANSIBLE_LOCALHOST_WARNING: 'false',
    ANSIBLE_HOST_KEY_CHECKING: 'false',
    // The stand-ins are cloudgate's installed files: Python writes no compiled copies beside them.
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const { runChild } = await import('../kube/child.js');
  // At the deadline (or if cloudgate is stopped) the child's process group is killed, and with it
  // whatever Ansible started in a session of its own: every process carrying this run's record file.
  const deadline = input.deadlineMs ?? ROLE_DEADLINE_MS;
  const stop = new AbortController();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    killMarked(record);
    stop.abort();
  }, deadline);
  const forget = cleanUpOnExit(() => killMarked(record), { onSignal: true });
  const r = await runChild(input.role.playbook, args, {
    kind: 'ansible',
    env,
    cwd: input.cwd,
    timeoutMs: deadline + 5000,
    maxStdoutBytes: MAX_OUTPUT,
    signal: stop.signal,
  }).finally(() => {
    clearTimeout(timer);
    killMarked(record); // a process the run left behind goes with it
    forget();
  });
  const calls: RecordedCall[] = [];
  const failures: RecordedFailure[] = [];
  let ended = false;
  for (const line of readFileSync(record, 'utf8').split('\n').filter(Boolean)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(parsed)) continue;
    if (parsed.event === 'end') ended = true;
    else if (parsed.event === 'failed' || parsed.event === 'unreachable') {
      failures.push({
        event: parsed.event,
        task: String(parsed.task ?? ''),
        ...(typeof parsed.action === 'string' ? { action: parsed.action } : {}),
        ...(typeof parsed.host === 'string' ? { host: parsed.host } : {}),
        msg: String(parsed.msg ?? ''),
      });
    } else if (typeof parsed.action === 'string' && isRecord(parsed.args)) {
      calls.push({
        action: parsed.action,
        task: String(parsed.task ?? ''),
        ...(typeof parsed.host === 'string' ? { host: parsed.host } : {}),
        ...(typeof parsed.ansible_version === 'string' ? { ansibleVersion: parsed.ansible_version } : {}),
        args: parsed.args,
      });
    }
  }
  const error = /^ERROR! (.*)$/m.exec(`${r.stderr}\n${r.stdout}`)?.[1];
  return {
    calls,
    failures,
    ended,
    exitCode: r.exitCode,
    timedOut: r.timedOut || late,
    ...(error ? { error } : {}),
    ...(calls[0]?.ansibleVersion ? { ansibleVersion: calls[0].ansibleVersion } : {}),
  };
}
