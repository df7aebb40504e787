/**
 * Reads the server's Certificate message from the handshake bytes, so the chain is known exactly as
 * served. TLS 1.2 sends it in the clear; TLS 1.3 encrypts it with the server handshake key, which the
 * client's own `keylog` event hands us (the probe is the client: nothing is intercepted from anyone).
 */
import { createDecipheriv, createHmac, X509Certificate } from 'node:crypto';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

const MAX_CAPTURE = 512 * 1024;
const RECORD_HANDSHAKE = 22;
const RECORD_APPLICATION = 23;
const MSG_SERVER_HELLO = 2;
const MSG_CERTIFICATE = 11;

const SUITES: Record<string, { hash: string; keyLength: number; algorithm: string }> = {
  TLS_AES_128_GCM_SHA256: { hash: 'sha256', keyLength: 16, algorithm: 'aes-128-gcm' },
  TLS_AES_256_GCM_SHA384: { hash: 'sha384', keyLength: 32, algorithm: 'aes-256-gcm' },
  TLS_CHACHA20_POLY1305_SHA256: { hash: 'sha256', keyLength: 32, algorithm: 'chacha20-poly1305' },
};

/** A pass-through stream between the TLS layer and the TCP socket that keeps a copy of what arrives. */
export class HandshakeTap {
  readonly stream: Duplex;
  private readonly received: Buffer[] = [];
  private receivedBytes = 0;
  private serverHandshakeSecret?: Buffer;

  constructor(raw: Socket) {
    const stream = new Duplex({
      read() {
        raw.resume();
      },
      write(chunk: Buffer, _encoding, callback) {
        raw.write(chunk, callback);
      },
      final(callback) {
        raw.end();
        callback();
      },
      destroy(error, callback) {
        raw.destroy();
        callback(error);
      },
    });
    raw.on('data', (chunk: Buffer) => {
      if (this.receivedBytes < MAX_CAPTURE) {
        this.received.push(chunk);
        this.receivedBytes += chunk.length;
      }
      if (!stream.push(chunk)) raw.pause();
    });
    raw.on('end', () => stream.push(null));
    raw.on('error', (error) => stream.destroy(error));
    this.stream = stream;
  }

  addKeyLogLine(line: string): void {
    const [label, , secret] = line.trim().split(' ');
    if (label === 'SERVER_HANDSHAKE_TRAFFIC_SECRET' && secret) this.serverHandshakeSecret = Buffer.from(secret, 'hex');
  }

  /** Whether the served chain can be read: TLS 1.2 sends it in the clear, TLS 1.3 needs a known suite. */
  canRead(cipherName: string | undefined): boolean {
    return this.serverHandshakeSecret === undefined || (cipherName !== undefined && cipherName in SUITES);
  }

  /** The served chain, leaf first; `undefined` when it cannot be read (then fall back to Node's). */
  servedChain(cipherName: string | undefined): X509Certificate[] | undefined {
    try {
      const body = this.certificateMessage(cipherName);
      return body ? parseCertificateMessage(body.message, body.tls13) : undefined;
    } catch {
      return undefined;
    }
  }

  private certificateMessage(cipherName: string | undefined): { message: Buffer; tls13: boolean } | undefined {
    const records = splitRecords(Buffer.concat(this.received));
    const clear = Buffer.concat(records.filter((r) => r.type === RECORD_HANDSHAKE).map((r) => r.body));
    const clearMessages = splitMessages(clear);
    const inClear = clearMessages.find((m) => m.type === MSG_CERTIFICATE);
    if (inClear) return { message: inClear.body, tls13: false };
    const suite = cipherName ? SUITES[cipherName] : undefined;
    if (!suite || !this.serverHandshakeSecret || !clearMessages.some((m) => m.type === MSG_SERVER_HELLO))
      return undefined;
    const key = expandLabel(suite.hash, this.serverHandshakeSecret, 'key', suite.keyLength);
    const iv = expandLabel(suite.hash, this.serverHandshakeSecret, 'iv', 12);
    const plain: Buffer[] = [];
    let sequence = 0n;
    for (const record of records) {
      if (record.type !== RECORD_APPLICATION) continue;
      const inner = decryptRecord(suite.algorithm, key, iv, sequence++, record);
      if (inner.type !== RECORD_HANDSHAKE) break;
      plain.push(inner.body);
      const found = splitMessages(Buffer.concat(plain)).find((m) => m.type === MSG_CERTIFICATE);
      if (found) return { message: found.body, tls13: true };
    }
    return undefined;
  }
}

interface TlsRecord {
  type: number;
  header: Buffer;
  body: Buffer;
}

function splitRecords(data: Buffer): TlsRecord[] {
  const out: TlsRecord[] = [];
  let at = 0;
  while (at + 5 <= data.length) {
    const length = data.readUInt16BE(at + 3);
    if (at + 5 + length > data.length) break;
    out.push({ type: data[at], header: data.subarray(at, at + 5), body: data.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return out;
}

function splitMessages(data: Buffer): { type: number; body: Buffer }[] {
  const out: { type: number; body: Buffer }[] = [];
  let at = 0;
  while (at + 4 <= data.length) {
    const length = data.readUIntBE(at + 1, 3);
    if (at + 4 + length > data.length) break;
    out.push({ type: data[at], body: data.subarray(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return out;
}

function parseCertificateMessage(body: Buffer, tls13: boolean): X509Certificate[] {
  let at = tls13 ? 1 + body[0] : 0; // TLS 1.3 starts with certificate_request_context
  const end = at + 3 + body.readUIntBE(at, 3);
  at += 3;
  const chain: X509Certificate[] = [];
  while (at + 3 <= end) {
    const length = body.readUIntBE(at, 3);
    chain.push(parsedOnce(body.subarray(at + 3, at + 3 + length)));
    at += 3 + length;
    if (tls13) at += 2 + body.readUInt16BE(at); // per-certificate extensions
  }
  return chain;
}

/**
 * Endpoints of one platform mostly serve the same certificates (one wildcard, shared intermediates):
 * each distinct certificate is parsed once in the process (a cache of at most MAX_PARSED, which a
 * long-running serve fills no further). X509Certificate objects are immutable.
 */
const parsed = new Map<string, X509Certificate>();
const MAX_PARSED = 1000;

function parsedOnce(der: Buffer): X509Certificate {
  const key = der.toString('latin1');
  let cert = parsed.get(key);
  if (!cert) {
    cert = new X509Certificate(der);
    if (parsed.size < MAX_PARSED) parsed.set(key, cert);
  }
  return cert;
}

/** RFC 8446 §7.1 HKDF-Expand-Label with an empty context. */
function expandLabel(hash: string, secret: Buffer, label: string, length: number): Buffer {
  const fullLabel = Buffer.from(`tls13 ${label}`, 'latin1');
  const info = Buffer.concat([
    Buffer.from([length >> 8, length & 0xff, fullLabel.length]),
    fullLabel,
    Buffer.from([0]),
  ]);
  const out: Buffer[] = [];
  let previous = Buffer.alloc(0);
  for (let i = 1; Buffer.concat(out).length < length; i++) {
    previous = createHmac(hash, secret)
      .update(Buffer.concat([previous, info, Buffer.from([i])]))
      .digest();
    out.push(previous);
  }
  return Buffer.concat(out).subarray(0, length);
}

function decryptRecord(
  algorithm: string,
  key: Buffer,
  iv: Buffer,
  sequence: bigint,
  record: TlsRecord,
): { type: number; body: Buffer } {
  const nonce = Buffer.from(iv);
  for (let i = 0; i < 8; i++) nonce[11 - i] ^= Number((sequence >> BigInt(8 * i)) & 0xffn);
  const tag = record.body.subarray(record.body.length - 16);
  // Node's types give setAAD/setAuthTag only for a literal AEAD name; every suite here (AES-GCM,
  // ChaCha20-Poly1305) is an AEAD taking the header as AAD and a 16-byte tag.
  const decipher = createDecipheriv(algorithm as 'aes-128-gcm', key, nonce, { authTagLength: 16 });
  decipher.setAAD(record.header);
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(record.body.subarray(0, record.body.length - 16)), decipher.final()]);
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end--;
  return { type: plain[end - 1] ?? 0, body: plain.subarray(0, end - 1) };
}
