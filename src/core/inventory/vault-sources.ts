/**
 * Where Ansible takes its vault passwords from, all of them together, in its order: the vault ids of
 * `ANSIBLE_VAULT_IDENTITY_LIST` (or `vault_identity_list` in ansible.cfg), then each `--vault-id`, then
 * each `--vault-password-file` and `ANSIBLE_VAULT_PASSWORD_FILE` (or `vault_password_file` in
 * ansible.cfg), the last ones labelled `ANSIBLE_VAULT_IDENTITY` (default `default`). A relative path in
 * ansible.cfg's `vault_password_file` is relative to the file's folder; the others to the current one.
 */
import { resolve } from 'node:path';
import { ansibleSetting, expandHome } from './ansible-config.js';

export interface VaultSpec {
  label: string;
  /** Absolute path of the password file or script. */
  file: string;
  /** Where it was named, for messages (never the password). */
  source: string;
}

export interface VaultRequest {
  passwordFiles: readonly string[];
  ids: readonly string[];
}

export function vaultSpecs(
  options: VaultRequest,
  env: NodeJS.ProcessEnv,
  cwd: string,
  parseId: (id: string) => { label: string; file: string },
): VaultSpec[] {
  const path = (file: string, base: string) => resolve(base, expandHome(file, env));
  const label = ansibleSetting(env, cwd, 'ANSIBLE_VAULT_IDENTITY', 'vault_identity')?.value ?? 'default';
  const specs: VaultSpec[] = [];
  const list = ansibleSetting(env, cwd, 'ANSIBLE_VAULT_IDENTITY_LIST', 'vault_identity_list');
  for (const id of (list?.value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const parsed = parseId(id);
    specs.push({ label: parsed.label, file: path(parsed.file, cwd), source: `${id} in ${list!.source}` });
  }
  for (const id of options.ids) {
    const parsed = parseId(id);
    specs.push({ label: parsed.label, file: path(parsed.file, cwd), source: `--vault-id ${id}` });
  }
  for (const file of options.passwordFiles)
    specs.push({ label, file: path(file, cwd), source: `--vault-password-file ${file}` });
  const file = ansibleSetting(env, cwd, 'ANSIBLE_VAULT_PASSWORD_FILE', 'vault_password_file');
  if (file)
    specs.push({
      label,
      file: path(file.value, file.base),
      source: file.source === 'ANSIBLE_VAULT_PASSWORD_FILE' ? `ANSIBLE_VAULT_PASSWORD_FILE=${file.value}` : file.source,
    });
  // The same file named twice is read once.
  return specs.filter((s, i) => specs.findIndex((o) => o.file === s.file && o.label === s.label) === i);
}
