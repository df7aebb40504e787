/**
 * `cloudgate oidc` through the built binary: what the operator creates for keyless kubernetes credentials, printed,
 * as JSON, or written with --out; the thumbprint read live from a local issuer; bad input exits 2 with
 * nothing written. Run `npm run build` first.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { createSigningKey } from '../servers/jwt.js';
import { startOidcIssuer, type OidcIssuer } from '../servers/oidc-issuer.js';

const ISSUER = 'https://oidc.example.com/cluster1';
const ACCOUNT = '123456789012';
const THUMB = 'AB:CD:' + 'EF:'.repeat(17) + 'EF';
const base = ['oidc', '--issuer-url', ISSUER, '--account', ACCOUNT, '--thumbprint', THUMB];

const temp = () => mkdtempSync(join(tmpdir(), 'cg-oidc-e2e-'));

let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(() => issuer?.stop());

describe('cloudgate oidc', () => {
  it('prints one stable JSON document with the trust policy for the default service account', async () => {
    const first = await runCli([...base, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const doc = JSON.parse(first.stdout);
    expect(doc.schema).toBe('cloudgate.oidc/v1');
    expect(doc.providerArn).toBe(`arn:aws:iam::${ACCOUNT}:oidc-provider/oidc.example.com/cluster1`);
    expect(doc.thumbprint).toEqual({ value: 'abcd' + 'ef'.repeat(18), source: 'flag' });
    const trust = doc.files['trust-policy.json'];
    expect(trust.Statement[0].Principal.Federated).toBe(doc.providerArn);
    expect(trust.Statement[0].Action).toBe('sts:AssumeRoleWithWebIdentity');
    expect(trust.Statement[0].Condition.StringEquals).toEqual({
      'oidc.example.com/cluster1:sub': 'system:serviceaccount:cert-manager:cert-manager-route53',
      'oidc.example.com/cluster1:aud': 'sts.amazonaws.com',
    });
    expect(doc.files['oidc-provider.json']).toEqual({
      Url: ISSUER,
      ClientIDList: ['sts.amazonaws.com'],
      ThumbprintList: ['abcd' + 'ef'.repeat(18)],
    });
    const actions = doc.files['permissions-policy.json'].Statement.flatMap((s: { Action: string | string[] }) =>
      [s.Action].flat(),
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'route53:GetChange',
        'route53:ChangeResourceRecordSets',
        'route53:ListHostedZonesByName',
      ]),
    );
    expect(doc.files['apiserver-flags.txt']).toContain(`--service-account-jwks-uri=${ISSUER}/openid/v1/jwks`);
    expect(doc.files['apiserver-flags.txt']).toMatch(new RegExp(`--api-audiences=.*,${ISSUER},sts\\.amazonaws\\.com`));
    const again = await runCli([...base, '--json']);
    expect(again.stdout).toBe(first.stdout);
  });

  it('takes account, partition, role and the custom service account from the inventory', async () => {
    const dir = temp();
    const inventory = join(dir, 'certificates.yml');
    writeFileSync(
      inventory,
      'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\n' +
        'cluster_issuer_acme_route53_role_arn: arn:aws-us-gov:iam::210987654321:role/dns01\n' +
        'cluster_issuer_acme_route53_service_account_name: my-dns\n',
    );
    const r = await runCli([
      'oidc',
      '--issuer-url',
      ISSUER,
      '--inventory',
      inventory,
      '--thumbprint',
      THUMB,
      '--json',
      '--audience',
      'sts.example',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.roleArn).toBe('arn:aws-us-gov:iam::210987654321:role/dns01');
    expect(doc.serviceAccount.subject).toBe('system:serviceaccount:cert-manager:my-dns');
    expect(doc.files['trust-policy.json'].Statement[0].Condition.StringEquals['oidc.example.com/cluster1:aud']).toBe(
      'sts.example',
    );
    expect(doc.files['permissions-policy.json'].Statement[0].Resource).toBe('arn:aws-us-gov:route53:::change/*');
  });

  it('writes every file with --out, the key set included, and lists them on stdout', async () => {
    const dir = temp();
    const key = createSigningKey('ES256');
    const jwks = join(dir, 'jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [key.jwk] }));
    const out = join(dir, 'out');
    const r = await runCli([...base, '--out', out, '--jwks-file', jwks]);
    expect(r.code).toBe(0);
    const files = [
      'discovery/.well-known/openid-configuration',
      'discovery/openid/v1/jwks',
      'apiserver-flags.txt',
      'oidc-provider.json',
      'trust-policy.json',
      'permissions-policy.json',
      'discovery-rbac.yaml',
    ];
    expect(r.stdout.trim().split('\n')).toEqual(files.map((f) => join(out, f)));
    const discovery = JSON.parse(readFileSync(join(out, files[0]), 'utf8'));
    expect(discovery).toEqual({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    expect(JSON.parse(readFileSync(join(out, files[1]), 'utf8')).keys[0].kid).toBe(key.kid);
    const rbac = parse(readFileSync(join(out, 'discovery-rbac.yaml'), 'utf8'));
    expect(rbac).toMatchObject({
      kind: 'ClusterRoleBinding',
      roleRef: { name: 'system:service-account-issuer-discovery' },
      subjects: [{ kind: 'Group', name: 'system:unauthenticated' }],
    });
    expect(readdirSync(out).some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('reads the thumbprint of the top certificate the issuer host serves', async () => {
    const r = await runCli([
      'oidc',
      '--issuer-url',
      issuer.url,
      '--account',
      ACCOUNT,
      '--ca-file',
      issuer.caFile,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const expected = new X509Certificate(issuer.ca.cert).fingerprint.replaceAll(':', '').toLowerCase();
    expect(doc.thumbprint).toMatchObject({ value: expected, source: 'live' });
    expect(doc.files['oidc-provider.json'].ThumbprintList).toEqual([expected]);
    expect(doc.notes.join(' ')).toContain('port');
  });

  it('prints the steps for a human, and notes the missing thumbprint when the host cannot be reached', async () => {
    const r = await runCli(['oidc', '--issuer-url', 'https://127.0.0.1:9/c1', '--account', ACCOUNT, '--timeout', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Step 5');
    expect([...r.stdout.matchAll(/^Step (\d)/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.stdout).toContain('system:serviceaccount:cert-manager:cert-manager-route53');
    expect(r.stdout).toContain('No thumbprint');
  });

  it.each([
    [['oidc', '--account', ACCOUNT], 'No issuer URL'],
    [['oidc', '--issuer-url', 'http://oidc.example.com', '--account', ACCOUNT], 'https://'],
    [['oidc', '--issuer-url', `${ISSUER}/`, '--account', ACCOUNT], 'trailing slash'],
    [['oidc', '--issuer-url', ISSUER], 'No account id'],
    [['oidc', '--issuer-url', ISSUER, '--account', '12'], '12-digit'],
    [['oidc', '--issuer-url', ISSUER, '--account', ACCOUNT, '--thumbprint', 'xyz'], 'not a SHA-1 thumbprint'],
  ])('exits 2 and writes nothing for %j', async (args, message) => {
    const out = join(temp(), 'out');
    const r = await runCli([...args, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a key set file holding private key material', async () => {
    const dir = temp();
    const key = createSigningKey('RS256');
    const jwks = join(dir, 'jwks.json');
    writeFileSync(
      jwks,
      JSON.stringify({
        keys: [{ ...key.privateKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' }],
      }),
    );
    const r = await runCli([...base, '--jwks-file', jwks, '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PRIVATE');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
