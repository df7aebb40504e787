/**
 * The vault passwords of a run, from every source Ansible reads (vault-sources.ts): `--vault-id
 * [LABEL@]FILE`, `--vault-password-file FILE`, `ANSIBLE_VAULT_PASSWORD_FILE`, `ANSIBLE_VAULT_IDENTITY_LIST`
 * and their ansible.cfg keys. As in Ansible, a password file holds the password with surrounding white
 * space ignored, and an executable file is run and its output is the password (a `*-client` script is
 * given `--vault-id LABEL`); a script that does not answer within its deadline is killed.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { AnsibleTagged } from './ansible-tagged.js';
import { UsageError } from '../errors.js';
import { readOwnedFileSync } from '../safe-read.js';
import { checkPath, PathRefused } from './owned-path.js';
import { registerSecret } from '../secrets.js';
import { decryptEnvelope, encryptVault, isVaultText, parseVault, VaultError } from './vault.js';
import { vaultSpecs } from './vault-sources.js';

export const DEFAULT_VAULT_LABEL = 'default';
/** A password script that prompts somewhere nobody looks must not hold the run forever. */
export const PASSWORD_SCRIPT_DEADLINE_MS = 30_000;
const MAX_SCRIPT_OUTPUT = 64 * 1024;

export interface VaultPassword {
  label: string;
  /** Where it came from, for messages: the option and the file, never the password. */
  source: string;
  password: Buffer;
}

export class VaultKeyring {
  constructor(readonly passwords: VaultPassword[]) {
    if (passwords.length === 0) throw new Error('a keyring needs a password');
  }

  /** The password new values are encrypted with: the first one given, as ansible-vault does. */
  get writer(): VaultPassword {
    return this.passwords[0];
  }

  /** `plaintext` as a `!vault` value, encrypted with the first password (labelled when it has a label). */
  seal(plaintext: string): AnsibleTagged {
    return new AnsibleTagged('!vault', encryptVault(plaintext, this.writer.password, { label: this.writer.label }));
  }

  /**
   * The plaintext of a vault envelope, registered as a secret so it is redacted wherever it might be
   * printed. Passwords whose label matches the envelope's are tried first, then the others (as Ansible does).
   */
  open(envelopeText: string): string {
    const envelope = parseVault(envelopeText);
    const ordered = [...this.passwords].sort(
      (a, b) => Number(b.label === envelope.label) - Number(a.label === envelope.label),
    );
    for (const { password } of ordered) {
      try {
        const plaintext = decryptEnvelope(envelope, password).toString('utf8');
        registerSecret(plaintext);
        return plaintext;
      } catch (error) {
        if (!(error instanceof VaultError) || error.reason !== 'password') throw error;
      }
    }
    const sources = this.passwords.map((p) => p.source).join(', ');
    throw new VaultError(
      `no vault password given opens it (HMAC mismatch with ${sources}${envelope.label ? `; it was encrypted for the vault id "${envelope.label}"` : ''})`,
      'password',
    );
  }
}

/** The vault passwords a command was given (`--vault-password-file`, `--vault-id`). */
export interface VaultOptions {
  passwordFiles: readonly string[];
  /** `LABEL@FILE` each. */
  ids: readonly string[];
}

export const NO_VAULT_OPTIONS: VaultOptions = { passwordFiles: [], ids: [] };

/** The keyring of the options, or undefined when no vault password is given. Bad options are UsageErrors (exit 2). */
export async function vaultKeyringFromOptions(
  options: VaultOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<VaultKeyring | undefined> {
  // Every source Ansible reads, together (vault-sources.ts): the options, the environment, ansible.cfg.
  const specs = vaultSpecs(options, env, cwd, parseVaultId);
  if (specs.length === 0) return undefined;
  const passwords: VaultPassword[] = [];
  for (const spec of specs) {
    passwords.push({
      label: spec.label,
      source: spec.source,
      password: await readVaultPassword(spec.file, spec.label, spec.source),
    });
  }
  return new VaultKeyring(passwords);
}

/** `LABEL@FILE` or `FILE` (label "default"); Ansible's `@prompt` needs a terminal cloudgate does not borrow. */
export function parseVaultId(id: string): { label: string; file: string } {
  const at = id.indexOf('@');
  const [label, file] = at === -1 ? [DEFAULT_VAULT_LABEL, id] : [id.slice(0, at), id.slice(at + 1)];
  if (!label || !file) {
    throw new UsageError(
      `--vault-id "${id}" is not LABEL@FILE.`,
      'Give the label and the password file, e.g. --vault-id prod@~/.vault-pass.',
    );
  }
  if (file === 'prompt') {
    throw new UsageError(
      `--vault-id ${id}: cloudgate does not prompt for vault passwords.`,
      'Put the password in a file readable only by you (chmod 600) and give --vault-id LABEL@FILE or --vault-password-file FILE.',
    );
  }
  return { label, file };
}

/**
 * The password in a file, or printed by it when it is executable. Either way the file, every folder of
 * its path and every link on it must pass the ownership rule (owned-path.ts): a script another user
 * owns, or could change, is never run (as root or otherwise), a password file they could swap never read.
 */
export async function readVaultPassword(
  path: string,
  label: string,
  source: string,
  deadlineMs = PASSWORD_SCRIPT_DEADLINE_MS,
): Promise<Buffer> {
  let executable = false;
  let script = path;
  try {
    const info = statSync(path);
    executable = info.isFile() && isExecutable(path);
    if (info.isFile()) assertPrivate(path, info.mode, executable);
    if (executable) script = checkedScript(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // readOwnedFileSync names the problem below.
  }
  let password: Buffer;
  if (executable) {
    password = stripBytes(await runPasswordScript(script, label, source, deadlineMs), '\r\n');
  } else {
    const text = readOwnedFileSync(path, { what: 'the vault password file', maxBytes: MAX_SCRIPT_OUTPUT });
    if (isVaultText(text)) {
      throw new UsageError(
        `The vault password file ${path} is itself vault-encrypted.`,
        'Give a file holding the password as plain text (readable only by you).',
      );
    }
    password = stripBytes(Buffer.from(text), ' \t\n\r\v\f');
  }
  if (password.length === 0) {
    throw new UsageError(
      `The vault password from ${source} is empty.`,
      'Put the vault password in the file (one line).',
    );
  }
  return password;
}

/** The real path of a password script the ownership rule lets the caller run (every link resolved and checked). */
function checkedScript(path: string): string {
  try {
    const checked = checkPath(path, { purpose: 'run' });
    checked.folder.close();
    return checked.path;
  } catch (error) {
    if (error instanceof PathRefused) {
      throw new UsageError(`The vault password script: ${error.message} cloudgate does not run it.`, error.advice);
    }
    throw error;
  }
}

/**
 * As ssh refuses a private key others can read: a password file others can read (world-readable), or
 * that others than its owner can change (group or world write bit), is refused. A script others can
 * read holds no password, but one they can change hands them the password on its next run.
 * Group-readable stays allowed: a team may share the file through a group.
 */
function assertPrivate(path: string, mode: number, executable: boolean): void {
  const bits = mode & 0o777;
  const problem =
    (bits & 0o022) !== 0
      ? 'others than its owner can change it'
      : !executable && (bits & 0o004) !== 0
        ? 'everyone on this machine can read it'
        : undefined;
  if (!problem) return;
  const fixed = executable ? bits & ~0o022 : bits & ~0o027;
  throw new UsageError(
    `The vault password ${executable ? 'script' : 'file'} ${path} has mode ${bits.toString(8).padStart(4, '0')}: ${problem}, so cloudgate does not use it (as ssh refuses such a key).`,
    `Fix its mode: chmod ${fixed.toString(8).padStart(4, '0')} ${path} (chmod 600 for a file only you use).`,
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Python's `bytes.strip(chars)`: removes those bytes at both ends. */
function stripBytes(data: Buffer, chars: string): Buffer {
  const set = new Set([...chars].map((c) => c.charCodeAt(0)));
  let start = 0;
  let end = data.length;
  while (start < end && set.has(data[start])) start++;
  while (end > start && set.has(data[end - 1])) end--;
  return data.subarray(start, end);
}

/**
 * Runs the script in its own process group, with only the environment it needs (child-env.ts): at the
 * deadline the group is killed. Its own exit decides: a daemon it started that still holds its stdout
 * does not keep the run waiting, nor turns a good exit into a failure.
 */
async function runPasswordScript(path: string, label: string, source: string, deadlineMs: number): Promise<Buffer> {
  // Loaded here: node:child_process costs every command that reads an inventory ~2 ms to load.
  const { runChild } = await import('../kube/child.js');
  const name = basename(path, extname(path));
  const args = name.endsWith('-client') ? ['--vault-id', label] : [];
  const r = await runChild(path, args, {
    kind: 'vault-script',
    timeoutMs: deadlineMs,
    inheritStdinStderr: true,
    maxStdoutBytes: MAX_SCRIPT_OUTPUT,
  });
  if (r.startError) {
    throw new UsageError(
      `Cannot run the vault password script ${path} (${source}): ${r.startError.code ?? 'failed'}.`,
      'If the file is not a script, remove its executable bit (chmod -x); Ansible runs executable password files too.',
    );
  }
  if (r.overflowed)
    throw new UsageError(
      `The vault password script ${path} printed more than ${MAX_SCRIPT_OUTPUT / 1024} KiB.`,
      'It should print the password only.',
    );
  if (r.timedOut) {
    throw new UsageError(
      `The vault password script ${path} (${source}) did not finish within ${deadlineMs / 1000} s; it was stopped.`,
      'Make the script print the password without waiting for input, or give a plain password file (not executable).',
    );
  }
  if (r.exitCode !== 0) {
    const unknownId = r.exitCode === 2 && args.length > 0;
    throw new UsageError(
      `The vault password script ${path} (${source}) failed (${r.exitSignal ?? `exit code ${r.exitCode}`})${unknownId ? `: it knows no password for the vault id "${label}"` : ''}.`,
      unknownId ? 'Give the label the script knows, e.g. --vault-id LABEL@SCRIPT.' : 'Run it yourself to see why.',
    );
  }
  return r.stdoutBytes;
}
