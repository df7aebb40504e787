import { beforeAll, describe, expect, it } from 'vitest';
import { examine, type ExamineInput } from '../../../../src/core/tls/examine.js';
import type { CertCheck } from '../../../../src/core/tls/checks.js';
import { chain, DAY, issue, KEY_KINDS, keyPem, type Chain } from '../../../helpers/pki.js';

const DOMAIN = 'cloud.example.test';

function run(input: Partial<ExamineInput> & Pick<ExamineInput, 'certPem'>) {
  return examine({
    certSource: 'wildcard.pem',
    keySource: 'wildcard.key',
    role: 'wildcard',
    domain: DOMAIN,
    now: new Date(),
    fixHint: 'use --fix-order',
    renewAdvice: 'renew it',
    ...input,
  });
}

const byName = (checks: CertCheck[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe.each(KEY_KINDS)('supplied wildcard certificate (%s)', (kind) => {
  let c: Chain;
  let bundle: string;
  beforeAll(async () => {
    c = await chain(kind);
    bundle = c.leaf.cert + c.intermediate.cert + c.root.cert;
  });

  it('passes every check for a good chain and key, and says the bare domain is not covered', () => {
    const result = run({ certPem: bundle, keyPem: c.leaf.key });
    const checks = byName(result.checks);
    expect(result.checks.map((x) => [x.name, x.status])).toEqual([
      ['parse', 'ok'],
      ['key', 'ok'],
      ['chain-order', 'ok'],
      ['key-match', 'ok'],
      ['chain-complete', 'ok'],
      ['wildcard-san', 'ok'],
      ['self-signed', 'ok'],
      ['strength', 'ok'],
      ['validity', 'ok'],
    ]);
    expect(checks['wildcard-san']!.message).toContain(`The bare domain ${DOMAIN} itself is NOT covered`);
    expect(checks['validity']!.facts?.daysLeft).toBeGreaterThan(360);
    expect(result.ordered?.map((x) => x.index)).toEqual([1, 2, 3]);
  });

  it('finds a wrong order, computes the right one, and uses it with fixOrder', () => {
    const shuffled = c.root.cert + c.leaf.cert + c.intermediate.cert;
    const refused = run({ certPem: shuffled, keyPem: c.leaf.key });
    const order = byName(refused.checks)['chain-order']!;
    expect(order.status).toBe('fail');
    expect(order.facts?.fixedOrder).toEqual([2, 3, 1]);
    expect(order.message).toContain('The right order is block 2 (*.cloud.example.test), block 3 (Test Intermediate');
    expect(order.advice).toBe('use --fix-order');
    expect(byName(refused.checks)['key-match']!.message).toMatch(/but to block 2 .* out of order/);

    const fixed = run({ certPem: shuffled, keyPem: c.leaf.key, fixOrder: true });
    expect(fixed.reordered).toBe(true);
    expect(fixed.checks.filter((x) => x.status === 'fail')).toEqual([]);
    expect(fixed.ordered?.map((x) => x.name)).toEqual([
      '*.cloud.example.test',
      `Test Intermediate ${kind}`,
      `Test Root ${kind}`,
    ]);
  });

  it('refuses a key that belongs to another certificate', async () => {
    const other = await issue({ kind, cn: 'other', dns: [`*.${DOMAIN}`], issuer: c.intermediate });
    const check = byName(run({ certPem: bundle, keyPem: other.key }).checks)['key-match']!;
    expect(check.status).toBe('fail');
    expect(check.message).toMatch(/does not belong to any certificate in wildcard\.pem/);
  });

  it('accepts the key in its traditional form', () => {
    const form = kind === 'rsa' ? 'pkcs1' : kind === 'ed25519' ? 'pkcs8' : 'sec1';
    expect(byName(run({ certPem: bundle, keyPem: keyPem(c.leaf, form) }).checks)['key-match']!.status).toBe('ok');
  });

  it('fails an expired or not yet valid certificate and warns within 30 days with the date', async () => {
    const expired = await issue({
      kind,
      keyOf: c.leaf,
      cn: 'old',
      dns: [`*.${DOMAIN}`],
      issuer: c.intermediate,
      notBefore: new Date(Date.now() - 100 * DAY),
      notAfter: new Date(Date.now() - 2 * DAY),
    });
    const future = await issue({
      kind,
      keyOf: c.leaf,
      cn: 'future',
      dns: [`*.${DOMAIN}`],
      issuer: c.intermediate,
      notBefore: new Date(Date.now() + 2 * DAY),
    });
    const soonEnd = new Date(Date.now() + 10 * DAY + 3_600_000);
    const soon = await issue({
      kind,
      keyOf: c.leaf,
      cn: 'soon',
      dns: [`*.${DOMAIN}`],
      issuer: c.intermediate,
      notAfter: soonEnd,
    });

    const e = byName(run({ certPem: expired.cert + c.intermediate.cert }).checks)['validity']!;
    expect(e.status).toBe('fail');
    expect(e.message).toMatch(/block 1 \(old\) expired on \d{4}-\d\d-\d\d \(2 days ago\)/);
    expect(e.advice).toBe('renew it');

    const f = byName(run({ certPem: future.cert + c.intermediate.cert }).checks)['validity']!;
    expect(f.status).toBe('fail');
    expect(f.message).toMatch(/not valid yet/);

    const s = byName(run({ certPem: soon.cert + c.intermediate.cert }).checks)['validity']!;
    expect(s.status).toBe('warn');
    expect(s.message).toBe(`block 1 (soon) expires on ${soonEnd.toISOString().slice(0, 10)}, in 10 days.`);
  });

  it('checks wildcard coverage: non-wildcard, one label only, no SAN', async () => {
    const plain = await issue({
      kind,
      keyOf: c.leaf,
      cn: 'keystone',
      dns: [`keystone.${DOMAIN}`],
      issuer: c.intermediate,
    });
    const deeper = await issue({
      kind,
      keyOf: c.leaf,
      cn: 'deep',
      dns: [`*.api.${DOMAIN}`, DOMAIN],
      issuer: c.intermediate,
    });
    const none = await issue({ kind, keyOf: c.leaf, cn: 'nosan', issuer: c.intermediate });

    expect(byName(run({ certPem: plain.cert }).checks)['wildcard-san']!.status).toBe('fail');
    expect(byName(run({ certPem: plain.cert, domain: undefined }).checks)['wildcard-san']!.status).toBe('warn');
    const d = byName(run({ certPem: deeper.cert }).checks)['wildcard-san']!;
    expect(d.status).toBe('fail');
    expect(d.message).toMatch(
      /\*\.api\.cloud\.example\.test, which covers names one level deeper only \(a wildcard covers one label\)/,
    );
    expect(byName(run({ certPem: none.cert }).checks)['wildcard-san']!.message).toMatch(/no DNS subjectAltName/);
    expect(
      byName(run({ certPem: c.leaf.cert, domain: `*.${DOMAIN.toUpperCase()}.` }).checks)['wildcard-san']!.status,
    ).toBe('ok');
  });

  it('warns about a self-signed leaf', async () => {
    const self = await issue({ kind, cn: 'self', dns: [`*.${DOMAIN}`] });
    const check = byName(run({ certPem: self.cert, keyPem: self.key }).checks)['self-signed']!;
    expect(check.status).toBe('warn');
    expect(byName(run({ certPem: bundle }).checks)['self-signed']!.message).toBe(
      `Issued by Test Intermediate ${kind}.`,
    );
  });

  it('checks a CA issuer: order issuer-first, key, CA flags', async () => {
    const ok = run({
      role: 'ca-issuer',
      certPem: c.intermediate.cert + c.root.cert,
      keyPem: c.intermediate.key,
      certSource: 'cluster_issuer_ca_certificate',
    });
    expect(ok.checks.filter((x) => x.status !== 'ok')).toEqual([]);
    expect(byName(ok.checks)['ca']).toBeDefined();

    const leafAsCa = byName(
      run({ role: 'ca-issuer', certPem: c.leaf.cert + c.intermediate.cert, keyPem: c.leaf.key, certSource: 'v' })
        .checks,
    )['ca']!;
    expect(leafAsCa.status).toBe('fail');
    expect(leafAsCa.message).toMatch(/not a CA certificate/);

    const noSign = await issue({ kind, keyOf: c.intermediate, cn: 'weak CA', ca: true, keyUsage: 64, issuer: c.root });
    expect(byName(run({ role: 'ca-issuer', certPem: noSign.cert + c.root.cert }).checks)['ca']!.message).toMatch(
      /lacks keyCertSign/,
    );

    const reversed = byName(
      run({ role: 'ca-issuer', certPem: c.root.cert + c.intermediate.cert, keyPem: c.intermediate.key }).checks,
    )['chain-order']!;
    expect(reversed.message).toMatch(/not in the order issuer, intermediate\(s\), root/);
  });
});

describe('bundles and mixed chains', () => {
  it('accepts independent CA certificates in a CA bundle', async () => {
    const a = await chain('rsa');
    const b = await chain('p256');
    const result = examine({
      certPem: a.root.cert + b.root.cert,
      certSource: 'cluster_issuer_venafi_tpp_ca_bundle',
      role: 'ca-bundle',
      now: new Date(),
      fixHint: 'x',
      renewAdvice: 'y',
    });
    expect(result.checks.map((x) => [x.name, x.status])).toEqual([
      ['parse', 'ok'],
      ['chain-order', 'ok'],
      ['strength', 'ok'],
      ['validity', 'ok'],
    ]);
  });

  it('reports certificates that belong to no chain, and duplicates', async () => {
    const a = await chain('p256');
    const b = await chain('p384');
    const stray = byName(run({ certPem: a.leaf.cert + a.intermediate.cert + b.root.cert }).checks)['chain-order']!;
    expect(stray.status).toBe('fail');
    expect(stray.message).toMatch(/no single chain links all its certificates/);
    const dup = byName(
      run({ certPem: a.leaf.cert + a.intermediate.cert + a.intermediate.cert, keyPem: a.leaf.key, fixOrder: true })
        .checks,
    )['chain-order']!;
    expect(dup.status).toBe('warn');
    expect(dup.facts?.problems).toEqual(['block 3 (Test Intermediate p256) repeats block 2 (Test Intermediate p256).']);
  });

  it('orders an ECDSA leaf under an RSA CA', async () => {
    const c = await chain('rsa', { kind: 'p256' });
    const result = run({ certPem: c.intermediate.cert + c.leaf.cert, keyPem: c.leaf.key, fixOrder: true });
    expect(result.ordered?.map((x) => x.index)).toEqual([2, 1]);
    expect(byName(result.checks)['key']!.message).toMatch(/ECDSA P-256/);
  });
});
