import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/discovery/checks.js';
import { createSigningKey, serviceAccountClaims, signJwt } from '../../../../servers/jwt.js';
import { startOidcIssuer, type OidcIssuer, type OidcIssuerOptions } from '../../../../servers/oidc-issuer.js';
import { doctorInput, run, writeTemp } from '../../../../helpers/doctor-run.js';

const issuers: OidcIssuer[] = [];
afterEach(async () => {
  await Promise.all(issuers.splice(0).map((i) => i.stop()));
});

async function issuer(options: OidcIssuerOptions = {}) {
  const i = await startOidcIssuer(options);
  issuers.push(i);
  return i;
}

async function check(i: OidcIssuer, extra: Record<string, string> = {}, caFile: string | undefined = i.caFile) {
  return run(provideChecks, doctorInput({ 'issuer-url': i.url, ...extra }, { caFile }));
}

describe('doctor --only discovery', () => {
  it('passes a correctly published issuer, without sending credentials, and reports the private CA thumbprint', async () => {
    const i = await issuer();
    const r = await check(i);
    expect(r['discovery.document'].status).toBe('ok');
    expect(r['discovery.issuer'].status).toBe('ok');
    expect(r['discovery.jwks-uri'].status).toBe('ok');
    expect(r['discovery.jwks'].status).toBe('ok');
    expect(r['discovery.jwks'].message).toContain(i.keys[0].kid);
    // Trusted only thanks to --ca-file: a private CA, whose thumbprint the provider registration needs.
    expect(r['discovery.tls'].status).toBe('warn');
    const thumbprint = new (await import('node:crypto')).X509Certificate(i.ca.cert).fingerprint
      .replaceAll(':', '')
      .toLowerCase();
    expect(r['discovery.tls'].message).toContain(thumbprint);
    expect(r['discovery.tls'].advice).toMatch(/private CA/);
    expect(r['discovery.token'].status).toBe('skip');
    expect(i.requests.length).toBeGreaterThanOrEqual(2);
    expect(i.requests.every((q) => q.authorization === undefined)).toBe(true);
  });

  it('skips everything without an issuer URL, but warns when the inventory selects kubernetes', async () => {
    const plain = await run(provideChecks, doctorInput({}));
    expect(Object.values(plain).every((c) => c.status === 'skip')).toBe(true);
    expect(plain['discovery.document'].reason).toMatchObject({
      code: 'not-configured',
      text: expect.stringContaining('--issuer-url'),
    });
    const inventory = writeTemp(
      'certificates.yml',
      'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\n',
    );
    const selected = await run(provideChecks, doctorInput({}, { inventory }));
    expect(selected['discovery.document'].status).toBe('warn');
    expect(selected['discovery.document'].message).toContain('kubernetes');
    // An inventory folder: group_vars/**/*.yml, read as the rest of cloudgate reads it.
    const folder = mkdtempSync(join(tmpdir(), 'cg-inventory-'));
    mkdirSync(join(folder, 'group_vars', 'all'), { recursive: true });
    writeFileSync(
      join(folder, 'group_vars', 'all', 'certificates.yml'),
      'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\n',
    );
    expect((await run(provideChecks, doctorInput({}, { inventory: folder })))['discovery.document'].status).toBe(
      'warn',
    );
    await expect(run(provideChecks, doctorInput({}, { inventory: join(folder, 'missing.yml') }))).rejects.toThrow(
      /Cannot read the inventory/,
    );
  });

  it('reads the issuer URL from CLOUDGATE_ISSUER_URL and from the discovery: section of --config', async () => {
    const i = await issuer();
    const fromEnv = await run(
      provideChecks,
      doctorInput({}, { env: { CLOUDGATE_ISSUER_URL: i.url }, caFile: i.caFile }),
    );
    expect(fromEnv['discovery.issuer'].status).toBe('ok');
    const fromConfig = await run(
      provideChecks,
      doctorInput({}, { config: { discovery: { issuer_url: i.url } }, caFile: i.caFile }),
    );
    expect(fromConfig['discovery.issuer'].status).toBe('ok');
  });

  it('calls out a trailing slash in the published issuer', async () => {
    const i = await issuer({ issuer: (url) => `${url}/` });
    const r = await check(i);
    expect(r['discovery.issuer'].status).toBe('fail');
    expect(r['discovery.issuer'].message).toContain('trailing slash');
    expect(r['discovery.issuer'].advice).toContain(`--service-account-issuer=${i.url}`);
  });

  it('names scheme, port and case differences of the issuer', async () => {
    const i = await issuer({ issuer: (url) => url.replace('/cluster1', '/Cluster1').replace(/:(\d+)/, ':8443') });
    const r = await check(i);
    expect(r['discovery.issuer'].status).toBe('fail');
    expect(r['discovery.issuer'].message).toMatch(/port 8443/);
    expect(r['discovery.issuer'].message).toMatch(/letter case/);
  });

  it('says --service-account-jwks-uri is probably unset when jwks_uri is internal, and still checks the public key set', async () => {
    const i = await issuer({ jwksUri: () => 'https://10.96.0.1:443/openid/v1/jwks' });
    const r = await check(i);
    expect(r['discovery.jwks-uri'].status).toBe('fail');
    expect(r['discovery.jwks-uri'].message).toContain('--service-account-jwks-uri is probably unset');
    expect(r['discovery.jwks-uri'].advice).toContain(`--service-account-jwks-uri=${i.url}/openid/v1/jwks`);
    expect(r['discovery.jwks'].status).toBe('ok');
  });

  it('fails a jwks_uri that points elsewhere', async () => {
    const i = await issuer({ jwksUri: () => 'https://keys.example.invalid/openid/v1/jwks' });
    const r = await check(i);
    expect(r['discovery.jwks-uri'].status).toBe('fail');
    expect(r['discovery.jwks-uri'].message).toContain('not https://127.0.0.1');
  });

  it('fails a key set that is not JSON', async () => {
    const i = await issuer({ jwksBody: 'not json at all' });
    const r = await check(i);
    expect(r['discovery.jwks'].status).toBe('fail');
    expect(r['discovery.jwks'].message).toMatch(/not JSON/);
  });

  it('warns about the wrong content type of the key set', async () => {
    const i = await issuer({ jwksContentType: 'text/plain' });
    const r = await check(i);
    expect(r['discovery.jwks'].status).toBe('warn');
    expect(r['discovery.jwks'].message).toContain('"text/plain"');
  });

  it('fails a key set without a usable signing key', async () => {
    const i = await issuer({ jwksBody: JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }] }) });
    const r = await check(i);
    expect(r['discovery.jwks'].status).toBe('fail');
    expect(r['discovery.jwks'].message).toContain('lacks kid, alg');
  });

  it('fails a key set that publishes private key material, naming the members but never their values', async () => {
    const signing = createSigningKey('RS256');
    const full: Record<string, unknown> = {
      ...signing.privateKey.export({ format: 'jwk' }),
      kid: signing.kid,
      alg: 'RS256',
      use: 'sig',
    };
    const i = await issuer({ keys: [signing], jwksBody: JSON.stringify({ keys: [full] }) });
    const r = await check(i);
    expect(r['discovery.jwks'].status).toBe('fail');
    expect(r['discovery.jwks'].message).toContain(`key 1 (${signing.kid}): d, p, q, dp, dq, qi`);
    expect(JSON.stringify(r['discovery.jwks'])).not.toContain(String(full.d));
    const symmetric = await issuer({
      jwksBody: JSON.stringify({
        keys: [{ kty: 'oct', k: 'c2VjcmV0LXNlY3JldA', kid: 'hmac', alg: 'HS256', use: 'sig' }],
      }),
    });
    expect((await check(symmetric))['discovery.jwks'].status).toBe('fail');
  });

  it.each([401, 403])('gives the RBAC advice for %i', async (status) => {
    const i = await issuer({ status });
    const r = await check(i);
    expect(r['discovery.document'].status).toBe('fail');
    expect(r['discovery.document'].message).toContain(`answered ${status}`);
    expect(r['discovery.document'].advice).toContain('system:service-account-issuer-discovery');
    expect(r['discovery.document'].advice).toContain('system:unauthenticated');
    expect(r['discovery.issuer'].status).toBe('skip');
  });

  it('fails a plain http issuer', async () => {
    const i = await issuer({ http: true });
    const r = await check(i, {}, undefined);
    expect(r['discovery.document'].status).toBe('fail');
    expect(r['discovery.document'].message).toContain('not https://');
    expect(r['discovery.tls'].status).toBe('skip');
  });

  it('fails an untrusted certificate, naming the CA advice and the thumbprint', async () => {
    const i = await issuer({ untrusted: true });
    const r = await check(i);
    expect(r['discovery.document'].status).toBe('fail');
    expect(r['discovery.document'].message).toMatch(/unknown certificate authority/);
    expect(r['discovery.tls'].status).toBe('fail');
    expect(r['discovery.tls'].message).toMatch(/not trusted/);
    expect(r['discovery.tls'].message).toMatch(/thumbprint [0-9a-f]{40}/);
  });
});

describe('discovery.token (--token-file)', () => {
  const sts = 'sts.amazonaws.com';
  const inCluster = 'https://kubernetes.default.svc.cluster.local';

  async function tokenCheck(i: OidcIssuer, token: string) {
    const file = writeTemp('token', token);
    const r = await check(i, { 'token-file': file });
    return r['discovery.token'];
  }

  const claims = (i: OidcIssuer, over: Record<string, unknown> = {}) => ({
    ...serviceAccountClaims({
      issuer: i.url,
      audiences: [inCluster, i.url, sts],
      namespace: 'cert-manager',
      serviceAccount: 'cert-manager-route53',
    }),
    ...over,
  });

  it('accepts a token signed with the published key, right issuer and audiences', async () => {
    const i = await issuer();
    const result = await tokenCheck(i, signJwt(claims(i), i.keys[0]));
    expect(result.status).toBe('ok');
    expect(result.message).toContain(i.keys[0].kid);
  });

  it('refuses a token signed with an unpublished key, and one whose signature was made by another key under the same kid', async () => {
    const i = await issuer();
    const stranger = createSigningKey('RS256');
    const unknownKid = await tokenCheck(i, signJwt(claims(i), stranger));
    expect(unknownKid.status).toBe('fail');
    expect(unknownKid.message).toContain('not in the published key set');
    const forged = await tokenCheck(i, signJwt(claims(i), { ...stranger, kid: i.keys[0].kid }));
    expect(forged.status).toBe('fail');
    expect(forged.message).toContain('signature does not verify');
  });

  it('refuses a wrong issuer and missing audiences, naming the API server flags', async () => {
    const i = await issuer();
    const wrong = await tokenCheck(i, signJwt(claims(i, { iss: inCluster, aud: [inCluster] }), i.keys[0]));
    expect(wrong.status).toBe('fail');
    expect(wrong.message).toContain(`iss "${inCluster}"`);
    expect(wrong.message).toContain(sts);
    expect(wrong.advice).toContain('--api-audiences');
  });

  it('warns when only the in-cluster audience is missing, and never prints the token', async () => {
    const i = await issuer();
    const token = signJwt(claims(i, { aud: [i.url, sts] }), i.keys[0]);
    const result = await tokenCheck(i, token);
    expect(result.status).toBe('warn');
    expect(JSON.stringify(result)).not.toContain(token.split('.')[2]);
  });

  it('verifies ES256 tokens too', async () => {
    const key = createSigningKey('ES256');
    const i = await issuer({ keys: [key] });
    expect((await tokenCheck(i, signJwt(claims(i), key))).status).toBe('ok');
  });
});
