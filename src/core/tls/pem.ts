/**
 * PEM bundles: every block with its 1-based index and type, so an error can say "block 2
 * (CERTIFICATE) of wildcard.pem" instead of "bad certificate".
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { registerSecret } from '../secrets.js';
import { messageOf } from '../errors.js';

export interface PemBlock {
  /** 1-based position in the input. */
  index: number;
  type: string;
  /** Header lines such as `Proc-Type: 4,ENCRYPTED` (legacy OpenSSL encryption). */
  headers: Record<string, string>;
  der: Buffer;
  /** The block as written, BEGIN to END line. */
  text: string;
}

export interface ParsedCertificate {
  index: number;
  x509: X509Certificate;
  /** Short name for messages: the subject's CN, else the whole subject. */
  name: string;
}

/** Unusable TLS input: the message names the input and the block; `advice` says what to do. */
export class PemError extends Error {
  constructor(
    message: string,
    readonly advice?: string,
  ) {
    super(message);
    this.name = 'PemError';
  }
}

const BEGIN = /^-----BEGIN ([A-Z0-9 ]+)-----\s*$/;
const END = /^-----END ([A-Z0-9 ]+)-----\s*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The `-----BEGIN CERTIFICATE-----` blocks of a text, in order (for lenient reads; parsePemBlocks checks each line). */
export function certificateBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

export function describeBlock(block: Pick<PemBlock, 'index' | 'type'>): string {
  return `block ${block.index} (${block.type})`;
}

/** DER starts with a SEQUENCE tag (0x30) and a length byte that is not text once decoded. */
export function looksLikeDer(text: string): boolean {
  return text.charCodeAt(0) === 0x30 && /[\uFFFD\x00-\x08]/.test(text.slice(1, 4)) && !text.includes('-----BEGIN');
}

export function derError(source: string): PemError {
  return new PemError(
    `${source} looks like binary DER, not PEM.`,
    `Convert it: openssl x509 -inform der -in ${source} -out ${source}.pem (for a key: openssl pkey -inform der ...).`,
  );
}

/** Every PEM block of `text`; `source` names the input (a file or variable) in errors. */
export function parsePemBlocks(text: string, source: string): PemBlock[] {
  if (text.trim() === '')
    throw new PemError(`${source} is empty.`, 'Give a PEM file (text starting with "-----BEGIN").');
  if (looksLikeDer(text)) throw derError(source);
  const lines = text.split(/\r?\n/);
  const blocks: PemBlock[] = [];
  let open: { type: string; start: number; body: string[]; headers: Record<string, string> } | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    const begin = BEGIN.exec(line);
    const end = END.exec(line);
    if (begin) {
      if (open) throw truncated(source, blocks.length + 1, open.type, open.start, n + 1);
      open = { type: begin[1], start: n + 1, body: [], headers: {} };
    } else if (end) {
      if (!open) {
        throw new PemError(
          `${source}: line ${n + 1} ends a ${end[1]} block that never began.`,
          'The file is cut or two files were joined badly; export it again.',
        );
      }
      const index = blocks.length + 1;
      if (end[1] !== open.type) {
        throw new PemError(
          `${source}: block ${index} begins as ${open.type} but ends as ${end[1]} (line ${n + 1}).`,
          'The file is damaged; export it again.',
        );
      }
      const body = open.body.join('');
      if (!BASE64.test(body) || body.length === 0 || body.length % 4 === 1) {
        throw new PemError(
          `${source}: ${describeBlock({ index, type: open.type })} is not valid base64 (lines ${open.start}-${n + 1}).`,
          'The file is damaged or was edited; export it again.',
        );
      }
      blocks.push({
        index,
        type: open.type,
        headers: open.headers,
        der: Buffer.from(body, 'base64'),
        text:
          lines
            .slice(open.start - 1, n + 1)
            .map((l) => l.trim())
            .join('\n') + '\n',
      });
      open = undefined;
    } else if (open) {
      const header = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (header && open.body.length === 0) open.headers[header[1]] = header[2]!;
      else if (line !== '') open.body.push(line);
    }
  }
  if (open) throw truncated(source, blocks.length + 1, open.type, open.start, lines.length);
  if (blocks.length === 0) {
    throw new PemError(
      `${source} holds no PEM block.`,
      'A PEM file has lines "-----BEGIN CERTIFICATE-----" ... "-----END CERTIFICATE-----".',
    );
  }
  return blocks;
}

function truncated(source: string, index: number, type: string, start: number, line: number): PemError {
  return new PemError(
    `${source}: ${describeBlock({ index, type })} begins on line ${start} but has no END line before line ${line}: the file is truncated.`,
    'Copy the whole file again, including the "-----END ...-----" line.',
  );
}

/** The common name of a distinguished name (Node's "\n"-separated form, or one line), else the whole name. */
export function commonName(dn: string): string {
  return /(?:^|\n|,\s*)CN=([^\n,]*)/.exec(dn)?.[1]?.trim() ?? dn.replaceAll('\n', ', ');
}

export function certificateName(x509: X509Certificate): string {
  return commonName(x509.subject);
}

/** The subjectAltName entries of a certificate: DNS names (lower-case, unquoted) and IP addresses, in order. */
export function altNames(x509: X509Certificate): { all: string[]; dns: string[] } {
  const all: string[] = [];
  const dns: string[] = [];
  for (const entry of (x509.subjectAltName ?? '').split(/,\s*/)) {
    if (entry.startsWith('DNS:')) {
      const name = entry.slice(4).replace(/^"|"$/g, '').toLowerCase();
      all.push(name);
      dns.push(name);
    } else if (entry.startsWith('IP Address:')) {
      all.push(entry.slice('IP Address:'.length));
    }
  }
  return { all, dns };
}

export function parseCertificateBlock(block: PemBlock, source: string): ParsedCertificate {
  try {
    const x509 = new X509Certificate(block.der);
    return { index: block.index, x509, name: certificateName(x509) };
  } catch (error) {
    throw new PemError(
      `${source}: ${describeBlock(block)} is not a readable certificate (${messageOf(error)}).`,
      'The block is damaged or cut short; export the certificate again.',
    );
  }
}

const KEY_TYPES = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'ENCRYPTED PRIVATE KEY']);
export const isPrivateKeyBlock = (b: PemBlock) => KEY_TYPES.has(b.type) || b.type.endsWith(' PRIVATE KEY');

/**
 * The certificates of a bundle, in the order given. Private key blocks are skipped (a combined
 * file is common) and reported in `skipped`; any other block type is an error.
 */
export function parseCertificates(
  text: string,
  source: string,
): { certificates: ParsedCertificate[]; skippedKeys: number } {
  const blocks = parsePemBlocks(text, source);
  const certificates: ParsedCertificate[] = [];
  let skippedKeys = 0;
  for (const block of blocks) {
    if (block.type === 'CERTIFICATE') certificates.push(parseCertificateBlock(block, source));
    else if (isPrivateKeyBlock(block)) {
      registerSecret(block.text);
      skippedKeys++;
    } else {
      throw new PemError(
        `${source}: ${describeBlock(block)} is not a certificate.`,
        block.type === 'TRUSTED CERTIFICATE'
          ? `Convert it: openssl x509 -in ${source} -out ${source}.pem`
          : 'Give only "-----BEGIN CERTIFICATE-----" blocks here.',
      );
    }
  }
  if (certificates.length === 0) {
    throw new PemError(
      `${source} holds no certificate (only ${blocks.map((b) => b.type).join(', ')}).`,
      'Give the certificate file, not the key.',
    );
  }
  return { certificates, skippedKeys };
}

export interface ParsedKey {
  key: KeyObject;
  block: PemBlock;
  /** e.g. "RSA 2048", "ECDSA P-256", "Ed25519". */
  description: string;
}

/** The one private key of `text` (PKCS#1, PKCS#8 or SEC1). Registered as a secret before anything else. */
export function parsePrivateKey(text: string, source: string): ParsedKey {
  const blocks = parsePemBlocks(text, source);
  const keys = blocks.filter(isPrivateKeyBlock);
  for (const k of keys) registerSecret(k.text);
  if (keys.length === 0) {
    throw new PemError(
      `${source} holds no private key (found ${blocks.map(describeBlock).join(', ')}).`,
      'Give the file with "-----BEGIN PRIVATE KEY-----" (or RSA/EC PRIVATE KEY).',
    );
  }
  if (keys.length > 1) {
    throw new PemError(
      `${source} holds ${keys.length} private keys (${keys.map(describeBlock).join(', ')}).`,
      'Keep only the key of the certificate in this file.',
    );
  }
  const block = keys[0];
  if (block.type === 'ENCRYPTED PRIVATE KEY' || /ENCRYPTED/.test(block.headers['Proc-Type'] ?? '')) {
    throw new PemError(
      `${source}: ${describeBlock(block)} is encrypted with a passphrase; the platform needs it unencrypted.`,
      `Decrypt it (openssl asks for the passphrase): openssl pkey -in ${source} -out ${source}.decrypted && chmod 600 ${source}.decrypted`,
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: block.text, format: 'pem' });
  } catch (error) {
    throw new PemError(
      `${source}: ${describeBlock(block)} is not a readable private key (${messageOf(error)}).`,
      'The block is damaged or cut short; export the key again.',
    );
  }
  return { key, block, description: describeKey(key) };
}

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

export function describeKey(key: {
  asymmetricKeyType?: string;
  asymmetricKeyDetails?: { modulusLength?: number; namedCurve?: string };
}): string {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      return `RSA ${details.modulusLength ?? ''}`.trim();
    case 'ec':
      return `ECDSA ${CURVES[details.namedCurve ?? ''] ?? details.namedCurve ?? ''}`.trim();
    case 'ed25519':
      return 'Ed25519';
    default:
      return key.asymmetricKeyType ?? 'unknown';
  }
}
