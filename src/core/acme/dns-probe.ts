/**
 * One DNS query over UDP (node:dgram) to a name server given as host:port: does it answer DNS at all,
 * and is it authoritative for the zone? Enough to catch a wrong address, port or firewall before
 * cert-manager's RFC 2136 updates fail.
 */
import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

export const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];
const TYPE_SOA = 6;

export interface DnsAnswer {
  rcode: string;
  /** The AA bit: the server is authoritative for the name. */
  authoritative: boolean;
  answers: number;
  address: string;
}

export class DnsProbeError extends Error {
  constructor(
    message: string,
    readonly code: 'timeout' | 'refused' | 'resolve' | 'malformed' | 'aborted',
  ) {
    super(message);
    this.name = 'DnsProbeError';
  }
}

/** `host:port`, `[v6]:port`; undefined without a port (the certificate manager requires the port). */
export function parseNameserver(value: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(value.trim()) ?? /^([^:[\]]+):(\d+)$/.exec(value.trim());
  const port = Number(m?.[2]);
  return m && port > 0 && port < 65536 ? { host: m[1]!, port } : undefined;
}

export function encodeQuery(id: number, name: string, type = TYPE_SOA): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  const qname = Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l)])), Buffer.from([0])]);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0000, 2); // standard query, no recursion wanted: we ask the server itself
  header.writeUInt16BE(1, 4);
  const question = Buffer.alloc(4);
  question.writeUInt16BE(type, 0);
  question.writeUInt16BE(1, 2); // class IN
  return Buffer.concat([header, qname, question]);
}

export function decodeHeader(message: Buffer): { id: number; response: boolean; authoritative: boolean; rcode: string; answers: number } {
  if (message.length < 12) throw new DnsProbeError('The answer is shorter than a DNS header.', 'malformed');
  const flags = message.readUInt16BE(2);
  return {
    id: message.readUInt16BE(0),
    response: (flags & 0x8000) !== 0,
    authoritative: (flags & 0x0400) !== 0,
    rcode: RCODES[flags & 0x0f] ?? `RCODE${flags & 0x0f}`,
    answers: message.readUInt16BE(6),
  };
}

export async function probeDns(options: { host: string; port: number; zone: string; timeoutMs: number; signal?: AbortSignal }): Promise<DnsAnswer> {
  const { host, port, zone, timeoutMs, signal } = options;
  let address = host;
  if (!isIP(host)) {
    try {
      address = (await lookup(host)).address;
    } catch (error) {
      throw new DnsProbeError(`The name server host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? error}).`, 'resolve');
    }
  }
  const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
  const id = randomInt(0, 65536);
  return new Promise<DnsAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error, answer?: DnsAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    };
    const onAbort = () => finish(new DnsProbeError(`The DNS query to ${host}:${port} was cancelled.`, 'aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => finish(new DnsProbeError(`${host}:${port} did not answer a DNS query (SOA ${zone}) within ${timeoutMs / 1000} s.`, 'timeout')),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        error.code === 'ECONNREFUSED'
          ? new DnsProbeError(`${host}:${port} refused the DNS query (nothing listens on UDP port ${port}).`, 'refused')
          : new DnsProbeError(`DNS query to ${host}:${port} failed: ${error.code ?? error.message}.`, 'refused'),
      ),
    );
    socket.on('message', (message) => {
      try {
        const header = decodeHeader(message);
        if (header.id !== id || !header.response) return; // not ours: keep waiting
        finish(undefined, { rcode: header.rcode, authoritative: header.authoritative, answers: header.answers, address });
      } catch (error) {
        finish(error as Error);
      }
    });
    // A connected socket turns an ICMP "port unreachable" into ECONNREFUSED instead of a timeout.
    socket.connect(port, address, () => socket.send(encodeQuery(id, zone)));
  });
}
