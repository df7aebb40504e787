/**
 * `signin.claims` with the built binary against the test identity service: the mapping read with admin
 * credentials (password or application credential) and judged against the broker token's claims, the
 * fallback without them, the Authorization header size and the subject token's audience.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestCA, type TestCA } from '../helpers/pki.js';
import { fakeJwt, startIdentityServer, type IdentityServer, type IdentityServerOptions } from '../servers/identity.js';

interface Check {
  id: string;
  status: string;
  message: string;
  advice?: string;
  details?: Record<string, any>;
}

let ca: TestCA;
const servers: IdentityServer[] = [];
beforeAll(() => {
  ca = createTestCA();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function server(options: Partial<IdentityServerOptions> = {}) {
  const s = await startIdentityServer({ ca, mode: 'keystone', ...options });
  servers.push(s);
  return s;
}

// No admin credentials of the machine running the tests may leak in.
const NO_ADMIN = Object.fromEntries(
  [
    'OS_USERNAME',
    'OS_PASSWORD',
    'OS_USER_DOMAIN_NAME',
    'OS_PROJECT_NAME',
    'OS_PROJECT_DOMAIN_NAME',
    'OS_SYSTEM_SCOPE',
    'OS_APPLICATION_CREDENTIAL_ID',
    'OS_APPLICATION_CREDENTIAL_SECRET',
  ].map((k) => [k, '']),
);

async function doctor(s: IdentityServer, env: Record<string, string> = {}, args: string[] = []) {
  const result = await runCli(['doctor', '--only', 'signin', '--json', ...args], {
    env: { ...s.env(), ...NO_ADMIN, CLOUDGATE_PROJECT: 'demo', ...env },
  });
  const checks = Object.fromEntries((JSON.parse(result.stdout).checks as Check[]).map((c) => [c.id, c]));
  return { result, checks, claims: checks['signin.claims']! };
}

/** Every secret the server knows and every token it issued: none may appear in any output. */
function expectNoSecrets(result: CliResult, s: IdentityServer) {
  const secrets = [...s.issued, s.clientSecret, s.subjectToken, s.adminPassword, s.applicationCredential.secret];
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  expect(result.stdout + result.stderr).not.toMatch(/eyJ[\w-]{10,}\.eyJ[\w-]{10,}/);
}

describe('doctor signin.claims', () => {
  it('with admin credentials: reads the protocol and its mapping, the matching rule named; ok, exit 0 with --strict', async () => {
    const s = await server();
    const { result, checks, claims } = await doctor(s, s.adminEnv(), ['--verbose']);
    expect(result.code, result.stdout).toBe(0);
    expect(Object.keys(checks)).toEqual([
      'signin.idp-token',
      'signin.exchange',
      'signin.claims',
      'signin.federated',
      'signin.projects',
      'signin.scope',
      'signin.api',
    ]);
    expect(claims.status).toBe('ok');
    expect(claims.message).toContain('Mapping keycloak-mapping: rule 1 of 1 matches');
    expect(claims.details).toMatchObject({
      mapping: 'keycloak-mapping',
      claim_prefix: 'OIDC_CLAIM_',
      rules: [{ rule: 1, matches: true, uses: ['preferred_username'] }],
    });
    const paths = s.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('GET /identity/v3/OS-FEDERATION/identity_providers/keycloak/protocols/openid');
    expect(paths).toContain('GET /identity/v3/OS-FEDERATION/mappings/keycloak-mapping');
    const signIn = s.requests.find((r) => r.path === '/identity/v3/auth/tokens' && r.body.includes('"password"'))!;
    expect(JSON.parse(signIn.body).auth).toMatchObject({
      identity: { methods: ['password'], password: { user: { name: 'admin', domain: { name: 'Default' } } } },
      scope: { project: { name: 'admin', domain: { name: 'Default' } } },
    });
    expect((await doctor(s, s.adminEnv(), ['--strict'])).result.code).toBe(0);
    expectNoSecrets(result, s);
  });

  it('a mapping that needs a claim the broker token lacks: fail naming the claim and the fix, exit 1', async () => {
    const s = await server({
      mapping: {
        id: 'needs-email',
        rules: [
          {
            local: [{ user: { name: '{0}', email: '{1}' } }],
            remote: [{ type: 'HTTP_OIDC_CLAIM_PREFERRED_USERNAME' }, { type: 'HTTP_OIDC_CLAIM_EMAIL' }],
          },
        ],
      },
    });
    const { result, checks, claims } = await doctor(s, s.adminEnv());
    expect(result.code).toBe(1);
    expect(checks['signin.exchange']!.status).toBe('ok');
    expect(claims.status).toBe('fail');
    expect(claims.message).toContain('Could not map any federated user properties');
    expect(claims.details?.missing).toEqual(['email']);
    expect(claims.message).toContain('no email (HTTP_OIDC_CLAIM_EMAIL)');
    expect(claims.advice).toContain('"email"');
    expect(claims.advice).toContain('client "cloudgate"');
    // The broker adds the claim: the same mapping is satisfied.
    s.brokerClaims = { email: 'alice@example.com' };
    expect((await doctor(s, s.adminEnv())).claims.status).toBe('ok');
    expectNoSecrets(result, s);
  });

  it('an application credential from a --config file (secret in a *_file), with claim_prefix OIDC-', async () => {
    const s = await server({
      mapping: {
        id: 'dash',
        rules: [{ remote: [{ type: 'OIDC-preferred_username' }, { type: 'OIDC-sub', not_any_of: ['orphan'] }] }],
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-claims-'));
    const secretFile = join(dir, 'app-cred-secret');
    writeFileSync(secretFile, `${s.applicationCredential.secret}\n`, { mode: 0o600 });
    chmodSync(secretFile, 0o600);
    const config = join(dir, 'cloudgate.yaml');
    writeFileSync(
      config,
      [
        'signin:',
        '  claim_prefix: OIDC-',
        `  admin_application_credential_id: ${s.applicationCredential.id}`,
        '  admin_application_credential_secret_file: ./app-cred-secret',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const { result, checks, claims } = await doctor(s, {}, ['--config', config]);
    expect(claims.status, claims.message).toBe('ok');
    expect(claims.details).toMatchObject({ mapping: 'dash', claim_prefix: 'OIDC-' });
    expect(checks['signin.config']).toBeUndefined();
    const signIn = s.requests.find((r) => r.body.includes('application_credential'))!;
    expect(JSON.parse(signIn.body).auth.scope).toBeUndefined();
    expect(result.code).toBe(0);
    expectNoSecrets(result, s);
  });

  it('wrong admin password or a role that may not read the mapping: warn saying why, falling back to the usual claims', async () => {
    const s = await server();
    const wrong = await doctor(s, { ...s.adminEnv(), OS_PASSWORD: 'not-the-admin-password-0815' });
    expect(wrong.claims.status).toBe('warn');
    expect(wrong.claims.message).toContain('the mapping was not read');
    expect(wrong.claims.message).toContain('admin sign-in as user admin');
    expect(wrong.claims.message).toContain('401');
    expect(wrong.claims.advice).toContain('OS_PASSWORD');
    expect(wrong.claims.details).toMatchObject({ mapping_read: false, status: 401 });
    expect(wrong.result.stdout + wrong.result.stderr).not.toContain('not-the-admin-password-0815');
    expectNoSecrets(wrong.result, s);

    s.fail = { admin: 'forbidden' };
    const forbidden = await doctor(s, s.adminEnv());
    expect(forbidden.claims.status).toBe('warn');
    expect(forbidden.claims.message).toContain('403');
    expect(forbidden.claims.message).toContain('identity:get_protocol');
    expect(forbidden.claims.advice).toContain('may not read the federation protocol');
    s.fail = {};

    const incomplete = await doctor(s, { OS_USERNAME: 'admin' });
    expect(incomplete.claims.status).toBe('warn');
    expect(incomplete.claims.advice).toContain('Set OS_PASSWORD');
  });

  it('a protocol the identity service does not know: warn with the protocol advice', async () => {
    const s = await server();
    const { claims } = await doctor(s, { ...s.adminEnv(), OS_PROTOCOL: 'saml2' });
    expect(claims.status).toBe('warn');
    expect(claims.message).toContain('Could not find federated protocol saml2');
    expect(claims.advice).toContain('OS_PROTOCOL');
  });

  it('without admin credentials: ok with the note that the mapping was not read; warn when the user claims are absent', async () => {
    const s = await server();
    const plain = await doctor(s);
    expect(plain.claims.status).toBe('ok');
    expect(plain.claims.message).toContain('the mapping was not read (no admin credentials)');
    expect(plain.claims.details).toMatchObject({
      mapping_read: false,
      claims_present: ['sub', 'preferred_username'],
      claims_absent: ['email'],
    });
    expect(s.requests.some((r) => r.path.includes('/mappings/'))).toBe(false);

    s.brokerClaims = { preferred_username: null };
    const bare = await doctor(s);
    expect(bare.claims.status).toBe('warn');
    expect(bare.claims.message).toContain('lacks preferred_username, email');
    expect(bare.result.code).toBe(0);
  });

  it('a broker token over 8 KiB in the Authorization header: fail with its size', async () => {
    const s = await server({
      brokerClaims: { groups: Array.from({ length: 500 }, (_, i) => `/projects/tenant-${i}/members`) },
    });
    const { result, claims } = await doctor(s, s.adminEnv());
    expect(result.code).toBe(1);
    expect(claims.status).toBe('fail');
    const bytes = claims.details?.authorization_bytes as number;
    expect(bytes).toBeGreaterThan(8192);
    expect(claims.message).toContain(`${bytes} bytes, over 8192 (8 KiB)`);
    expect(claims.details?.largest_claims[0].name).toBe('groups');
    // The mapping itself still matches: the size is the one failure.
    expect(claims.details?.rules[0].matches).toBe(true);
    expectNoSecrets(result, s);
  });

  it("the subject token's audience: the realm's own token without the client in aud warns naming the client", async () => {
    const s = await server({
      subjectToken: (origin) =>
        fakeJwt({
          iss: `${origin}/realms/cloud`,
          aud: 'account',
          azp: 'portal',
          sub: 'u1',
          exp: Math.floor(Date.now() / 1000) + 600,
        }),
    });
    const { result, claims } = await doctor(s);
    expect(claims.status).toBe('warn');
    expect(claims.message).toContain('does not include the exchanging client "cloudgate"');
    expect(claims.advice).toContain('Audience mapper');
    expect(claims.advice).toContain('"portal"');
    expect(claims.details?.subject_audience).toEqual({
      client: 'cloudgate',
      aud: ['account'],
      azp: 'portal',
      internal: true,
    });
    expectNoSecrets(result, s);
  });

  it("a refused exchange names the subject token's audience only when the broker says the audience is why", async () => {
    const s = await server({ fail: { exchange: 'not-in-audience' } });
    const { result, checks, claims } = await doctor(s);
    expect(result.code).toBe(1);
    const exchange = checks['signin.exchange']!;
    expect(exchange.status).toBe('fail');
    expect(exchange.message).toContain('does not include the exchanging client "cloudgate"');
    expect(exchange.advice).toContain('Audience mapper');
    expect(exchange.details?.subject_audience).toEqual({ client: 'cloudgate', aud: ['broker'], azp: 'machine' });
    expect(claims.status).toBe('skip');
    expect(claims.message).toBe('Not run: signin.exchange failed.');
    expectNoSecrets(result, s);

    // The same subject token refused for another reason: its audience is not blamed.
    const other = await server({ fail: { exchange: 'invalid-token' } });
    const refused = (await doctor(other)).checks['signin.exchange']!;
    expect(refused.status).toBe('fail');
    expect(`${refused.message} ${refused.advice}`).not.toMatch(/audience/i);
    expect(refused.details?.subject_audience).toBeUndefined();
  });
});
