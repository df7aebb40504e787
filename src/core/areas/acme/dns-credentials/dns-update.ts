/**
 * One TSIG-signed DNS UPDATE (RFC 2136, RFC 8945) over UDP: add, or delete, one TXT record, as
 * cert-manager's rfc2136 solver does. A small message builder and HMAC signing with node:crypto.
 * The name encoding and the TSIG signing are those of the signed SOA query (../dns-probe.ts).
 */
import { randomInt } from 'node:crypto';
import { DnsError, encodeName, exchangeUdp, RCODES, signQuery, TSIG_ERRORS, u16, type TsigKey } from '../dns-probe.js';

const TYPE_SOA = 6;
const TYPE_TXT = 16;
const TYPE_TSIG = 250;
const CLASS_IN = 1;
const CLASS_NONE = 254;
const OPCODE_UPDATE = 5 << 11;

export interface UpdateAnswer {
  rcode: string;
  /** The TSIG error of the answer: NOERROR when the server accepted the key. */
  tsigError: string;
}

function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value, 0);
  return b;
}


function txtData(value: string): Buffer {
  const bytes = Buffer.from(value);
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

/** An UPDATE for `zone` that adds (class IN) or deletes (class NONE: exactly this value) one TXT record. */
export function buildUpdate(id: number, zone: string, record: string, value: string, action: 'add' | 'delete'): Buffer {
  const header = Buffer.concat([u16(id, OPCODE_UPDATE, 1, 0, 1, 0)]);
  const zoneSection = Buffer.concat([encodeName(zone), u16(TYPE_SOA, CLASS_IN)]);
  const rdata = txtData(value);
  const update = Buffer.concat([encodeName(record), u16(TYPE_TXT, action === 'add' ? CLASS_IN : CLASS_NONE), u32(action === 'add' ? 60 : 0), u16(rdata.length), rdata]);
  return Buffer.concat([header, zoneSection, update]);
}

/** Appends the TSIG record (RFC 8945 §4.3) to a message that has no additional records yet. */
export function signMessage(message: Buffer, key: TsigKey, time: number): Buffer {
  return signQuery(message, key, time).signed;
}

function skipName(buf: Buffer, offset: number): number {
  while (offset < buf.length) {
    const length = buf[offset]!;
    if (length === 0) return offset + 1;
    if ((length & 0xc0) === 0xc0) return offset + 2;
    offset += length + 1;
  }
  throw new DnsError('The answer ends inside a name.', 'malformed');
}

/** The answer's rcode and, when it carries a TSIG record, the TSIG error (BADSIG, BADKEY, BADTIME). */
export function decodeAnswer(buf: Buffer): { id: number; rcode: string; tsigError: string } {
  if (buf.length < 12) throw new DnsError('The answer is shorter than a DNS header.', 'malformed');
  const flags = buf.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((at) => buf.readUInt16BE(at));
  let offset = 12;
  for (let i = 0; i < counts[0]!; i++) offset = skipName(buf, offset) + 4;
  let tsigError = 'NOERROR';
  const records = counts[1]! + counts[2]! + counts[3]!;
  for (let i = 0; i < records && offset < buf.length; i++) {
    offset = skipName(buf, offset);
    const type = buf.readUInt16BE(offset);
    const length = buf.readUInt16BE(offset + 8);
    const rdata = offset + 10;
    if (type === TYPE_TSIG) {
      let at = skipName(buf, rdata) + 8; // algorithm, time signed, fudge
      at += 2 + buf.readUInt16BE(at) + 2; // MAC size, MAC, original id
      const error = buf.readUInt16BE(at);
      tsigError = error === 0 ? 'NOERROR' : (TSIG_ERRORS[error] ?? `TSIG${error}`);
    }
    offset = rdata + length;
  }
  return { id: buf.readUInt16BE(0), rcode: RCODES[flags & 0x0f] ?? `RCODE${flags & 0x0f}`, tsigError };
}

export async function sendUpdate(options: {
  host: string;
  port: number;
  zone: string;
  record: string;
  value: string;
  action: 'add' | 'delete';
  key: TsigKey;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<UpdateAnswer> {
  const { host, port, timeoutMs, signal } = options;
  const id = randomInt(0, 65536);
  const message = signMessage(buildUpdate(id, options.zone, options.record, options.value, options.action), options.key, Math.floor(Date.now() / 1000));
  return exchangeUdp(
    { host, port, timeoutMs, signal, what: 'DNS update', message },
    (datagram) => {
      const decoded = decodeAnswer(datagram);
      return decoded.id === id ? { rcode: decoded.rcode, tsigError: decoded.tsigError } : undefined;
    },
  );
}
