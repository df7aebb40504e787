import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import { DEFAULT_NETWORK } from '../../../../../src/core/config/network.js';
import type { CheckOutcome } from '../../../../../src/core/doctor/types.js';
import { redact } from '../../../../../src/core/secrets.js';
import { signinChecks } from '../../../../../src/core/areas/signin/checks.js';
import { readSigninSettings } from '../../../../../src/core/areas/signin/settings.js';
import { useIdentityServerFactory } from '../../../../helpers/identity-servers.js';
import { createTestCA } from '../../../../helpers/pki.js';
import { fakeJwt, type IdentityServer, type IdentityServerOptions } from '../../../../servers/identity.js';

const identity = useIdentityServerFactory();
const server = (options: Partial<IdentityServerOptions> = {}) => identity.server(options);

type Outcomes = Record<string, CheckOutcome>;

async function doctor(
  s: IdentityServer,
  env: Record<string, string | undefined> = {},
  http: { timeoutMs?: number } = {},
): Promise<Outcomes> {
  const merged = Object.fromEntries(
    Object.entries({ ...s.env(), ...env }).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  const settings = readSigninSettings({ given: {}, env: merged, config: {}, cwd: process.cwd() });
  const network = { ...DEFAULT_NETWORK, caFile: identity.ca.file, timeoutMs: http.timeoutMs ?? 5000 };
  const report = await runChecks(signinChecks(settings), { timeoutMs: 10_000, network });
  return Object.fromEntries(report.checks.map((c) => [c.id.replace('signin.', ''), c]));
}

function statuses(o: Outcomes) {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.status]));
}

function allText(o: Outcomes) {
  return JSON.stringify(Object.values(o));
}

describe("sign-in chain against a server of the platform's documented paths", () => {
  it('runs every step and says what each proved', async () => {
    const s = await server();
    const o = await doctor(s, { OS_PROJECT_NAME: 'demo' });
    expect(statuses(o)).toEqual({
      'idp-token': 'skip',
      exchange: 'ok',
      claims: 'ok',
      federated: 'ok',
      projects: 'ok',
      scope: 'ok',
      api: 'ok',
    });
    expect(o.exchange!.message).toContain(`iss ${s.origin}/realms/cloud`);
    expect(o.exchange!.message).toContain('user alice');
    expect(o.exchange!.message).toContain('expires_in 300 s');
    expect(o.exchange!.message).toMatch(/4 min \d+ s left|5 min left/);
    expect(o.federated!.message).toMatch(/unscoped token \(201 in \d+ ms\)/);
    expect(o.projects!.message).toContain('chose demo (a1b2c3d4e5f60718293a4b5c6d7e8f90)');
    expect(o.scope!.message).toContain('catalog: compute, identity in RegionOne');
    expect(o.scope!.message).toMatch(/expires_at \S+ \(59 min \d+ s left|1 h left\)/);
    expect(o.api!.message).toContain(`GET ${s.origin}/compute/v2.1/servers answered 200`);
    expect(o.api!.message).toContain('(servers: 1)');
  });

  it('sends the token exchange form fields as documented, plus subject_issuer only when set', async () => {
    const s = await server({ requireSubjectIssuer: 'external' });
    await doctor(s, { OS_PROJECT_ID: s.projects[0]!.id, CLOUDGATE_SUBJECT_ISSUER: 'external' });
    const exchange = s.requests.find((r) => r.path.startsWith('/realms/'))!;
    expect(exchange.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      client_id: s.clientId,
      client_secret: s.clientSecret,
      subject_token: s.subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      subject_issuer: 'external',
    });
    const federated = s.requests.find((r) => r.path.includes('-FEDERATION/'))!;
    expect(federated.path).toBe('/identity/v3/OS-FEDERATION/identity_providers/keycloak/protocols/openid/auth');
    expect(federated.method).toBe('GET');
    const scope = s.requests.find((r) => r.path === '/identity/v3/auth/projects' && r.method === 'POST')!;
    const body = JSON.parse(scope.body);
    expect(body.auth.identity.methods).toEqual(['token']);
    expect(body.auth.identity.token.id).toBe(scope.headers['x-auth-token']);
    expect(body.auth.scope.project.id).toBe(s.projects[0]!.id);
  });

  it('gets the subject token with the client credentials grant when configured', async () => {
    const s = await server();
    const o = await doctor(s, {
      CLOUDGATE_SUBJECT_TOKEN: undefined,
      CLOUDGATE_IDP_TOKEN_URL: s.idpTokenUrl,
      CLOUDGATE_IDP_CLIENT_ID: s.idpClientId,
      CLOUDGATE_IDP_CLIENT_SECRET: s.idpClientSecret,
      OS_PROJECT_NAME: 'ops',
    });
    expect(o['idp-token']!.status).toBe('ok');
    expect(o['idp-token']!.message).toContain('iss https://idp.test/realms/external');
    expect(o.api!.status).toBe('ok');
  });

  it('reports the list of projects when none is configured, and skips scoping', async () => {
    const s = await server();
    const o = await doctor(s);
    expect(o.projects!.status).toBe('warn');
    expect(o.projects!.message).toContain(
      'demo (a1b2c3d4e5f60718293a4b5c6d7e8f90), ops (0f9e8d7c6b5a49382716f5e4d3c2b1a0)',
    );
    expect(o.scope!.status).toBe('skip');
    expect(o.scope).toMatchObject({
      message: 'Not run: signin.projects did not hand on the chosen project.',
      reason: { code: 'not-configured', text: expect.stringContaining('--project') },
    });
  });

  it('fails on a project the user cannot access, listing the ones it can', async () => {
    const s = await server();
    const o = await doctor(s, { OS_PROJECT_NAME: 'nope' });
    expect(o.projects!.status).toBe('fail');
    expect(o.projects!.message).toContain('"nope" is not among the 2 project(s)');
    expect(o.scope!.status).toBe('skip');
  });

  it('never shows a token or secret value', async () => {
    const s = await server();
    const o = await doctor(s, { OS_PROJECT_NAME: 'demo' });
    const text = redact(allText(o));
    for (const secret of [...s.issued, s.clientSecret, s.subjectToken]) expect(text).not.toContain(secret);
    // And the raw outcomes carry no token at all, even before redaction.
    for (const token of s.issued) expect(allText(o)).not.toContain(token);
  });

  it('skips every step with the reason when nothing is configured', async () => {
    const settings = readSigninSettings({ given: {}, env: {}, config: {}, cwd: process.cwd() });
    const report = await runChecks(signinChecks(settings));
    expect(report.checks.map((c) => c.status)).toEqual(['skip', 'skip', 'skip', 'skip', 'skip', 'skip', 'skip']);
    expect(report.checks[1]!.message).toContain('not configured');
    // What to pass, without --verbose (a first run): the config file and the environment variables.
    expect(report.checks.every((c) => c.reason?.code === 'not-configured')).toBe(true);
    expect(report.checks[0]!.reason!.text).toMatch(/--config FILE/);
    for (const name of ['CLOUDGATE_BROKER_URL', 'CLOUDGATE_CLIENT_SECRET', 'OS_AUTH_URL', 'OS_IDENTITY_PROVIDER'])
      expect(report.checks[0]!.reason!.text).toContain(name);
  });

  it('never says the subject token is given when there is none', async () => {
    const settings = readSigninSettings({
      given: {},
      env: { CLOUDGATE_BROKER_URL: 'https://broker.example' },
      config: {},
      cwd: process.cwd(),
    });
    const report = await runChecks(signinChecks(settings));
    const idp = report.checks.find((c) => c.id === 'signin.idp-token')!;
    expect(idp).toMatchObject({ status: 'skip', reason: { code: 'not-configured' } });
    expect(idp.message).not.toMatch(/Not needed|is given/);
    expect(idp.reason!.text).toContain('subject_token');
  });

  it('names missing settings', async () => {
    const s = await server();
    const o = await doctor(s, { OS_IDENTITY_PROVIDER: undefined });
    expect(o.exchange!.status).toBe('ok');
    expect(o.federated!.status).toBe('skip');
    expect(o.federated!.message).toContain('idp_id (or OS_IDENTITY_PROVIDER)');
  });
});

describe('sign-in chain against a real-Keystone-like server', () => {
  const identityCalls = (s: IdentityServer) =>
    s.requests
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => /\/identity\/v3\/(projects|auth\/(projects|tokens))$/.test(r));

  it('is all ok: the standard Keystone paths are healthy, named in the message and details', async () => {
    const s = await server({ mode: 'keystone' });
    const o = await doctor(s, { OS_PROJECT_NAME: 'demo' });
    expect(statuses(o)).toEqual({
      'idp-token': 'skip',
      exchange: 'ok',
      claims: 'ok',
      federated: 'ok',
      projects: 'ok',
      scope: 'ok',
      api: 'ok',
    });
    expect(o.projects!.message).toContain(
      'at /v3/auth/projects, the standard Keystone path (/v3/projects answered 403)',
    );
    expect(o.projects!.facts).toMatchObject({
      path: '/v3/auth/projects',
      flavour: 'keystone',
      tried: { path: '/v3/projects', status: 403 },
    });
    expect(o.scope!.message).toContain('at /v3/auth/tokens, the standard Keystone path');
    expect(o.scope!.facts).toMatchObject({ path: '/v3/auth/tokens', flavour: 'keystone' });
    expect(o.scope!.facts!.tried).toBeUndefined();
  });

  it('remembers the flavour for the rest of the run: scoping costs one request', async () => {
    const s = await server({ mode: 'keystone' });
    await doctor(s, { OS_PROJECT_NAME: 'demo' });
    expect(identityCalls(s)).toEqual([
      'GET /identity/v3/projects',
      'GET /identity/v3/auth/projects',
      'POST /identity/v3/auth/tokens',
    ]);
  });

  it("a server of the platform's documented paths is ok with one request per step", async () => {
    const s = await server();
    const o = await doctor(s, { OS_PROJECT_NAME: 'demo' });
    expect([o.projects!.status, o.scope!.status]).toEqual(['ok', 'ok']);
    expect(o.projects!.facts).toMatchObject({ path: '/v3/projects', flavour: 'platform' });
    expect(identityCalls(s)).toEqual(['GET /identity/v3/projects', 'POST /identity/v3/auth/projects']);
  });
});

describe('failures map to specific advice', () => {
  const cases: [string, IdentityServerOptions['fail'], string, RegExp, RegExp][] = [
    ['wrong client secret', { exchange: 'invalid-client' }, 'exchange', /rejected the client/, /client_secret/],
    [
      'exchange not permitted',
      { exchange: 'exchange-not-permitted' },
      'exchange',
      /does not permit this client/,
      /token-exchange permission/,
    ],
    [
      'subject token rejected',
      { exchange: 'invalid-token' },
      'exchange',
      /rejected the subject token/,
      /subject_issuer=<identity provider alias>/,
    ],
    [
      'subject_issuer refused (V2)',
      { exchange: 'subject-issuer-unsupported' },
      'exchange',
      /refuses subject_issuer/,
      /Remove subject_issuer/,
    ],
    [
      'unknown subject_issuer',
      { exchange: 'invalid-issuer' },
      'exchange',
      /does not know subject_issuer/,
      /alias of the identity provider/,
    ],
    [
      'mapping matched nothing',
      { federated: 'mapping' },
      'federated',
      /mapped nothing/,
      /matched none of the broker token's claims/,
    ],
    ['issuer not among remote ids', { federated: 'remote-id' }, 'federated', /issuer is not accepted/, /--remote-id/],
    [
      'broker token refused by mod_auth_openidc',
      { federated: 'unauthorized' },
      'federated',
      /\(mod_auth_openidc\) refused the broker token/,
      /key set.*300 s/,
    ],
    [
      'Authorization dropped before mod_auth_openidc',
      { federated: 'bearer-dropped' },
      'federated',
      /No bearer token found/,
      /proxy.*Authorization/,
    ],
    [
      'a bare 403 of Keystone (reason hidden)',
      { federated: 'remote-id-hidden' },
      'federated',
      /refused the federated sign-in: 403/,
      /remote ids of identity provider "keycloak".*disabled/,
    ],
    [
      'a JSON 401 of Keystone (mapping, reason hidden)',
      { federated: 'mapping-hidden' },
      'federated',
      /signed no one in: 401/,
      /mapping of identity provider "keycloak"/,
    ],
    [
      'missing X-Subject-Token',
      { federated: 'no-subject-token' },
      'federated',
      /without the X-Subject-Token header/,
      /proxy/,
    ],
    ['a 200 instead of 201', { federated: 'status-200' }, 'federated', /200 instead of 201/, /identity_url/],
    ['an HTML error page', { exchange: 'html' }, 'exchange', /HTML page "502 Bad Gateway"/, /./],
    ['a non-JSON body', { exchange: 'not-json' }, 'exchange', /not JSON/, /./],
    ['an oversized body', { projects: 'oversized' }, 'projects', /larger than 1024 KiB/, /wrong service/],
    [
      'a redirect',
      { federated: 'redirect' },
      'federated',
      /redirect to https:\/\/127\.0\.0\.1:\d+\/login/,
      /final address/,
    ],
    [
      'no access to the project',
      { scope: 'no-project-access' },
      'scope',
      /No access to the project/,
      /openstack role add/,
    ],
    [
      'unrecognised token',
      { projects: 'fernet-unrecognized' },
      'projects',
      /does not recognise the token/,
      /fernet keys/,
    ],
    ['expired token', { scope: 'token-expired' }, 'scope', /no longer valid/, /expired/],
    ['the API refusing the token', { api: 'unauthorized' }, 'api', /answered 401/, /keystone_authtoken/],
  ];
  for (const [name, fail, step, message, advice] of cases) {
    it(name, async () => {
      const s = await server({ fail });
      const o = await doctor(s, { OS_PROJECT_NAME: 'demo' });
      expect(o[step]!.status).toBe('fail');
      expect(o[step]!.message).toMatch(message);
      expect(o[step]!.advice).toMatch(advice);
      const later = ['exchange', 'federated', 'projects', 'scope', 'api'].slice(
        ['exchange', 'federated', 'projects', 'scope', 'api'].indexOf(step) + 1,
      );
      // Scoping could go ahead without the list for an id (or a name with its domain), not for the bare name "demo".
      for (const id of later) {
        expect(o[id]!.status, id).toBe('skip');
        expect(o[id]!.message, id).toBe(`Not run: signin.${step} failed.`);
        expect(o[id]!.reason, id).toMatchObject({
          code: 'needs-failed',
          text: `Fix what signin.${step} reports first.`,
        });
      }
      for (const token of s.issued) expect(allText(o)).not.toContain(token);
    });
  }

  it('says when the subject token has expired, and what mod_auth_openidc said', async () => {
    const subjectToken = fakeJwt({ iss: 'https://idp.test', sub: 'svc', exp: Math.floor(Date.now() / 1000) - 120 });
    let s = await server({ subjectToken });
    let o = await doctor(s);
    expect(o.exchange!.status).toBe('fail');
    expect(o.exchange!.message).toMatch(/The subject token expired 2 min( \d+ s)? ago/);
    expect(o.exchange!.message).not.toContain(subjectToken);
    s = await server({ fail: { federated: 'unauthorized' } });
    o = await doctor(s);
    expect(o.federated!.message).toContain('token could not be validated');
  });

  it('a login page answering 200 at the sign-in URL', async () => {
    const s = await server();
    const o = await doctor(s, { OS_AUTH_URL: `${s.origin}/login-portal` });
    expect(o.federated!.status).toBe('fail');
    expect(o.federated!.message).toContain('answered 200 instead of 201 Created');
    expect(o.federated!.message).toContain('an HTML page "Sign in"');
    expect(o.federated!.advice).toContain('identity_url');
  });

  it("names the broker token's issuer when Keystone hides why it refused", async () => {
    const s = await server({ fail: { federated: 'remote-id-hidden' } });
    const o = await doctor(s);
    expect(o.federated!.advice).toContain(`"${s.origin}/realms/cloud"`);
  });

  it('unknown identity provider and protocol', async () => {
    const s = await server();
    let o = await doctor(s, { OS_IDENTITY_PROVIDER: 'nope' });
    expect(o.federated!.message).toContain('Could not find Identity Provider: nope');
    expect(o.federated!.message).not.toContain('..');
    expect(o.federated!.advice).toContain('openstack identity provider list');
    o = await doctor(s, { OS_PROTOCOL: 'saml2' });
    expect(o.federated!.message).toContain('Could not find federated protocol saml2');
    expect(o.federated!.advice).toContain('federation protocol list');
  });

  it('a timeout of one step fails it and skips the rest', async () => {
    const s = await server({ fail: { federated: 'hang' } });
    const o = await doctor(s, { OS_PROJECT_NAME: 'demo' }, { timeoutMs: 300 });
    expect(o.federated!.status).toBe('fail');
    expect(o.federated!.message).toContain('No answer from');
    expect(o.projects!.status).toBe('skip');
  });

  it('TLS: unknown CA, expired certificate and host-name mismatch', async () => {
    const other = createTestCA('unknown CA');
    let s = await server({ cert: other.issue(['127.0.0.1']) });
    expect((await doctor(s)).exchange!.message).toContain('unknown certificate authority');
    s = await server({
      cert: identity.ca.issue(['127.0.0.1'], {
        notBefore: new Date(Date.now() - 9e8),
        notAfter: new Date(Date.now() - 1e8),
      }),
    });
    expect((await doctor(s)).exchange!.message).toContain('expired');
    s = await server({ cert: identity.ca.issue(['identity.example']) });
    expect((await doctor(s)).exchange!.message).toContain('does not cover that host name');
  });

  it('refused connection and DNS failure', async () => {
    const s = await server();
    let o = await doctor(s, { CLOUDGATE_BROKER_URL: 'https://127.0.0.1:1' });
    expect(o.exchange!.message).toContain('Connection refused');
    o = await doctor(s, { CLOUDGATE_BROKER_URL: 'https://broker.invalid' });
    expect(o.exchange!.message).toContain('does not resolve');
  });

  it('scopes with a configured project id even when the listing fails', async () => {
    const s = await server({ fail: { projects: 'status-500' } });
    const o = await doctor(s, { OS_PROJECT_ID: s.projects[1]!.id });
    expect(o.projects!.status).toBe('fail');
    expect(o.scope!.status).toBe('warn');
    expect(o.api!.status).toBe('ok');
  });
});

describe('what real Keystone answers when it hides the reason (no insecure_debug)', () => {
  const causes = (advice: string) => ['remote ids', 'disabled', 'mapping'].map((cause) => advice.indexOf(cause));

  it('a bare 403: names the remote ids (with the iss it sent), a disabled provider, then the mapping, in that order, and how to confirm', async () => {
    const s = await server({ fail: { federated: 'remote-id-hidden' } });
    const o = await doctor(s);
    const federated = o.federated!;
    expect(federated.status).toBe('fail');
    expect(federated.message).toBe(
      'The identity service refused the federated sign-in: 403 Forbidden You are not authorized to perform the requested action.',
    );
    const order = causes(federated.advice!);
    expect(
      order.every((i) => i >= 0),
      federated.advice,
    ).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(federated.advice).toContain(`issuer "${s.origin}/realms/cloud"`);
    expect(federated.advice).toContain('openstack identity provider show keycloak (remote_ids');
    expect(federated.advice).toContain(`openstack identity provider set --remote-id ${s.origin}/realms/cloud keycloak`);
    expect(federated.facts).toMatchObject({ status: 403, token_issuer: `${s.origin}/realms/cloud` });
  });

  it("a JSON 401 of Keystone blames the mapping, not mod_auth_openidc's key set", async () => {
    const s = await server({ fail: { federated: 'mapping-hidden' } });
    const advice = (await doctor(s)).federated!.advice!;
    expect(advice).toMatch(/matched none of the token's claims/);
    expect(advice).toMatch(/no group/);
    expect(advice).not.toMatch(/key set|300 s/);
  });

  it('an HTML 401 with a Bearer challenge (mod_auth_openidc) blames signature, expiry and the cached key set, not the mapping', async () => {
    const s = await server({ fail: { federated: 'unauthorized' } });
    const o = await doctor(s);
    expect(o.federated!.message).toContain('token could not be validated');
    expect(o.federated!.message).not.toMatch(/\.\./);
    expect(o.federated!.advice).toContain(
      `OIDCOAuthVerifyJwksUri) is ${s.origin}/realms/cloud/protocol/openid-connect/certs`,
    );
    expect(o.federated!.advice).toMatch(/signature/);
    expect(o.federated!.advice).toMatch(/at least 300 s/);
    expect(o.federated!.advice).not.toMatch(/mapping/);
  });

  it('a protocol missing from [auth] methods: names keystone.conf and the methods Keystone accepts', async () => {
    const s = await server({ authMethods: ['password', 'token'] });
    const federated = (await doctor(s)).federated!;
    expect(federated.status).toBe('fail');
    expect(federated.message).toContain(
      'does not accept protocol "openid" as a sign-in method: 401 Unauthorized Attempted to authenticate with an unsupported method.',
    );
    expect(federated.message).toContain('It accepts: password, token.');
    expect(federated.advice).toContain(
      'Add openid to [auth] methods in keystone.conf (e.g. methods = password,token,openid)',
    );
    expect(federated.advice).not.toMatch(/key set|mapping/);
  });

  it('a protocol Keystone lists but the client names wrongly still points at keystone.conf first, then the protocol setting', async () => {
    const s = await server({ protocol: 'oidcx', authMethods: ['password', 'token', 'openid'] });
    const federated = (await doctor(s, { OS_PROTOCOL: 'oidcx' })).federated!;
    expect(federated.message).toContain('It accepts: password, token, openid.');
    expect(federated.advice).toContain('Add oidcx to [auth] methods');
    expect(federated.advice).toContain('set protocol (OS_PROTOCOL)');
  });

  it('server text ending in a full stop is quoted without doubling it', async () => {
    const s = await server({ fail: { api: 'unauthorized' } });
    const api = (await doctor(s, { OS_PROJECT_NAME: 'demo' })).api!;
    expect(api.message).toMatch(/answered 401: The request you have made requires authentication\.$/);
  });
});
