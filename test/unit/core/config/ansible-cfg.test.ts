import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ansibleInventory } from '../../../../src/core/config/ansible-cfg.js';
import { ansibleConfigFile, configValue } from '../../../../src/core/inventory/ansible-config.js';

const inventoryOption = (text: string) => configValue(text, 'defaults', 'inventory');

function project(): { home: string; work: string } {
  const home = mkdtempSync(join(tmpdir(), 'cg-ansible-'));
  const work = join(home, 'cloud');
  mkdirSync(join(work, 'inventory', 'group_vars', 'all'), { recursive: true });
  writeFileSync(join(work, 'inventory', 'hosts.yml'), 'all: {}\n');
  return { home, work };
}

describe("ansible.cfg's inventory, found as Ansible finds it", () => {
  it('reads [defaults] inventory in INI form, comments and the other sections left alone', () => {
    expect(
      inventoryOption(
        '[ssh_connection]\ninventory = no\n[defaults]\n# inventory = commented\ninventory: inv/hosts.yml ; a comment\n',
      ),
    ).toBe('inv/hosts.yml');
    expect(inventoryOption('[defaults]\nforks = 5\n')).toBeUndefined();
  });

  it('ends a value at an inline ";" comment only, as ansible-config reads it ("#" inline is part of the value)', () => {
    expect(
      configValue('[defaults]\nvault_password_file = ~/.vault-pass ; mine\n', 'defaults', 'vault_password_file'),
    ).toBe('~/.vault-pass');
    expect(inventoryOption('[defaults]\ninventory = /srv/hosts # hash\n')).toBe('/srv/hosts # hash');
  });

  it('a hosts file named relative to the ansible.cfg stands for its folder (group_vars/ beside it), from any working folder', () => {
    const { home, work } = project();
    writeFileSync(join(work, 'ansible.cfg'), '[defaults]\ninventory = missing.yml, inventory/hosts.yml\n');
    expect(ansibleInventory({ HOME: home }, work)).toEqual({
      path: join(work, 'inventory'),
      from: `ansible.cfg ${join(work, 'ansible.cfg')}`,
    });
    expect(ansibleInventory({ HOME: home, ANSIBLE_CONFIG: work }, home)?.path).toBe(join(work, 'inventory'));
  });

  it('ANSIBLE_INVENTORY wins; ~ is the home folder', () => {
    const { home, work } = project();
    writeFileSync(join(work, 'ansible.cfg'), '[defaults]\ninventory = inventory\n');
    expect(ansibleInventory({ HOME: home, ANSIBLE_INVENTORY: '~/cloud/inventory/hosts.yml' }, work)).toEqual({
      path: join(work, 'inventory'),
      from: 'ANSIBLE_INVENTORY',
    });
  });

  it('skips ./ansible.cfg in a folder anyone may write to, as Ansible does, and falls back to ~/.ansible.cfg', () => {
    const { home, work } = project();
    writeFileSync(join(work, 'ansible.cfg'), '[defaults]\ninventory = inventory\n');
    writeFileSync(join(home, '.ansible.cfg'), '[defaults]\ninventory = ~/cloud/inventory\n');
    chmodSync(work, 0o777);
    expect(ansibleConfigFile({ HOME: home }, work)).toBe(join(home, '.ansible.cfg'));
    chmodSync(work, 0o755);
    expect(ansibleConfigFile({ HOME: home }, work)).toBe(join(work, 'ansible.cfg'));
  });
});
