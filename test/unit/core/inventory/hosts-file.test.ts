/** Hosts files as Ansible's ini and yaml inventory plugins read them, and a host's groups in Ansible's order. */
import { describe, expect, it } from 'vitest';
import {
  emptyInventory,
  expandHosts,
  groupsOf,
  hostsOf,
  iniValue,
  isYamlInventory,
  looksLikeIni,
  readIniInventory,
  readYamlInventory,
} from '../../../../src/core/inventory/hosts-file.js';

const INI = `# the platform's layout
[controllers]
ctl[1:3].cloud.example.com
ctl9 ansible_host=10.0.0.9 port=22 flag=True name="two words" # a comment

[control_plane:children]
controllers

[control_plane:vars]
ansible_group_priority=5
cluster_issuer_acme_email=ini@example.com

[all:vars]
site=lab

[cephs]
ceph1
`;

describe('readIniInventory', () => {
  const inventory = emptyInventory();
  readIniInventory(inventory, INI, 'hosts.ini');

  it('reads hosts with ranges and inline variables (Python literals), in order', () => {
    expect(hostsOf(inventory, 'controllers')).toEqual([
      'ctl1.cloud.example.com',
      'ctl2.cloud.example.com',
      'ctl3.cloud.example.com',
      'ctl9',
    ]);
    expect(inventory.hostVars.get('ctl9')).toEqual({
      ansible_host: '10.0.0.9',
      port: 22,
      flag: true,
      name: 'two words',
    });
  });

  it('reads children, group variables and ansible_group_priority', () => {
    expect(hostsOf(inventory, 'control_plane')).toEqual(hostsOf(inventory, 'controllers'));
    expect(inventory.groups.get('control_plane')).toMatchObject({
      priority: 5,
      vars: { cluster_issuer_acme_email: 'ini@example.com' },
    });
    expect(inventory.groups.get('all')!.vars).toEqual({ site: 'lab' });
  });

  it("a host's groups: all first, parents before children, then priority, then name; groups it is not in left out", () => {
    expect(groupsOf(inventory, 'ctl1.cloud.example.com').map((g) => [g.name, g.depth])).toEqual([
      ['all', 0],
      ['control_plane', 1],
      ['controllers', 2],
    ]);
    expect(groupsOf(inventory, 'ceph1').map((g) => g.name)).toEqual(['all', 'cephs']);
  });

  it('refuses what Ansible refuses, naming the line', () => {
    expect(() => readIniInventory(emptyInventory(), '[g:bogus]\n', 'h.ini')).toThrow(/h\.ini:1/);
    expect(() => readIniInventory(emptyInventory(), '[g:vars]\nnoequals\n', 'h.ini')).toThrow(/key=value/);
  });
});

describe('yaml inventories, and which form a file is in', () => {
  it('reads all: {children: {controllers: {hosts}}} and the same group order as the ini form', () => {
    const data = {
      all: {
        vars: { site: 'lab' },
        children: {
          controllers: { hosts: { ctl1: null, ctl2: { ansible_host: '10.0.0.2' } } },
          cephs: { hosts: { ceph1: null } },
        },
      },
    };
    const inventory = emptyInventory();
    readYamlInventory(inventory, data, 'hosts.yml');
    expect(hostsOf(inventory, 'controllers')).toEqual(['ctl1', 'ctl2']);
    expect(groupsOf(inventory, 'ctl1').map((g) => g.name)).toEqual(['all', 'controllers']);
    expect(isYamlInventory(data)).toBe(true);
    expect(isYamlInventory({ cluster_issuer_type: 'acme' })).toBe(false);
  });

  it('tells an ini hosts file from YAML', () => {
    expect(looksLikeIni(INI)).toBe(true);
    expect(looksLikeIni('ctl1\nctl2\n')).toBe(true);
    expect(looksLikeIni('all:\n  hosts:\n')).toBe(false);
  });

  it('expands ranges as Ansible does', () => {
    expect(expandHosts('ctl[01:03]')).toEqual(['ctl01', 'ctl02', 'ctl03']);
    expect(expandHosts('node-[a:c]')).toEqual(['node-a', 'node-b', 'node-c']);
    expect(expandHosts('n[1:5:2]')).toEqual(['n1', 'n3', 'n5']);
  });

  it('reads INI values as Python literals', () => {
    expect([iniValue('10'), iniValue('True'), iniValue('None'), iniValue('"x y"'), iniValue('text')]).toEqual([
      10,
      true,
      null,
      'x y',
      'text',
    ]);
  });
});
