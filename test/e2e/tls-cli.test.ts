import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createPki, startTlsEndpoint, type Pki, type RunningEndpoint } from '../servers/tls-endpoints.js';

let pki: Pki;
let good: RunningEndpoint;
let expired: RunningEndpoint;
let hanging: RunningEndpoint;
const dir = mkdtempSync(join(tmpdir(), 'cloudgate-tls-e2e-'));

beforeAll(async () => {
  pki = createPki();
  const leaf = pki.leaf(['localhost']);
  good = await startTlsEndpoint({ chain: [leaf.cert, pki.intermediate.cert], key: leaf.key });
  const old = pki.leaf(['localhost'], {
    notBefore: new Date(Date.now() - 9e9),
    notAfter: new Date(Date.now() - 86_400_000),
  });
  expired = await startTlsEndpoint({ chain: [old.cert, pki.intermediate.cert], key: old.key });
  hanging = await startTlsEndpoint({ chain: [], key: '', hang: true });
});
afterAll(async () => {
  await Promise.all([good, expired, hanging].map((e) => e?.stop()));
});

describe('cloudgate doctor --only tls', () => {
  it('checks each --endpoint and exits 0 when all pass', async () => {
    const r = await runCli([
      'doctor',
      '--only',
      'tls',
      '--endpoint',
      `localhost:${good.port}`,
      '--ca-file',
      pki.rootFile,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const check = report.checks.find((c: { id: string }) => c.id === `tls.localhost:${good.port}`);
    expect(check).toMatchObject({ group: 'tls', status: 'ok' });
    expect(check.details.trustStore).toContain(pki.rootFile);
    expect(report.checks.find((c: { id: string }) => c.id === 'tls.catalog').status).toBe('skip');
  });

  it('exits 1 for an expired certificate and a server that never answers, each costing one timeout', async () => {
    const config = join(dir, 'doctor.yml');
    writeFileSync(config, `tls:\n  endpoints:\n    - localhost:${hanging.port}\n`);
    const r = await runCli([
      'doctor',
      '--only',
      'tls',
      '--endpoint',
      `localhost:${expired.port}`,
      '--config',
      config,
      '--ca-file',
      pki.rootFile,
      '--timeout',
      '1',
      '--json',
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const byId = Object.fromEntries(report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId[`tls.localhost:${expired.port}`]).toMatchObject({ status: 'fail' });
    expect(byId[`tls.localhost:${expired.port}`].message).toMatch(/expired on/);
    expect(byId[`tls.localhost:${hanging.port}`]).toMatchObject({ status: 'fail' });
    expect(byId[`tls.localhost:${hanging.port}`].message).toMatch(/did not complete the TLS handshake within 1 s/);
    expect(byId[`tls.localhost:${hanging.port}`].details.source).toContain('doctor.yml');
  });

  it('prints a text report naming the problem and its fix', async () => {
    const r = await runCli([
      'doctor',
      '--only',
      'tls',
      '--endpoint',
      `localhost:${expired.port}`,
      '--ca-file',
      pki.rootFile,
      '--verbose',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/expired on/);
    expect(r.stdout).toMatch(/renew/);
  });

  it('exits 2 on a malformed --endpoint, naming it', async () => {
    const r = await runCli(['doctor', '--only', 'tls', '--endpoint', 'bad host:x', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--endpoint "bad host:x"');
    expect(r.stdout).toBe('');
  });
});
