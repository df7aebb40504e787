import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokerOf, cloudName, cloudNames, cloudOf, mapEntry } from '../../../../src/core/config/clouds-yaml.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('mapEntry: what of a clouds.yaml entry maps onto the sign-in chain', () => {
  it('takes the identity service, the federation, the project and its domain, region and interface; cacert with ~ expanded', () => {
    const mapped = mapEntry(
      {
        auth_type: 'v3oidcaccesstoken',
        region_name: 'RegionTwo',
        interface: 'internal',
        auth: {
          auth_url: 'https://id.example/v3',
          identity_provider: 'kc',
          protocol: 'openid',
          project_name: 'demo',
          project_domain_name: 'Default',
          access_token: 'tok',
        },
        cacert: '~/ca.pem',
        verify: false,
        identity_api_version: 3,
      },
      '/work',
      { HOME: '/home/op' },
    );
    expect(mapped.values).toEqual({
      identity_url: 'https://id.example/v3',
      idp_id: 'kc',
      protocol: 'openid',
      project: 'demo',
      project_domain: 'Default',
      region: 'RegionTwo',
      interface: 'internal',
      auth_type: 'v3oidcaccesstoken',
      access_token: 'tok',
      ca_file: '/home/op/ca.pem',
    });
    expect(mapped.keys).toMatchObject({
      project: 'auth.project_name',
      project_domain: 'auth.project_domain_name',
      access_token: 'auth.access_token',
    });
    expect([...mapped.secrets]).toEqual(['access_token']);
    expect(mapped.caFile).toBe('/home/op/ca.pem');
    expect(mapped.insecure).toBe(true);
    expect(mapped.unused).toEqual(['identity_api_version']);
  });

  it('a client-credentials entry: the broker client, its secret and its token endpoint (the chain of its own)', () => {
    const mapped = mapEntry(
      {
        auth_type: 'v3oidcclientcredentials',
        auth: {
          auth_url: 'https://id.example',
          project_id: '0123',
          client_id: 'cli',
          client_secret: 's3cr3t',
          openid_scope: 'openid',
          access_token_endpoint: 'https://kc.example/realms/cloud/protocol/openid-connect/token',
        },
      },
      '/',
    );
    expect(mapped.values).toMatchObject({
      auth_type: 'v3oidcclientcredentials',
      client_id: 'cli',
      client_secret: 's3cr3t',
      project: '0123',
      openid_scope: 'openid',
      token_endpoint: 'https://kc.example/realms/cloud/protocol/openid-connect/token',
    });
    expect(mapped.keys.project).toBe('auth.project_id');
    expect([...mapped.secrets]).toEqual(['client_secret']);
    expect(mapped.insecure).toBe(false);
  });

  it('a password entry of the OpenID provider gives the user; a Keystone password entry gives no client and no user', () => {
    expect(
      mapEntry(
        {
          auth_type: 'v3oidcpassword',
          auth: { username: 'op', password: 'pw', discovery_endpoint: 'https://kc/.well-known/openid-configuration' },
        },
        '/',
      ).values,
    ).toMatchObject({
      username: 'op',
      password: 'pw',
      discovery_endpoint: 'https://kc/.well-known/openid-configuration',
    });
    const mapped = mapEntry(
      { auth_type: 'password', auth: { auth_url: 'https://id', username: 'u', password: 'p', client_id: 'x' } },
      '/',
    );
    expect(mapped.values).toEqual({ identity_url: 'https://id' });
    expect(mapped.unused.sort()).toEqual(['auth.client_id', 'auth.password', 'auth.username']);
  });

  it('a project id wins over a project name when both are given', () => {
    expect(mapEntry({ auth: { project_id: 'abc', project_name: 'demo' } }, '/').values.project).toBe('abc');
  });

  it('reads the spellings openstacksdk reads as the same: dashes, tenant_*, options at the top level, endpoint_type', () => {
    const mapped = mapEntry(
      {
        auth_type: 'v3oidcclientcredentials',
        'endpoint-type': 'internal',
        'project-domain-name': 'rig',
        auth: { 'auth-url': 'https://id/v3', 'identity-provider': 'kc', 'tenant-name': 'rig-alpha', 'client-id': 'c' },
      },
      '/',
    );
    expect(mapped.values).toMatchObject({
      identity_url: 'https://id/v3',
      idp_id: 'kc',
      project: 'rig-alpha',
      project_domain: 'rig',
      interface: 'internal',
      client_id: 'c',
    });
    expect(mapped.keys).toMatchObject({ project: 'auth.tenant_name', project_domain: 'project_domain_name' });
  });

  it('domain_name beside a project is the project domain, with a note that the OpenStack client fails on it for OIDC types', () => {
    const mapped = mapEntry(
      { auth_type: 'v3oidcclientcredentials', auth: { project_name: 'alpha', domain_name: 'Default' } },
      '/',
    );
    expect(mapped.values.project_domain).toBe('Default');
    expect(mapped.notes.join(' ')).toContain("unexpected keyword argument 'user_domain_name'");
  });

  it('fills {placeholders} of auth_url; takes the first of several regions', () => {
    expect(
      mapEntry({ region_name: 'east', auth: { auth_url: 'https://{region_name}.id.example/v3' } }, '/').values
        .identity_url,
    ).toBe('https://east.id.example/v3');
    expect(mapEntry({ region_name: ['r1', 'r2'] }, '/').values.region).toBe('r1');
    expect(mapEntry({ region_name: 'r3,r4' }, '/').values.region).toBe('r3');
    expect(mapEntry({ regions: [{ name: 'r5', values: {} }, 'r6'] }, '/').values.region).toBe('r5');
  });

  it('says what the OpenStack client does otherwise: a top-level auth-type, verify as a string, a vendor profile, a project name without domain', () => {
    const dashed = mapEntry({ 'auth-type': 'v3oidcclientcredentials', auth: {} }, '/');
    expect(dashed.values.auth_type).toBeUndefined();
    expect(dashed.notes[0]).toContain('"auth-type" (with a dash)');
    const verify = mapEntry({ verify: 'false' }, '/here');
    expect(verify.insecure).toBe(false);
    expect(verify.caFile).toBe('/here/false');
    expect(verify.notes[0]).toContain('write verify: false');
    expect(mapEntry({ insecure: 'true' }, '/').insecure).toBe(true);
    expect(mapEntry({ profile: 'vexxhost' }, '/').notes[0]).toContain('vendor profile');
    expect(
      mapEntry({ auth_type: 'v3oidcclientcredentials', auth: { project_name: 'alpha' } }, '/').notes.join(' '),
    ).toContain('only unique within a domain');
  });
});

describe('brokerOf', () => {
  it.each([
    ['https://kc.example/realms/cloud/.well-known/openid-configuration', { url: 'https://kc.example', realm: 'cloud' }],
    [
      'https://kc.example/auth/realms/my%20realm/protocol/openid-connect/token',
      { url: 'https://kc.example/auth', realm: 'my realm' },
    ],
    ['https://idp.example/oauth2/token', undefined],
  ])('%s', (endpoint, expected) => {
    expect(brokerOf(endpoint)).toEqual(expected);
  });
});

describe('cloudName', () => {
  it('takes --cloud first, then OS_CLOUD', () => {
    expect(cloudName('a', { OS_CLOUD: 'b' })).toBe('a');
    expect(cloudName(undefined, { OS_CLOUD: 'b' })).toBe('b');
    expect(cloudName(undefined, {})).toBeUndefined();
  });
  it('refuses an empty --cloud', () => {
    expect(() => cloudName(' ', {})).toThrow(UsageError);
  });
});

describe('cloudOf: the entry named by --cloud or OS_CLOUD, read from the folders the OpenStack client reads', () => {
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-clouds-'));
    writeFileSync(
      join(dir, 'clouds.yaml'),
      'clouds:\n  edge:\n    auth:\n      auth_url: https://id.example/v3\n      project_name: demo\n',
    );
    writeFileSync(
      join(dir, 'secure.yaml'),
      'clouds:\n  edge:\n    region_name: RegionTwo\n  only-secure:\n    auth:\n      auth_url: https://secure.example/v3\n',
    );
    return dir;
  };

  it('reads clouds.yaml with secure.yaml laid over it, and nothing without a name', async () => {
    const dir = folder();
    const env = { HOME: dir };
    expect(await cloudOf(undefined, env, dir)).toBeUndefined();
    const cloud = await cloudOf(undefined, { ...env, OS_CLOUD: 'edge' }, dir);
    expect(cloud?.file).toBe(join(dir, 'clouds.yaml'));
    expect(cloud?.values).toMatchObject({
      identity_url: 'https://id.example/v3',
      project: 'demo',
      region: 'RegionTwo',
    });
  });

  it('knows a cloud that only secure.yaml has, as openstacksdk does', async () => {
    const dir = folder();
    const cloud = await cloudOf('only-secure', { HOME: dir }, dir);
    expect(cloud?.file).toBeUndefined();
    expect(cloud?.secureFile).toBe(join(dir, 'secure.yaml'));
    expect(cloud?.values.identity_url).toBe('https://secure.example/v3');
    expect(await cloudNames({ HOME: dir }, dir)).toEqual(['edge', 'only-secure']);
  });

  it("refuses a name the file does not have, in the OpenStack client's words, suggesting the closest", async () => {
    const dir = folder();
    await expect(cloudOf('egde', { HOME: dir }, dir)).rejects.toThrow(/cloud "egde" was not found/);
    await expect(cloudOf('egde', { HOME: dir }, dir)).rejects.toBeInstanceOf(UsageError);
  });

  it.each([
    ['clouds.yaml', 'clouds:\n  edge:\n    auth:\n      auth_url: https://id.example/v3\u0000\n'],
    ['secure.yaml', 'clouds:\n  edge:\n    region_name: Region\u0000Two\n'],
  ])('refuses a NUL in %s, naming the file and where, as the OpenStack client refuses it', async (file, text) => {
    const dir = folder();
    writeFileSync(join(dir, file), text);
    const error = await cloudOf('edge', { HOME: dir }, dir).catch((e: Error) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `The file ${file} ${join(dir, file)} holds the character U\\+0000 \\(line \\d, column \\d+\\).*the OpenStack client refuses`,
      ),
    );
  });

  it('searches the current folder, $XDG_CONFIG_HOME/openstack, ~/.config/openstack, the site folder, in that order, and clouds.json too', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cg-clouds-home-'));
    const xdg = join(home, 'xdg');
    const work = join(home, 'work');
    for (const dir of [
      join(xdg, 'openstack'),
      join(home, '.config', 'openstack'),
      join(home, 'site', 'openstack'),
      work,
    ])
      mkdirSync(dir, { recursive: true });
    const env = { HOME: home, XDG_CONFIG_HOME: xdg, XDG_CONFIG_DIRS: join(home, 'site') };
    writeFileSync(join(home, 'site', 'openstack', 'clouds.yaml'), 'clouds:\n  site: {}\n');
    expect((await cloudOf('site', env, work))?.file).toBe(join(home, 'site', 'openstack', 'clouds.yaml'));
    // ~/.config/openstack is searched even when XDG_CONFIG_HOME points elsewhere.
    writeFileSync(join(home, '.config', 'openstack', 'clouds.json'), '{"clouds": {"home": {}}}');
    expect((await cloudOf('home', env, work))?.file).toBe(join(home, '.config', 'openstack', 'clouds.json'));
    writeFileSync(join(xdg, 'openstack', 'clouds.yml'), 'clouds:\n  xdg: {}\n');
    expect((await cloudOf('xdg', env, work))?.file).toBe(join(xdg, 'openstack', 'clouds.yml'));
    writeFileSync(join(work, 'clouds.yaml'), 'clouds:\n  here: {}\n');
    expect((await cloudOf('here', env, work))?.file).toBe(join(work, 'clouds.yaml'));
  });

  it('OS_CLIENT_CONFIG_FILE is tried first; one that does not exist falls through to the search', async () => {
    const dir = folder();
    const other = join(dir, 'other.yaml');
    writeFileSync(other, 'clouds:\n  other: {}\n');
    expect((await cloudOf('other', { HOME: dir, OS_CLIENT_CONFIG_FILE: other }, dir))?.file).toBe(other);
    expect((await cloudOf('edge', { HOME: dir, OS_CLIENT_CONFIG_FILE: join(dir, 'missing.yaml') }, dir))?.file).toBe(
      join(dir, 'clouds.yaml'),
    );
  });

  it('a link counts as found (the read decides), so a planted link is never skipped for the next file', async () => {
    const dir = folder();
    const work = join(dir, 'work');
    mkdirSync(work);
    symlinkSync(join(dir, 'nowhere.yaml'), join(work, 'clouds.yaml'));
    await expect(cloudOf('edge', { HOME: dir }, work)).rejects.toThrow(/clouds\.yaml/);
  });
});
