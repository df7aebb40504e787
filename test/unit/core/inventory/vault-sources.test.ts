/** Where the vault passwords come from, all together, in Ansible's order. */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseVaultId } from '../../../../src/core/inventory/vault-options.js';
import { vaultSpecs } from '../../../../src/core/inventory/vault-sources.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cg-vault-sources-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const specs = (options: { passwordFiles?: string[]; ids?: string[] }, env: NodeJS.ProcessEnv) =>
  vaultSpecs(
    { passwordFiles: options.passwordFiles ?? [], ids: options.ids ?? [] },
    { HOME: dir, ...env },
    dir,
    parseVaultId,
  ).map((s) => [s.label, s.file, s.source]);

describe('vaultSpecs', () => {
  it('the identity list first, then --vault-id, then --vault-password-file and ANSIBLE_VAULT_PASSWORD_FILE (added, not instead)', () => {
    expect(
      specs(
        { passwordFiles: ['pw'], ids: ['dev@dev-pw'] },
        { ANSIBLE_VAULT_IDENTITY_LIST: 'prod@prod-pw, stage@/abs/stage-pw', ANSIBLE_VAULT_PASSWORD_FILE: 'env-pw' },
      ),
    ).toEqual([
      ['prod', join(dir, 'prod-pw'), 'prod@prod-pw in ANSIBLE_VAULT_IDENTITY_LIST'],
      ['stage', '/abs/stage-pw', 'stage@/abs/stage-pw in ANSIBLE_VAULT_IDENTITY_LIST'],
      ['dev', join(dir, 'dev-pw'), '--vault-id dev@dev-pw'],
      ['default', join(dir, 'pw'), '--vault-password-file pw'],
      ['default', join(dir, 'env-pw'), 'ANSIBLE_VAULT_PASSWORD_FILE=env-pw'],
    ]);
  });

  it("ansible.cfg: vault_password_file relative to the file's folder, vault_identity_list relative to the current one; the environment wins", () => {
    mkdirSync(join(dir, 'conf'));
    writeFileSync(
      join(dir, 'conf', 'ansible.cfg'),
      '[defaults]\nvault_password_file = secrets/pw\nvault_identity_list = prod@prod-pw\nvault_identity = site\n',
    );
    expect(specs({}, { ANSIBLE_CONFIG: join(dir, 'conf') })).toEqual([
      ['prod', join(dir, 'prod-pw'), `prod@prod-pw in vault_identity_list in ${join(dir, 'conf', 'ansible.cfg')}`],
      ['site', join(dir, 'conf', 'secrets', 'pw'), `vault_password_file in ${join(dir, 'conf', 'ansible.cfg')}`],
    ]);
    expect(specs({}, { ANSIBLE_CONFIG: join(dir, 'conf'), ANSIBLE_VAULT_PASSWORD_FILE: '~/other' }).at(-1)).toEqual([
      'site',
      join(dir, 'other'),
      'ANSIBLE_VAULT_PASSWORD_FILE=~/other',
    ]);
  });

  it('./ansible.cfg counts, but not in a folder anyone may write to (Ansible ignores it there)', () => {
    writeFileSync(join(dir, 'ansible.cfg'), '[defaults]\nvault_password_file = pw\n');
    expect(specs({}, {})).toEqual([['default', join(dir, 'pw'), `vault_password_file in ${join(dir, 'ansible.cfg')}`]]);
  });
});
