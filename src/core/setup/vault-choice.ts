/**
 * The vault offer before secrets are written in plain text: the vault passwords this machine's
 * Ansible already uses (ANSIBLE_VAULT_IDENTITY_LIST, `vault_identity_list` / `vault_password_file`
 * in the ansible.cfg Ansible would read), offered first; how to make one when there is none.
 */
import { expandVaultId } from '../home-path.js';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseVaultId, vaultKeyringFromOptions, type VaultKeyring } from '../inventory/vault-options.js';
import { configValue } from '../inventory/ansible-config.js';
import { inventoryRoot } from './plan-supplied.js';
import { readOwnedFileIfExistsSync } from '../safe-read.js';

export interface VaultCandidate {
  /** `LABEL@FILE`, as --vault-id takes it. */
  id: string;
  file: string;
  /** Where it was found: `ansible.cfg (/srv/inv/ansible.cfg)`, `ANSIBLE_VAULT_IDENTITY_LIST`. */
  source: string;
}

/** How to make a vault password file when there is none (one line per step). */
export const MAKE_VAULT_PASSWORD = [
  'openssl rand -base64 32 > ~/.vault-pass && chmod 600 ~/.vault-pass',
  'then give ~/.vault-pass here (and --vault-password-file ~/.vault-pass to ansible-playbook, or vault_password_file in ansible.cfg)',
];

/** ansible.cfg as Ansible looks for it: ANSIBLE_CONFIG, ./ansible.cfg, ~/.ansible.cfg, /etc/ansible/ansible.cfg; plus the inventory root's. */
function configFiles(env: NodeJS.ProcessEnv, cwd: string, inventoryPath: string): string[] {
  return [
    ...new Set(
      [
        env.ANSIBLE_CONFIG ? resolve(cwd, env.ANSIBLE_CONFIG) : '',
        join(cwd, 'ansible.cfg'),
        join(inventoryRoot(inventoryPath), 'ansible.cfg'),
        join(dirname(inventoryRoot(inventoryPath)), 'ansible.cfg'),
        join(homedir(), '.ansible.cfg'),
        '/etc/ansible/ansible.cfg',
      ].filter(Boolean),
    ),
  ];
}

const expand = (file: string, base: string) => {
  const home = file.replace(/^~(?=\/|$)/, homedir());
  return isAbsolute(home) ? home : resolve(base, home);
};

export function vaultCandidates(env: NodeJS.ProcessEnv, cwd: string, inventoryPath: string): VaultCandidate[] {
  const found: VaultCandidate[] = [];
  const add = (ids: string, source: string, base: string) => {
    for (const id of ids
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      // `LABEL@prompt` asks on a terminal, which cloudgate does not borrow: not offered.
      if (/(^|@)prompt$/.test(id)) continue;
      const { label, file } = parseVaultId(id);
      const path = expand(file, base);
      if (!found.some((c) => c.file === path)) found.push({ id: `${label}@${path}`, file: path, source });
    }
  };
  if (env.ANSIBLE_VAULT_IDENTITY_LIST) add(env.ANSIBLE_VAULT_IDENTITY_LIST, 'ANSIBLE_VAULT_IDENTITY_LIST', cwd);
  for (const cfg of configFiles(env, cwd, inventoryPath)) {
    let text: string;
    try {
      // One another user could have put there (a shared working folder) is not read: Ansible ignores it too.
      const read = readOwnedFileIfExistsSync(cfg, { what: 'ansible.cfg' });
      if (!read) continue;
      text = read.text;
    } catch {
      continue;
    }
    const identities = configValue(text, 'defaults', 'vault_identity_list');
    const passwordFile = configValue(text, 'defaults', 'vault_password_file');
    if (identities) add(identities, `vault_identity_list in ${cfg}`, dirname(cfg));
    if (passwordFile) add(passwordFile, `vault_password_file in ${cfg}`, dirname(cfg));
    // Ansible reads the first configuration file it finds, and only that one (the inventory's own are looked at too).
    if (!cfg.startsWith(dirname(inventoryRoot(inventoryPath)))) break;
  }
  return found;
}

/** The keyring of a vault id or password file the operator chose (UsageError when it cannot be read). */
export function keyringOf(id: string, env: NodeJS.ProcessEnv, cwd: string): Promise<VaultKeyring> {
  // Typed into a question, not a shell: `~/` is expanded here.
  return vaultKeyringFromOptions({ passwordFiles: [], ids: [expandVaultId(id, env)] }, env, cwd).then(
    (keyring) => keyring!,
  );
}
