import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSecretsForTests, redact } from '../../../../../src/core/secrets.js';
import { adminCredentialState } from '../../../../../src/core/areas/signin/admin.js';
import { identityBase, isConfigured, readSigninSettings } from '../../../../../src/core/areas/signin/settings.js';
import type { GivenSettings } from '../../../../../src/core/config/settings.js';

const read = (env: Record<string, string> = {}, config: Record<string, unknown> = {}, given: GivenSettings = {}) =>
  readSigninSettings({ given, env, config, cwd: process.cwd() });

afterEach(() => clearSecretsForTests());

describe('sign-in settings', () => {
  it('accepts OS_AUTH_URL with or without /v3 and a trailing slash', () => {
    for (const url of [
      'https://id.example:5000',
      'https://id.example:5000/',
      'https://id.example:5000/v3',
      'https://id.example:5000/v3/',
    ]) {
      expect(identityBase(url)).toBe('https://id.example:5000');
    }
    expect(read({ OS_AUTH_URL: 'https://k.example/identity/v3' }).identityUrl).toBe('https://k.example/identity');
  });

  it('takes flags before CLOUDGATE_*, before OS_*, before the signin: section', () => {
    const config = { signin: { project: 'from-config', idp_id: 'cfg-idp', realm: 'cfg-realm' } };
    expect(read({ OS_PROJECT_NAME: 'os' }, config, { project: 'flag' }).project).toBe('flag');
    expect(read({ CLOUDGATE_PROJECT: 'cg', OS_PROJECT_NAME: 'os' }, config).project).toBe('cg');
    expect(read({ OS_PROJECT_ID: 'id1', OS_PROJECT_NAME: 'name1' }, config).project).toBe('id1');
    const s = read({ OS_IDENTITY_PROVIDER: 'kc' }, config);
    expect(s.idpId).toBe('kc');
    expect(s.realm).toBe('cfg-realm');
  });

  it('knows when the project is surely an id', () => {
    expect(read({ OS_PROJECT_ID: 'anything' }).projectIsId).toBe(true);
    expect(read({ OS_PROJECT_NAME: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' }).projectIsId).toBe(true);
    expect(read({ OS_PROJECT_NAME: 'demo' }).projectIsId).toBe(false);
    expect(read({}, {}, { project: 'demo' }).projectIsId).toBe(false);
  });

  it('applies the documented defaults (federation prefix OS, protocol openid, api service compute)', () => {
    const s = read();
    expect(s.federationPrefix).toBe('OS');
    expect(s.protocol).toBe('openid');
    expect(s.apiService).toBe('compute');
    expect(isConfigured(s)).toBe(false);
  });

  it('never takes a secret from a flag; takes it from env, OS_CLIENT_SECRET, config or a *_file, and registers it', () => {
    expect(read({}, {}, { client_secret: 'from-flag' } as unknown as GivenSettings).clientSecret).toBeUndefined();
    expect(read({ OS_CLIENT_SECRET: 'os-secret-value' }).clientSecret).toBe('os-secret-value');
    expect(redact('x os-secret-value y')).toBe('x [redacted] y');
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-settings-'));
    writeFileSync(join(dir, 'token'), 'file-token-value\n');
    expect(read({}, { signin: { subject_token_file: join(dir, 'token') } }).subjectToken).toBe('file-token-value');
    expect(read({ CLOUDGATE_IDP_CLIENT_SECRET_FILE: join(dir, 'token') }).idpClientSecret).toBe('file-token-value');
    expect(redact('file-token-value')).toBe('[redacted]');
    expect(() => read({}, { signin: { client_secret_file: join(dir, 'missing') } })).toThrow(/client_secret_file/);
  });
});

describe('admin credentials and claim_prefix settings', () => {
  const read = (env: Record<string, string>, config: Record<string, unknown> = {}) =>
    readSigninSettings({ given: {}, env, config, cwd: process.cwd() });
  it('reads the OpenStack variables and the signin: keys; the secrets are registered for redaction', () => {
    const s = read({
      OS_USERNAME: 'reader',
      OS_PASSWORD: 'pw-4711-secret',
      OS_USER_DOMAIN_NAME: 'Default',
      OS_SYSTEM_SCOPE: 'all',
    });
    expect(s.admin).toMatchObject({ username: 'reader', userDomainName: 'Default', systemScope: 'all' });
    expect(adminCredentialState(s.admin)).toEqual({ kind: 'password' });
    expect(redact('x pw-4711-secret y')).toBe('x [redacted] y');
    const app = read(
      {},
      {
        signin: {
          admin_application_credential_id: 'ac1',
          admin_application_credential_secret: 'ac-secret-99',
          claim_prefix: 'OIDC-',
        },
      },
    );
    expect(adminCredentialState(app.admin)).toEqual({ kind: 'application-credential' });
    expect(app.claimPrefix).toEqual({ value: 'OIDC-', explicit: true });
    expect(redact('ac-secret-99')).toBe('[redacted]');
    expect(read({}).claimPrefix).toEqual({ value: 'OIDC_CLAIM_', explicit: false });
    expect(adminCredentialState(read({ OS_USERNAME: 'x' }).admin)).toEqual({
      kind: 'incomplete',
      lacking: ['OS_PASSWORD'],
    });
    expect(adminCredentialState(read({}).admin)).toEqual({ kind: 'none' });
  });
  it('never takes the admin password from a flag', () => {
    const s = readSigninSettings({
      given: { admin_password: 'from-flag' } as unknown as GivenSettings,
      env: {},
      config: {},
      cwd: process.cwd(),
    });
    expect(s.admin.password).toBeUndefined();
  });
});

describe("the OpenStack client's OpenID Connect auth types", () => {
  it('each is a chain of its own; any other auth type (an admin openrc) leaves the token exchange', () => {
    expect(read({ OS_AUTH_TYPE: 'v3oidcclientcredentials' }).grant).toBe('client_credentials');
    expect(read({ OS_AUTH_TYPE: 'v3oidcpassword' }).grant).toBe('password');
    expect(read({ OS_AUTH_TYPE: 'v3oidcaccesstoken' }).grant).toBe('access_token');
    expect(read({ OS_AUTH_TYPE: 'v3oidcauthcode' }).grant).toBe('authorization_code');
    expect(read({ OS_AUTH_TYPE: 'password' }).grant).toBe('exchange');
    expect(isConfigured(read({ OS_AUTH_TYPE: 'v3oidcclientcredentials' }))).toBe(true);
  });

  it("OS_USERNAME and OS_PASSWORD are the broker user's with v3oidcpassword, the identity admin's otherwise", () => {
    const env = { OS_USERNAME: 'op', OS_PASSWORD: 'pw-1234-secret' };
    const oidc = read({ ...env, OS_AUTH_TYPE: 'v3oidcpassword' });
    expect([oidc.username, oidc.password, oidc.admin.username, oidc.admin.password]).toEqual([
      'op',
      'pw-1234-secret',
      undefined,
      undefined,
    ]);
    const admin = read(env);
    expect([admin.username, admin.password, admin.admin.username, admin.admin.password]).toEqual([
      undefined,
      undefined,
      'op',
      'pw-1234-secret',
    ]);
  });

  it('defaults the scope and the token presented as keystoneauth does', () => {
    const s = read({ OS_AUTH_TYPE: 'v3oidcclientcredentials' });
    expect([s.openidScope, s.accessTokenType]).toEqual(['openid profile', 'access_token']);
    expect(read({ OS_OPENID_SCOPE: 'openid', OS_ACCESS_TOKEN_TYPE: 'id_token' })).toMatchObject({
      openidScope: 'openid',
      accessTokenType: 'id_token',
    });
  });
});

describe('the project and its domain, by id or by name', () => {
  it('knows which from the variable or the clouds.yaml key that gave them', () => {
    expect(read({ OS_PROJECT_NAME: 'alpha', OS_PROJECT_DOMAIN_NAME: 'rig' })).toMatchObject({
      project: 'alpha',
      projectBy: 'name',
      projectDomain: 'rig',
      projectDomainBy: 'name',
    });
    expect(read({ OS_PROJECT_NAME: 'alpha', OS_PROJECT_DOMAIN_ID: 'default' })).toMatchObject({
      projectDomain: 'default',
      projectDomainBy: 'id',
    });
    expect(read({ OS_PROJECT_ID: 'abc' })).toMatchObject({ projectBy: 'id', projectIsId: true });
    expect(read({}, { signin: { project: 'alpha', project_domain: 'default' } })).toMatchObject({
      projectBy: 'either',
      projectDomainBy: 'id',
    });
  });

  it("an admin openrc's project domain is not the chain's when the chain's project came from elsewhere", () => {
    const s = read({ CLOUDGATE_PROJECT: 'alpha', OS_PROJECT_NAME: 'admin', OS_PROJECT_DOMAIN_NAME: 'Default' });
    expect([s.project, s.projectDomain]).toEqual(['alpha', undefined]);
  });
});
