import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { namesFromFolder } from '../../../../src/core/config/naming-detect.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudgate-names-'));
  mkdirSync(join(dir, 'group_vars', 'all'), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('which names a new inventory reads, from the other files of its folder', () => {
  it('a real platform inventory (atmosphere_* or openstack_helm_* variables of its other roles): the platform\'s', async () => {
    writeFileSync(join(dir, 'group_vars', 'all', 'openstack.yml'), 'atmosphere_ingress_class_name: nginx\nkeystone_domain: example\n');
    const found = await namesFromFolder(join(dir, 'group_vars', 'all', 'certificates.yml'));
    expect(found.profile).toBe('platform');
    expect(found.evidence).toContain('atmosphere_ingress_class_name');
  });

  it('neutral names elsewhere in the folder: the neutral ones', async () => {
    writeFileSync(join(dir, 'group_vars', 'all', 'ingress.yml'), 'cloud_helm_ingress_wildcard_domain: cloud.example.com\n');
    expect((await namesFromFolder(join(dir, 'group_vars', 'all', 'certificates.yml'))).profile).toBe('spec');
  });

  it('the inventory file itself does not count, and a folder without names tells nothing', async () => {
    const own = join(dir, 'group_vars', 'all', 'certificates.yml');
    writeFileSync(own, 'atmosphere_ingress_class_name: nginx\n');
    writeFileSync(join(dir, 'group_vars', 'all', 'other.yml'), 'ntp_server: pool.ntp.org\n');
    expect(await namesFromFolder(own)).toEqual({});
    expect(await namesFromFolder(join(tmpdir(), 'no-such-folder', 'inv.yml'))).toEqual({});
  });

  it('an inventory file beside group_vars/ reads that folder', async () => {
    writeFileSync(join(dir, 'group_vars', 'all', 'openstack.yml'), 'openstack_helm_ingress_annotations: {}\n');
    expect((await namesFromFolder(join(dir, 'certificates.yml'))).profile).toBe('platform');
  });
});
