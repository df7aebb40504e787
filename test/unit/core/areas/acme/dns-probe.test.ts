import { createSocket, type Socket } from 'node:dgram';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeHeader, probeDns } from '../../../../../src/core/areas/acme/dns-probe.js';

const sockets: Socket[] = [];
afterAll(() => sockets.forEach((s) => s.close()));

/** A real UDP name server on 127.0.0.1: authoritative for `zone`, REFUSED for anything else (or silent). */
async function nameServer(zone: string, mode: 'answer' | 'silent' = 'answer'): Promise<number> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  socket.on('message', (query, peer) => {
    if (mode === 'silent') return;
    const qname: string[] = [];
    for (let at = 12; query[at]; at += query[at]! + 1) qname.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
    const ours = qname.join('.') === zone;
    const reply = Buffer.from(query);
    reply.writeUInt16BE(0x8000 | (ours ? 0x0400 : 0) | (ours ? 0 : 5), 2);
    reply.writeUInt16BE(ours ? 1 : 0, 6);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket.address().port;
}

describe('RFC 2136 name server probe', () => {
  it('reports an authoritative answer for the zone and REFUSED for another', async () => {
    const port = await nameServer('example.test');
    const ours = await probeDns({ host: '127.0.0.1', port, zone: 'example.test', timeoutMs: 2000 });
    expect(ours).toMatchObject({ rcode: 'NOERROR', authoritative: true, answers: 1 });
    const other = await probeDns({ host: 'localhost', port, zone: 'other.test', timeoutMs: 2000 });
    expect(other).toMatchObject({ rcode: 'REFUSED', authoritative: false });
  });

  it('times out on a server that never answers, and reports a closed port', async () => {
    const silent = await nameServer('example.test', 'silent');
    await expect(probeDns({ host: '127.0.0.1', port: silent, zone: 'example.test', timeoutMs: 300 })).rejects.toMatchObject({ code: 'timeout' });
    const closed = createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
    const port = closed.address().port;
    closed.close();
    await expect(probeDns({ host: '127.0.0.1', port, zone: 'example.test', timeoutMs: 2000 })).rejects.toMatchObject({ code: 'refused' });
  });

  it('decodes the header flags', () => {
    const header = Buffer.from([0x12, 0x34, 0x84, 0x03, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(decodeHeader(header)).toEqual({ id: 0x1234, response: true, authoritative: true, rcode: 'NXDOMAIN', answers: 0 });
  });
});
