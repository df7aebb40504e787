/** --probe-update for rfc2136: TSIG-signed DNS UPDATEs to Debian's real named, checked with dig. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUpdate } from '../../../../../../src/core/areas/acme/dns-credentials/dns-update.js';
import { hasNamed, requireNamed, startUpdatableNamed, type UpdatableNamed } from '../../../../../servers/dns-apis.js';
import { dnsCheck } from '../../../../../helpers/run-check.js';

let named: UpdatableNamed;
beforeAll(async () => {
  if (hasNamed) named = await startUpdatableNamed();
}, 30_000);
afterAll(() => named?.stop());

const inventory = (overrides: Record<string, string> = {}) => ({
  cluster_issuer_acme_solver: 'rfc2136',
  cluster_issuer_acme_rfc2136_nameserver: `127.0.0.1:${named.port}`,
  cluster_issuer_acme_rfc2136_tsig_algorithm: named.key.algorithm,
  cluster_issuer_acme_rfc2136_tsig_key_name: named.key.name,
  cluster_issuer_acme_rfc2136_tsig_secret_key: named.key.secret,
  openstack_helm_ingress_wildcard_domain: 'cloud.example.test',
  ...overrides,
});
const run = (inv: Record<string, string>, flags: Record<string, boolean> = { 'probe-update': true }) =>
  dnsCheck(inv, { flags, caFile: '', secrets: [named.key.secret] });

/** The changes named committed to the zone since `from` (read from its journal with named-journalprint). */
const changes = (from: number) =>
  named
    .journal()
    .slice(from)
    .map((line) =>
      line
        .split(/\s+/)
        .filter((_, i) => i !== 2)
        .join(' '),
    );

describe.skipIf(!requireNamed())('rfc2136 --probe-update against named', () => {
  it('adds and removes _cloudgate-probe in the zone above the wildcard domain', async () => {
    const before = named.journal().length;
    const r = await run(inventory());
    expect(r).toMatchObject({
      status: 'ok',
      facts: { zone: 'example.test', probe: '_cloudgate-probe.example.test', rcode: 'NOERROR' },
    });
    const committed = changes(before);
    expect(committed).toHaveLength(2);
    expect(committed[0]).toMatch(/^add _cloudgate-probe\.example\.test\. IN TXT "cloudgate-probe-[0-9a-f]{12}"$/);
    expect(committed[1]).toBe(committed[0]!.replace(/^add/, 'del'));
  });

  it('each UPDATE is committed by named (its journal), and the delete removes exactly the probe value', async () => {
    const common = {
      host: '127.0.0.1',
      port: named.port,
      zone: 'example.test',
      record: '_cloudgate-probe.example.test',
      key: named.key,
      timeoutMs: 3000,
    };
    const before = named.journal().length;
    expect(await sendUpdate({ ...common, value: 'probe-a', action: 'add', now: new Date() })).toEqual({
      rcode: 'NOERROR',
      tsigError: 'NOERROR',
    });
    expect(await sendUpdate({ ...common, value: 'probe-b', action: 'add', now: new Date() })).toEqual({
      rcode: 'NOERROR',
      tsigError: 'NOERROR',
    });
    expect(await sendUpdate({ ...common, value: 'probe-a', action: 'delete', now: new Date() })).toEqual({
      rcode: 'NOERROR',
      tsigError: 'NOERROR',
    });
    expect(changes(before)).toEqual([
      'add _cloudgate-probe.example.test. IN TXT "probe-a"',
      'add _cloudgate-probe.example.test. IN TXT "probe-b"',
      'del _cloudgate-probe.example.test. IN TXT "probe-a"',
    ]);
    await sendUpdate({ ...common, value: 'probe-b', action: 'delete', now: new Date() });
  });

  it('maps a wrong secret (BADSIG), an unknown key (BADKEY) and a zone the server does not serve (NOTAUTH)', async () => {
    const badsig = await run(
      inventory({ cluster_issuer_acme_rfc2136_tsig_secret_key: Buffer.alloc(32, 7).toString('base64') }),
    );
    expect(badsig).toMatchObject({ status: 'fail', facts: { tsigError: 'BADSIG' } });
    expect(badsig.advice).toMatch(/tsig_secret_key/);
    const badkey = await run(inventory({ cluster_issuer_acme_rfc2136_tsig_key_name: 'someone-else' }));
    expect(badkey).toMatchObject({ status: 'fail', facts: { tsigError: 'BADKEY' } });
    const notauth = await run(inventory({ openstack_helm_ingress_wildcard_domain: 'other.test' }));
    expect(notauth).toMatchObject({ status: 'fail', facts: { tried: ['other.test'] } });
    expect(notauth.message).toMatch(/not authoritative/);
  });

  it('writes nothing without --probe-update', async () => {
    const r = await run(inventory(), {});
    expect(r).toMatchObject({ status: 'skip' });
    expect(r.message).toMatch(/--probe-update/);
  });
});
