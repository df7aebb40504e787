/**
 * One TSIG-signed DNS UPDATE (RFC 2136, RFC 8945) over UDP: add, or delete, one TXT record, as
 * cert-manager's rfc2136 solver does. A small message builder and HMAC signing with node:crypto.
 * The name encoding and the TSIG signing are those of the signed SOA query (../dns-probe.ts).
 */
import { randomInt } from 'node:crypto';
import { encodeName, exchangeUdp, readAnswer, signQuery, u16, type TsigKey } from '../dns-probe.js';

const TYPE_SOA = 6;
const TYPE_TXT = 16;
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
  const update = Buffer.concat([
    encodeName(record),
    u16(TYPE_TXT, action === 'add' ? CLASS_IN : CLASS_NONE),
    u32(action === 'add' ? 60 : 0),
    u16(rdata.length),
    rdata,
  ]);
  return Buffer.concat([header, zoneSection, update]);
}

/** Appends the TSIG record (RFC 8945 §4.3) to a message that has no additional records yet. */
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
  /** The run's clock: TSIG signs the time, which the server checks within 5 minutes. */
  now: Date;
}): Promise<UpdateAnswer> {
  const { host, port, timeoutMs, signal } = options;
  const id = randomInt(0, 65536);
  const signing = signQuery(
    buildUpdate(id, options.zone, options.record, options.value, options.action),
    options.key,
    Math.floor(options.now.getTime() / 1000),
  );
  return exchangeUdp({ host, port, timeoutMs, signal, what: 'DNS update', message: signing.signed }, (datagram) => {
    const answer = readAnswer(datagram, id, { key: options.key, mac: signing.mac });
    return answer && { rcode: answer.header.rcode, tsigError: answer.tsig!.error };
  });
}
