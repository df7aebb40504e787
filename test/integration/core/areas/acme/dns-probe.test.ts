/** The SOA probe (TSIG-signed or not) over UDP: against Debian's named, and against a small server of our own. */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDns, type TsigKey } from '../../../../../src/core/areas/acme/dns-probe.js';
import { hasNamed, requireNamed, startNamed, tsigKeygen, type RunningNamed } from '../../../../servers/named.js';

let named: RunningNamed;
beforeAll(async () => {
  if (hasNamed) named = await startNamed();
}, 30_000);
afterAll(async () => {
  await named?.stop();
});

const probe = (key: TsigKey | undefined, zone = named.zone, now?: Date) =>
  probeDns({ host: '127.0.0.1', port: named.port, zone, timeoutMs: 3000, key, now });
const rightKey = (): TsigKey => ({ name: named.key.name, algorithm: 'HMACSHA256', secret: named.key.secret });

describe.skipIf(!requireNamed())('TSIG-signed SOA query against the real named', () => {
  it('is answered authoritatively, with a verified signature, for the right key', async () => {
    const answer = await probe(rightKey());
    expect(answer).toMatchObject({
      rcode: 'NOERROR',
      authoritative: true,
      zone: named.zone,
      tsig: { error: 'NOERROR', signed: true, verified: true },
    });
  });

  it('says BADSIG for a wrong secret, BADKEY for an unknown key or algorithm, BADTIME for a clock 20 minutes off', async () => {
    expect((await probe({ ...rightKey(), secret: tsigKeygen('cert-manager').secret })).tsig?.error).toBe('BADSIG');
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

const sockets: Socket[] = [];
afterAll(() => sockets.forEach((s) => s.close()));

/** A real UDP name server on 127.0.0.1: authoritative for `zone`, REFUSED for anything else (or silent). */
async function nameServer(zone: string, mode: 'answer' | 'silent' = 'answer'): Promise<number> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  socket.on('message', (query, peer) => {
    if (mode === 'silent') return;
    const qname: string[] = [];
    for (let at = 12; query[at]; at += query[at]! + 1)
      qname.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
    const ours = qname.join('.') === zone;
    const reply = Buffer.from(query);
    reply.writeUInt16BE(0x8000 | (ours ? 0x0400 : 0) | (ours ? 0 : 5), 2);
    reply.writeUInt16BE(ours ? 1 : 0, 6);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket.address().port;
}

describe('RFC 2136 name server probe against a small UDP server', () => {
  it('reports an authoritative answer for the zone and REFUSED for another', async () => {
    const port = await nameServer('example.test');
    const ours = await probeDns({ host: '127.0.0.1', port, zone: 'example.test', timeoutMs: 2000 });
    expect(ours).toMatchObject({ rcode: 'NOERROR', authoritative: true, answers: 1 });
    const other = await probeDns({ host: 'localhost', port, zone: 'other.test', timeoutMs: 2000 });
    expect(other).toMatchObject({ rcode: 'REFUSED', authoritative: false });
  });

  it('times out on a server that never answers, and reports a closed port', async () => {
    const silent = await nameServer('example.test', 'silent');
    await expect(
      probeDns({ host: '127.0.0.1', port: silent, zone: 'example.test', timeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'timeout' });
    const closed = createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
    const port = closed.address().port;
    closed.close();
    await expect(probeDns({ host: '127.0.0.1', port, zone: 'example.test', timeoutMs: 2000 })).rejects.toMatchObject({
      code: 'refused',
    });
  });
});
