import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyringOf, vaultCandidates } from '../../../../src/core/setup/vault-choice.js';
import { UsageError } from '../../../../src/core/errors.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-vault-choice-'));
  mkdirSync(join(dir, 'inventory', 'group_vars', 'all'), { recursive: true });
  return { dir, inventory: join(dir, 'inventory', 'group_vars', 'all', 'certificates.yml') };
}

describe('the vault passwords Ansible already uses here', () => {
  it('reads vault_identity_list and vault_password_file from ansible.cfg, paths relative to it', () => {
    const { dir, inventory } = workspace();
    writeFileSync(
      join(dir, 'ansible.cfg'),
      '[defaults]\n# comment\nvault_identity_list = prod@secrets/prod-pass\nvault_password_file=/etc/vault-pass\n[other]\nvault_password_file = ignored\n',
    );
    expect(vaultCandidates({ HOME: dir }, dir, inventory)).toEqual([
      {
        id: `prod@${join(dir, 'secrets', 'prod-pass')}`,
        file: join(dir, 'secrets', 'prod-pass'),
        source: `vault_identity_list in ${join(dir, 'ansible.cfg')}`,
      },
      {
        id: 'default@/etc/vault-pass',
        file: '/etc/vault-pass',
        source: `vault_password_file in ${join(dir, 'ansible.cfg')}`,
      },
    ]);
  });

  it("takes ANSIBLE_VAULT_IDENTITY_LIST, skips @prompt, and finds the inventory root's ansible.cfg", () => {
    const { dir, inventory } = workspace();
    writeFileSync(join(dir, 'inventory', 'ansible.cfg'), '[defaults]\nvault_password_file = pass.txt\n');
    const found = vaultCandidates(
      { HOME: dir, ANSIBLE_VAULT_IDENTITY_LIST: 'dev@prompt,ops@/srv/ops-pass' },
      join(dir, 'elsewhere'),
      inventory,
    );
    expect(found.map((c) => c.id)).toEqual(['ops@/srv/ops-pass', `default@${join(dir, 'inventory', 'pass.txt')}`]);
  });

  it('the keyring of a chosen file; a missing one is a usage error naming it', async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, 'pass'), 'correct horse\n', { mode: 0o600 });
    const keyring = await keyringOf('pass', {}, dir);
    expect(keyring.seal('x')).toBeTruthy();
    await expect(keyringOf('missing', {}, dir)).rejects.toBeInstanceOf(UsageError);
  });

  it("a path typed with ~ (no shell expands a question's answer) is in the home folder, with a label too", async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, 'pass'), 'correct horse\n', { mode: 0o600 });
    expect((await keyringOf('~/pass', { HOME: dir }, join(dir, 'elsewhere'))).seal('x')).toBeTruthy();
    expect((await keyringOf('prod@~/pass', { HOME: dir }, join(dir, 'elsewhere'))).seal('x')).toBeTruthy();
  });
});
