import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDirectory, type DirectoryTarget } from '../../../../../src/core/areas/acme/directory.js';
import { createHttpClient } from '../../../../../src/core/net/http.js';
import { trustStore } from '../../../../../src/core/net/trust.js';
import { createTestCA, type TestCA } from '../../../../helpers/pki.js';
import {
  requirePebble,
  startLocalAcme,
  startPebble,
  type AcmeServer,
  type LocalAcmeOptions,
} from '../../../../servers/acme.js';

let ca: TestCA;
const servers: AcmeServer[] = [];
beforeAll(() => {
  ca = createTestCA('acme test CA');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const target = (url: string, over: Partial<DirectoryTarget> = {}): DirectoryTarget => ({
  url,
  configured: true,
  privateCa: true,
  caFileGiven: true,
  ...over,
});

async function local(options: LocalAcmeOptions = {}) {
  const server = await startLocalAcme(ca, options);
  servers.push(server);
  return server;
}

describe('acme.directory', () => {
  // Debian's pebble is in .ci/run's APT_PACKAGES: CI always runs this; elsewhere it needs `apt-get install pebble`.
  it.skipIf(!requirePebble())('accepts the directory of a real ACME server (pebble)', async () => {
    const pebble = await startPebble(ca);
    servers.push(pebble);
    const result = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(pebble.url),
    );
    expect(result.status).toBe('ok');
    expect(result.message).toContain('Replay-Nonce issued');
  });

  it('accepts a complete local directory', async () => {
    const server = await local();
    const result = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(server.url),
    );
    expect(result).toMatchObject({ status: 'ok' });
    expect(result.facts?.newOrder).toMatch(/\/order$/);
  });

  it('fails without --ca-file for a private CA, naming the flag and cluster_issuer_acme_private_ca', async () => {
    const server = await local();
    const result = await checkDirectory(
      createHttpClient({ timeoutMs: 5000 }),
      target(server.url, { caFileGiven: false, privateCa: false }),
    );
    expect(result.status).toBe('fail');
    expect(result.advice).toMatch(/--ca-file/);
    expect(result.advice).toMatch(/cluster_issuer_acme_private_ca: true/);
  });

  it('fails a directory without newOrder, saying cert-manager rejects it', async () => {
    const server = await local({ omit: ['newOrder'] });
    const result = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(server.url),
    );
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/lacks newOrder \(cert-manager rejects/);
  });

  it('fails when newNonce gives no Replay-Nonce', async () => {
    const server = await local({ noNonce: true });
    const result = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(server.url),
    );
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/no Replay-Nonce/);
  });

  it('fails an HTML page and a non-200 answer, naming cluster_issuer_acme_server', async () => {
    const html = await local({ html: true });
    const r1 = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(html.url),
    );
    expect(r1.status).toBe('fail');
    expect(r1.advice).toMatch(/cluster_issuer_acme_server/);
    const missing = await local({ status: 404 });
    const r2 = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(missing.url),
    );
    expect(r2.status).toBe('fail');
    expect(r2.message).toMatch(/answered 404/);
  });

  it('warns when the server requires external account binding or lacks keyChange', async () => {
    const server = await local({ externalAccountRequired: true, omit: ['keyChange'] });
    const result = await checkDirectory(
      createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file) }),
      target(server.url),
    );
    expect(result.status).toBe('warn');
    expect(result.message).toMatch(/keyChange/);
    expect(result.message).toMatch(/external account binding/);
  });
});
