/**
 * One DNS query over UDP (node:dgram) to a name server given as host:port: the SOA of the zone,
 * signed with the TSIG key cert-manager will use (RFC 8945, HMAC with node:crypto) when one is given.
 * The answer says whether the server answers DNS at all, is authoritative for the zone, and accepts
 * the key (BADSIG, BADKEY, BADTIME come back in the answer's TSIG record); the answer's own
 * signature is verified too. Enough to catch a wrong address, port, firewall or key before
 * cert-manager's RFC 2136 updates fail.
 */
import { createSocket } from 'node:dgram';
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { withDeadline } from '../../net/deadline.js';
import { codeOf } from '../../errors.js';

export const RCODES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'YXDOMAIN',
  'YXRRSET',
  'NXRRSET',
  'NOTAUTH',
  'NOTZONE',
];
/** TSIG error codes (RFC 8945 §3). */
export const TSIG_ERRORS: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' };
const TYPE_SOA = 6;
const TYPE_TSIG = 250;
const CLASS_ANY = 255;
/** Seconds of clock difference the server accepts (the usual 300). */
const FUDGE = 300;

/** The platform's algorithm names (cluster_issuer_acme_rfc2136_tsig_algorithm) and their TSIG names and hashes. */
export const TSIG_ALGORITHM_NAMES: Record<string, { wire: string; hash: string }> = {
  HMACMD5: { wire: 'hmac-md5.sig-alg.reg.int', hash: 'md5' },
  HMACSHA1: { wire: 'hmac-sha1', hash: 'sha1' },
  HMACSHA256: { wire: 'hmac-sha256', hash: 'sha256' },
  HMACSHA512: { wire: 'hmac-sha512', hash: 'sha512' },
};

export interface TsigKey {
  name: string;
  /** One of TSIG_ALGORITHM_NAMES' keys (any case). */
  algorithm: string;
  /** Base64, as in a BIND key file. */
  secret: string;
}

export interface DnsAnswer {
  rcode: string;
  /** The AA bit: the server is authoritative for the name. */
  authoritative: boolean;
  answers: number;
  address: string;
  /** With a key: the TSIG error of the answer (NOERROR when accepted) and whether its MAC verified. */
  tsig?: { error: string; signed: boolean; verified: boolean; serverTime?: Date };
  /** The zone named by the SOA record of the answer or authority section, when there is one. */
  zone?: string;
}

export type DnsFailure = 'timeout' | 'refused' | 'resolve' | 'malformed' | 'aborted';

/** A DNS exchange (the signed query or the signed update) that got no usable answer. */
export class DnsError extends Error {
  constructor(
    message: string,
    readonly code: DnsFailure,
  ) {
    super(message);
    this.name = 'DnsError';
  }
}

/** A domain name in wire form, lower case (the canonical form TSIG signs). */
export function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l.toLowerCase())])),
    Buffer.from([0]),
  ]);
}

export function encodeQuery(id: number, name: string, type = TYPE_SOA): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0000, 2); // standard query, no recursion wanted: we ask the server itself
  header.writeUInt16BE(1, 4);
  const question = Buffer.alloc(4);
  question.writeUInt16BE(type, 0);
  question.writeUInt16BE(1, 2); // class IN
  return Buffer.concat([header, encodeName(name), question]);
}

function u48(seconds: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUIntBE(seconds, 0, 6);
  return b;
}

export function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(2 * values.length);
  values.forEach((v, i) => b.writeUInt16BE(v, 2 * i));
  return b;
}

function algorithmOf(key: TsigKey): { wire: string; hash: string } {
  // `hmac-sha256` and `HMACSHA256` alike.
  const algorithm = TSIG_ALGORITHM_NAMES[key.algorithm.toUpperCase().replace(/[^A-Z0-9]/g, '')];
  if (!algorithm) throw new DnsError(`Unknown TSIG algorithm ${key.algorithm}.`, 'malformed');
  return algorithm;
}

/** The TSIG variables that follow the message in the MAC input (RFC 8945 §4.3.3). */
function tsigVariables(key: TsigKey, time: number, fudge: number, error: number, other: Buffer): Buffer {
  return Buffer.concat([
    encodeName(key.name),
    u16(CLASS_ANY),
    Buffer.alloc(4),
    encodeName(algorithmOf(key).wire),
    u48(time),
    u16(fudge, error, other.length),
    other,
  ]);
}

function mac(key: TsigKey, ...parts: Buffer[]): Buffer {
  const hmac = createHmac(algorithmOf(key).hash, Buffer.from(key.secret, 'base64'));
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/** Appends a TSIG record to `message` (which has no additional records yet). */
export function signQuery(message: Buffer, key: TsigKey, time: number): { signed: Buffer; mac: Buffer } {
  const requestMac = mac(key, message, tsigVariables(key, time, FUDGE, 0, Buffer.alloc(0)));
  const rdata = Buffer.concat([
    encodeName(algorithmOf(key).wire),
    u48(time),
    u16(FUDGE, requestMac.length),
    requestMac,
    u16(message.readUInt16BE(0), 0, 0),
  ]);
  const record = Buffer.concat([
    encodeName(key.name),
    u16(TYPE_TSIG, CLASS_ANY),
    Buffer.alloc(4),
    u16(rdata.length),
    rdata,
  ]);
  const signed = Buffer.concat([message, record]);
  signed.writeUInt16BE(signed.readUInt16BE(10) + 1, 10);
  return { signed, mac: requestMac };
}

export function decodeHeader(message: Buffer): {
  id: number;
  response: boolean;
  authoritative: boolean;
  rcode: string;
  answers: number;
} {
  if (message.length < 12) throw new DnsError('The answer is shorter than a DNS header.', 'malformed');
  const flags = message.readUInt16BE(2);
  return {
    id: message.readUInt16BE(0),
    response: (flags & 0x8000) !== 0,
    authoritative: (flags & 0x0400) !== 0,
    rcode: RCODES[flags & 0x0f] ?? `RCODE${flags & 0x0f}`,
    answers: message.readUInt16BE(6),
  };
}

/** Reads a (possibly compressed) name; returns it and the offset after it in the record. */
function readName(buf: Buffer, start: number): { name: string; end: number } {
  const labels: string[] = [];
  let offset = start;
  let end: number | undefined;
  for (let jumps = 0; jumps < 64; jumps++) {
    if (offset >= buf.length) break;
    const length = buf[offset];
    if (length === 0) return { name: labels.join('.') || '.', end: end ?? offset + 1 };
    if ((length & 0xc0) === 0xc0) {
      end ??= offset + 2;
      offset = buf.readUInt16BE(offset) & 0x3fff;
      continue;
    }
    labels.push(buf.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += length + 1;
  }
  throw new DnsError('The answer holds a malformed name.', 'malformed');
}

export interface DnsRecord {
  name: string;
  type: number;
  start: number;
  rdata: Buffer;
}

export function readRecords(message: Buffer): DnsRecord[] {
  const counts = [4, 6, 8, 10].map((o) => message.readUInt16BE(o));
  let offset = 12;
  for (let i = 0; i < counts[0]; i++) offset = readName(message, offset).end + 4;
  const records: DnsRecord[] = [];
  for (let i = 0; i < counts[1] + counts[2] + counts[3]; i++) {
    const start = offset;
    const { name, end } = readName(message, offset);
    if (end + 10 > message.length) throw new DnsError('The answer is cut short.', 'malformed');
    const type = message.readUInt16BE(end);
    const length = message.readUInt16BE(end + 8);
    records.push({ name, type, start, rdata: message.subarray(end + 10, end + 10 + length) });
    offset = end + 10 + length;
  }
  return records;
}

/** The answer's TSIG record: its error, and whether its MAC is right for the request's MAC. */
function checkResponseTsig(
  message: Buffer,
  records: DnsRecord[],
  key: TsigKey,
  requestMac: Buffer,
  id: number,
): DnsAnswer['tsig'] {
  const last = records.at(-1);
  if (!last || last.type !== TYPE_TSIG) return { error: 'NOERROR', signed: false, verified: false };
  const rdata = last.rdata;
  const algorithmEnd = readName(rdata, 0).end;
  const time = rdata.readUIntBE(algorithmEnd, 6);
  const fudge = rdata.readUInt16BE(algorithmEnd + 6);
  const macSize = rdata.readUInt16BE(algorithmEnd + 8);
  const responseMac = rdata.subarray(algorithmEnd + 10, algorithmEnd + 10 + macSize);
  let offset = algorithmEnd + 10 + macSize + 2;
  const errorCode = rdata.readUInt16BE(offset);
  const otherLength = rdata.readUInt16BE(offset + 2);
  offset += 4;
  const other = rdata.subarray(offset, offset + otherLength);
  const error = errorCode === 0 ? 'NOERROR' : (TSIG_ERRORS[errorCode] ?? `TSIG error ${errorCode}`);
  const serverTime = errorCode === 18 && otherLength === 6 ? new Date(other.readUIntBE(0, 6) * 1000) : undefined;
  if (macSize === 0) return { error, signed: false, verified: false, serverTime };
  // The MAC covers the answer as it was before the TSIG record was added, with the original id.
  const unsigned = Buffer.from(message.subarray(0, last.start));
  unsigned.writeUInt16BE(id, 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  const expected = mac(
    key,
    u16(requestMac.length),
    requestMac,
    unsigned,
    tsigVariables(key, time, fudge, errorCode, other),
  );
  const verified = expected.length === responseMac.length && timingSafeEqual(expected, responseMac);
  return { error, signed: true, verified, serverTime };
}

function soaZone(records: DnsRecord[]): string | undefined {
  return records.find((r) => r.type === TYPE_SOA)?.name;
}

export async function probeDns(options: {
  host: string;
  port: number;
  zone: string;
  timeoutMs: number;
  signal?: AbortSignal;
  key?: TsigKey;
  /** The signing time; the clock by default. */
  now?: Date;
}): Promise<DnsAnswer> {
  const { host, port, zone, timeoutMs, signal, key } = options;
  const id = randomInt(0, 65536);
  const query = encodeQuery(id, zone);
  const signing = key ? signQuery(query, key, Math.floor((options.now ?? new Date()).getTime() / 1000)) : undefined;
  return exchangeUdp(
    { host, port, timeoutMs, signal, what: 'DNS query', detail: ` (SOA ${zone})`, message: signing?.signed ?? query },
    (message, address) => {
      const answer = readAnswer(message, id, key && signing ? { key, mac: signing.mac } : undefined);
      if (!answer) return undefined; // not ours: keep waiting
      const { header, records, tsig } = answer;
      return {
        rcode: header.rcode,
        authoritative: header.authoritative,
        answers: header.answers,
        address,
        zone: soaZone(records),
        ...(tsig ? { tsig } : {}),
      };
    },
  );
}

/**
 * The answer to our message `id` (undefined for a datagram that is not), with its TSIG record checked
 * against the request's MAC when the request was signed. Unsigned, only the header matters: a record
 * section cut short is then no reason to fail.
 */
export function readAnswer(
  message: Buffer,
  id: number,
  signing?: { key: TsigKey; mac: Buffer },
): { header: ReturnType<typeof decodeHeader>; records: DnsRecord[]; tsig?: DnsAnswer['tsig'] } | undefined {
  const header = decodeHeader(message);
  if (header.id !== id || !header.response) return undefined;
  let records: DnsRecord[] = [];
  try {
    records = readRecords(message);
  } catch (error) {
    if (signing) throw error;
  }
  return {
    header,
    records,
    ...(signing ? { tsig: checkResponseTsig(message, records, signing.key, signing.mac, id) } : {}),
  };
}

/**
 * One UDP exchange with a name server, for the signed query and the signed update alike: resolves the
 * host, sends on a connected socket (an ICMP "port unreachable" then is ECONNREFUSED, not a timeout),
 * and hands each datagram to `accept` until it returns an answer.
 */
export async function exchangeUdp<T>(
  options: {
    host: string;
    port: number;
    timeoutMs: number;
    signal?: AbortSignal;
    what: string;
    detail?: string;
    message: Buffer;
  },
  accept: (datagram: Buffer, address: string) => T | undefined,
): Promise<T> {
  const { host, port, timeoutMs, signal, what } = options;
  let address = host;
  if (!isIP(host)) {
    try {
      address = (await lookup(host)).address;
    } catch (error) {
      throw new DnsError(`The name server host ${host} does not resolve (${codeOf(error) ?? error}).`, 'resolve');
    }
  }
  const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
  const deadline = {
    timeoutMs,
    signal,
    timedOut: () =>
      new DnsError(
        `${host}:${port} did not answer a ${what}${options.detail ?? ''} within ${timeoutMs / 1000} s.`,
        'timeout',
      ),
    aborted: () => new DnsError(`The ${what} to ${host}:${port} was cancelled.`, 'aborted'),
    release: () => socket.close(),
  };
  return withDeadline<T>(deadline, (finish) => {
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        new DnsError(
          error.code === 'ECONNREFUSED'
            ? `${host}:${port} refused the ${what} (nothing listens on UDP port ${port}).`
            : `${what} to ${host}:${port} failed: ${error.code ?? error.message}.`,
          'refused',
        ),
      ),
    );
    socket.on('message', (datagram) => {
      try {
        const answer = accept(datagram, address);
        if (answer !== undefined) finish(undefined, answer);
      } catch (error) {
        finish(error as Error); // the answer's reader throws Errors (DnsError, Node's RangeError)
      }
    });
    socket.connect(port, address, () => socket.send(options.message));
  });
}
