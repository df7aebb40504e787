import { describe, expect, it } from 'vitest';
import { checkEndpoint, provideChecks } from '../../../../../src/core/areas/tls/checks.js';
import { openServices } from '../../../../../src/core/doctor/services.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import type { ServedExpectations } from '../../../../../src/core/config/expectations.js';
import type { NetworkSettings } from '../../../../../src/core/config/network.js';
import { issue, type EndpointSpec } from '../../../../servers/tls-endpoints.js';
import { useTlsEndpoints } from '../../../../helpers/tls-endpoints.js';
import { flagFields } from '../../../../helpers/doctor-options.js';

const DAY = 86_400_000;
const tls = useTlsEndpoints();

const network = (over: Partial<NetworkSettings> = {}): NetworkSettings => ({
  timeoutMs: 3000,
  insecure: false,
  allowHttp: false,
  verbose: false,
  log: () => undefined,
  caFile: tls.pki.rootFile,
  ...over,
});

async function check(
  spec: EndpointSpec,
  expected: ServedExpectations = {},
  host = 'localhost',
  over: Partial<NetworkSettings> = {},
) {
  const e = await tls.start(spec);
  return checkEndpoint(
    { host, port: e.port, source: 'flag', origin: '--endpoint', address: '127.0.0.1' },
    expected,
    openServices(network(over)),
  );
}

describe('tls.<host> checks against real TLS servers', () => {
  it('passes a valid, trusted, in-order chain and says which CA file trusted it', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const result = await check({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key }, { issuerType: 'ca' });
    expect(result.status).toBe('ok');
    expect(result.message).toContain(tls.pki.rootFile);
    expect(result.message).toMatch(/expires in (89|90) days/);
    expect(result.facts?.chainOrder).toBe('in order');
  });

  it('fails an expired certificate and warns one expiring within 30 days', async () => {
    const expired = tls.pki.leaf(['localhost'], {
      notBefore: new Date(Date.now() - 100 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const r1 = await check({ chain: [expired.cert, tls.pki.intermediate.cert], key: expired.key });
    expect(r1.status).toBe('fail');
    expect(r1.message).toMatch(/expired on/);
    const soon = tls.pki.leaf(['localhost'], { notAfter: new Date(Date.now() + 10 * DAY) });
    const r2 = await check(
      { chain: [soon.cert, tls.pki.intermediate.cert], key: soon.key },
      { issuerType: 'none', suppliedSecret: 'my-wildcard' },
    );
    expect(r2.status).toBe('warn');
    expect(r2.message).toMatch(/expires in (9|10) days/);
    expect(r2.advice).toMatch(/never renews a supplied wildcard.*my-wildcard/);
  });

  it('fails a certificate for another host', async () => {
    const leaf = tls.pki.leaf(['api.example.test']);
    const result = await check({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/does not cover localhost: it names api.example.test/);
  });

  it('warns a chain served out of order, listing the served order', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const result = await check({ chain: [leaf.cert, tls.pki.root.cert, tls.pki.intermediate.cert], key: leaf.key });
    expect(result.status).toBe('warn');
    expect(result.message).toMatch(
      /out of order: localhost → cloudgate tls test root → cloudgate tls test intermediate/,
    );
  });

  it('fails a chain missing its intermediate, naming the missing issuer', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const result = await check({ chain: [leaf.cert], key: leaf.key });
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(
      /ends at "localhost", whose issuer "cloudgate tls test intermediate" is neither served nor trusted/,
    );
  });

  it('fails a self-signed certificate where ACME is configured, and only warns with issuer self-signed', async () => {
    const self = issue({ cn: 'localhost', dns: ['localhost'] });
    const acme = await check({ chain: [self.cert], key: self.key }, { issuerType: 'acme' });
    expect(acme.status).toBe('fail');
    expect(acme.message).toMatch(/self-signed/);
    expect(acme.advice).toMatch(/cloudgate regenerate/);
    const selfSigned = await check({ chain: [self.cert], key: self.key }, { issuerType: 'self-signed' });
    expect(selfSigned.status).toBe('warn');
  });

  it('warns a private CA where a public ACME CA is configured', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const result = await check(
      { chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key },
      { issuerType: 'acme' },
    );
    expect(result.status).toBe('warn');
    expect(result.message).toMatch(/private CA.*public ACME CA/);
  });

  it('fails an ACME staging issuer', async () => {
    const stagingCa = issue({ cn: '(STAGING) Pretend Pear X1', ca: true });
    const leaf = issue({ cn: 'localhost', dns: ['localhost'], issuer: stagingCa });
    const result = await check({ chain: [leaf.cert], key: leaf.key }, { issuerType: 'acme' }, 'localhost', {
      caFile: undefined,
    });
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/ACME staging issuer/);
  });

  it("fails the ingress controller's fake certificate", async () => {
    const fake = issue({ cn: 'Kubernetes Ingress Controller Fake Certificate', dns: ['ingress.local'] });
    const result = await check({ chain: [fake.cert], key: fake.key }, { issuerType: 'acme' });
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/Fake Certificate/);
  });

  it('warns an individual certificate where a wildcard is configured, and a wildcard where individual ones are', async () => {
    const individual = tls.pki.leaf(['api.test.localhost']);
    const r1 = await check(
      { chain: [individual.cert, tls.pki.intermediate.cert], key: individual.key },
      { issuerType: 'ca', wildcardDomain: 'test.localhost' },
      'api.test.localhost',
    );
    expect(r1.status).toBe('warn');
    expect(r1.message).toMatch(/individual certificate.*wildcard \(\*\.test\.localhost\)/);
    const wildcard = tls.pki.leaf(['*.test.localhost']);
    const r2 = await check(
      { chain: [wildcard.cert, tls.pki.intermediate.cert], key: wildcard.key },
      { issuerType: 'ca' },
      'api.test.localhost',
    );
    expect(r2.status).toBe('warn');
    expect(r2.message).toMatch(/serves a wildcard certificate/);
    const r3 = await check(
      { chain: [wildcard.cert, tls.pki.intermediate.cert], key: wildcard.key },
      { issuerType: 'ca', wildcardDomain: 'test.localhost' },
      'api.test.localhost',
    );
    expect(r3.status).toBe('ok');
  });

  it('fails with one timeout when the server never completes the handshake', async () => {
    const result = await check({ chain: [], key: '', hang: true }, {}, '127.0.0.1', { timeoutMs: 300 });
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/did not complete the TLS handshake within 0.3 s/);
    // The step that stalled decides the advice: the port's TLS, not a firewall that drops.
    expect(result.advice).toMatch(/serves TLS/);
  });
});

describe('tls checks of many endpoints in one run', () => {
  it('probes more endpoints at once than Node warns about by default (10 listeners), without a warning', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const servers = await Promise.all(
      Array.from({ length: 12 }, () => tls.start({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key })),
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const input = {
        ...flagFields({ endpoint: servers.map((s) => `localhost:${s.port}`) }),
        env: {},
        cwd: '/',
        config: {},
        inventoryPath: '/nonexistent/certificates.yml',
        inventoryExplicit: false,
        network: network(),
      };
      const report = await runChecks(await provideChecks(input), { network: input.network });
      expect(report.checks.filter((c) => c.id.startsWith('tls.localhost:')).map((c) => c.status)).toEqual(
        Array(12).fill('ok'),
      );
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
