import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokerOf, cloudName, cloudOf, mapEntry } from '../../../../src/core/config/clouds-yaml.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('mapEntry: what of a clouds.yaml entry maps onto the sign-in chain', () => {
  it('takes the identity service, the federation, the project and its domain, region and interface', () => {
    const mapped = mapEntry({
      auth_type: 'v3oidcaccesstoken',
      region_name: 'RegionTwo',
      interface: 'internal',
      auth: { auth_url: 'https://id.example/v3', identity_provider: 'kc', protocol: 'openid', project_name: 'demo', project_domain_name: 'Default', access_token: 'tok' },
      cacert: 'ca.pem',
      verify: false,
      identity_api_version: 3,
    }, '/home/op');
    expect(mapped.values).toEqual({
      identity_url: 'https://id.example/v3', idp_id: 'kc', protocol: 'openid', project: 'demo', project_domain: 'Default', region: 'RegionTwo', interface: 'internal',
    });
    expect(mapped.caFile).toBe('/home/op/ca.pem');
    expect(mapped.insecure).toBe(true);
    // The access token is the OpenStack client's own; cloudgate gets its own through the exchange.
    expect(mapped.unused).toEqual(['identity_api_version', 'auth.access_token']);
    expect(mapped.projectId).toBeUndefined();
  });

  it('maps an OpenID Connect client (client credentials) onto the broker: its URL, realm, client and secret', () => {
    const mapped = mapEntry({
      auth_type: 'v3oidcclientcredentials',
      auth: {
        auth_url: 'https://id.example', project_id: '0123', client_id: 'cli', client_secret: 's3cr3t',
        access_token_endpoint: 'https://kc.example/auth/realms/cloud/protocol/openid-connect/token',
      },
    }, '/');
    expect(mapped.values).toMatchObject({ broker_url: 'https://kc.example/auth', realm: 'cloud', client_id: 'cli', client_secret: 's3cr3t', project: '0123' });
    expect([...mapped.secrets]).toEqual(['client_secret']);
    expect(mapped.projectId).toBe('0123');
    expect(mapped.insecure).toBe(false);
  });

  it('takes no client settings from a password or application-credential entry', () => {
    const mapped = mapEntry({ auth_type: 'password', auth: { auth_url: 'https://id', username: 'u', password: 'p', client_id: 'x' } }, '/');
    expect(mapped.values).toEqual({ identity_url: 'https://id' });
    expect(mapped.unused).toEqual(['auth.username', 'auth.password', 'auth.client_id']);
  });

  it('a project id wins over a project name when both are given', () => {
    expect(mapEntry({ auth: { project_id: 'abc', project_name: 'demo' } }, '/').values.project).toBe('abc');
  });
});

describe('brokerOf', () => {
  it.each([
    ['https://kc.example/realms/cloud/.well-known/openid-configuration', { url: 'https://kc.example', realm: 'cloud' }],
    ['https://kc.example/auth/realms/my%20realm/protocol/openid-connect/token', { url: 'https://kc.example/auth', realm: 'my realm' }],
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
    writeFileSync(join(dir, 'clouds.yaml'), 'clouds:\n  edge:\n    auth:\n      auth_url: https://id.example/v3\n      project_name: demo\n');
    writeFileSync(join(dir, 'secure.yaml'), 'clouds:\n  edge:\n    region_name: RegionTwo\n');
    return dir;
  };

  it('reads clouds.yaml with secure.yaml laid over it, and nothing without a name', async () => {
    const dir = folder();
    const env = { HOME: dir };
    expect(await cloudOf(undefined, env, dir)).toBeUndefined();
    const cloud = await cloudOf(undefined, { ...env, OS_CLOUD: 'edge' }, dir);
    expect(cloud?.file).toBe(join(dir, 'clouds.yaml'));
    expect(cloud?.values).toMatchObject({ identity_url: 'https://id.example/v3', project: 'demo', region: 'RegionTwo' });
  });

  it('refuses a name the file does not have, suggesting the closest', async () => {
    const dir = folder();
    await expect(cloudOf('egde', { HOME: dir }, dir)).rejects.toThrow(/has no cloud "egde"/);
    await expect(cloudOf('egde', { HOME: dir }, dir)).rejects.toBeInstanceOf(UsageError);
  });

  it.each([['clouds.yaml', 'clouds:\n  edge:\n    auth:\n      auth_url: https://id.example/v3\u0000\n'], ['secure.yaml', 'clouds:\n  edge:\n    region_name: Region\u0000Two\n']])(
    'refuses a NUL in %s, naming the file and where, as the OpenStack client refuses it', async (file, text) => {
      const dir = folder();
      writeFileSync(join(dir, file), text);
      const error = await cloudOf('edge', { HOME: dir }, dir).catch((e: Error) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(new RegExp(`The file ${file} ${join(dir, file)} holds the character U\\+0000 \\(line \\d, column \\d+\\).*the OpenStack client refuses`));
    });
});
