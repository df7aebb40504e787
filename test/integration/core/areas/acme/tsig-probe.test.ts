import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDns, type TsigKey } from '../../../../../src/core/areas/acme/dns-probe.js';
import { hasNamed, startNamed, tsigKeygen, type RunningNamed } from '../../../../servers/named.js';

let named: RunningNamed;
beforeAll(async () => {
  named = await startNamed();
}, 30_000);
afterAll(async () => {
  await named?.stop();
});

const probe = (key: TsigKey | undefined, zone = named.zone, now?: Date) =>
  probeDns({ host: '127.0.0.1', port: named.port, zone, timeoutMs: 3000, key, now });
const rightKey = (): TsigKey => ({ name: named.key.name, algorithm: 'HMACSHA256', secret: named.key.secret });

describe.skipIf(!hasNamed)('TSIG-signed SOA query against the real named', () => {
  it('is answered authoritatively, with a verified signature, for the right key', async () => {
    const answer = await probe(rightKey());
    expect(answer).toMatchObject({ rcode: 'NOERROR', authoritative: true, zone: named.zone, tsig: { error: 'NOERROR', signed: true, verified: true } });
  });

  it('says BADSIG for a wrong secret, BADKEY for an unknown key or algorithm, BADTIME for a clock 20 minutes off', async () => {
    expect((await probe({ ...rightKey(), secret: tsigKeygen('certmgr').secret })).tsig?.error).toBe('BADSIG');
    expect((await probe({ ...rightKey(), name: 'nobody' })).tsig?.error).toBe('BADKEY');
    expect((await probe({ ...rightKey(), algorithm: 'HMACSHA512' })).tsig?.error).toBe('BADKEY');
    const late = await probe(rightKey(), named.zone, new Date(Date.now() - 20 * 60_000));
    expect(late.tsig).toMatchObject({ error: 'BADTIME', signed: true, verified: true });
    expect(Math.abs(late.tsig!.serverTime!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('is refused for a zone the server does not serve, and without a key', async () => {
    expect((await probe(rightKey(), 'other.test')).rcode).toMatch(/REFUSED|NOTAUTH/);
    expect((await probe(undefined)).rcode).toBe('REFUSED');
  });
});
