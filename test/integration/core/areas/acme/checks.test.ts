import { createSocket } from 'node:dgram';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/acme/checks.js';
import type { DoctorInput } from '../../../../../src/core/doctor/input.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import { createTestCA, type TestCA } from '../../../../helpers/pki.js';
import { startLocalAcme, type AcmeServer } from '../../../../servers/acme.js';
import { flagFields } from '../../../../helpers/doctor-options.js';

let ca: TestCA;
let acme: AcmeServer;
beforeAll(async () => {
  ca = createTestCA('acme checks CA');
  acme = await startLocalAcme(ca);
});
afterAll(() => acme.stop());

async function run(inventory: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-acme-'));
  const inventoryPath = join(dir, 'certificates.yml');
  writeFileSync(inventoryPath, inventory);
  const input: DoctorInput = {
    ...flagFields(),
    env: {},
    cwd: dir,
    config: {},
    inventoryPath,
    inventoryExplicit: true,
    network: {
      timeoutMs: 2000,
      insecure: false,
      allowHttp: false,
      verbose: false,
      log: () => undefined,
      caFile: ca.file,
    },
  };
  const report = await runChecks(await provideChecks(input), { network: input.network });
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
}

describe('acme group from the inventory', () => {
  it('checks cluster_issuer_acme_server and the rfc2136 name server', async () => {
    const dns = createSocket('udp4');
    dns.on('message', (query, peer) => {
      const reply = Buffer.from(query);
      reply.writeUInt16BE(0x8400, 2); // response, authoritative, NOERROR
      reply.writeUInt16BE(1, 6);
      dns.send(reply, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
    const r = await run(
      [
        'cluster_issuer_type: acme',
        'cluster_issuer_acme_email: ops@example.com',
        `cluster_issuer_acme_server: ${acme.url}`,
        'cluster_issuer_acme_private_ca: true',
        'cluster_issuer_acme_solver: rfc2136',
        `cluster_issuer_acme_rfc2136_nameserver: 127.0.0.1:${dns.address().port}`,
        'openstack_helm_ingress_wildcard_domain: example.test',
      ].join('\n'),
    );
    dns.close();
    expect(r['acme.directory']).toMatchObject({ status: 'ok' });
    expect(r['acme.rfc2136']).toMatchObject({ status: 'ok' });
    expect(r['acme.rfc2136']!.message).toMatch(/authoritative for example.test/);
  });

  it('fails a name server without a port, and skips what does not apply', async () => {
    const r = await run(
      'cluster_issuer_type: acme\ncluster_issuer_acme_server: ' +
        acme.url +
        '\ncluster_issuer_acme_solver: rfc2136\ncluster_issuer_acme_rfc2136_nameserver: ns1.example.test\n',
    );
    expect(r['acme.rfc2136']).toMatchObject({ status: 'fail' });
    expect(r['acme.rfc2136']!.advice).toMatch(/:53/);
    const ca = await run('cluster_issuer_type: ca\n');
    expect(ca['acme.directory']).toMatchObject({ status: 'skip', message: 'cluster_issuer_type is ca, not acme.' });
    const http01 = await run(`cluster_issuer_type: acme\ncluster_issuer_acme_server: ${acme.url}\n`);
    expect(http01['acme.rfc2136']).toMatchObject({ status: 'skip' });
  });
});
