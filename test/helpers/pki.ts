/**
 * The tests' one certificate builder, independent of the code under test: roots, intermediates and
 * leaves with RSA, ECDSA (P-256, P-384) or Ed25519 keys, subject alternative names (DNS names and IP
 * addresses), validity windows, CA flags and key usages. Keys and signatures come from node:crypto;
 * the few DER structures of an X.509 certificate are written here. Synchronous, and dates are
 * relative to now, so nothing here goes stale.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type StrongKeyKind = 'rsa' | 'p256' | 'p384' | 'ed25519';
export type KeyKind = StrongKeyKind | WeakKeyKind;
export const KEY_KINDS: StrongKeyKind[] = ['rsa', 'p256', 'p384', 'ed25519'];
/** Keys below what the CA/Browser Forum and Kubernetes accept, for the tests that must see them refused. */
export type WeakKeyKind = 'rsa512' | 'rsa1024' | 'p224';

export const DAY = 86_400_000;

/** Key usage flags (bit n of the extension is 2^n), to combine with `|`. */
export const KEY_USAGE = {
  digitalSignature: 1,
  nonRepudiation: 2,
  keyEncipherment: 4,
  dataEncipherment: 8,
  keyAgreement: 16,
  keyCertSign: 32,
  cRLSign: 64,
} as const;

export interface Issued {
  /** PEM of the certificate. */
  cert: string;
  /** PKCS#8 PEM of the private key. */
  key: string;
  keyObject: KeyObject;
  kind: KeyKind;
  /** `CN=<cn>`. */
  subject: string;
  /** DER of the subject name and the subject key identifier, for certificates this one signs. */
  name: Buffer;
  keyId: Buffer;
}

/** A certificate and its key, as a TLS server takes them. */
export type Pem = Pick<Issued, 'cert' | 'key'>;

export interface IssueOptions {
  /** Common name; the subject is `CN=<cn>`. */
  cn: string;
  /** Default: the issuer's kind, else P-256. */
  kind?: KeyKind;
  /** DNS names or IP addresses for the subjectAltName extension. */
  dns?: string[];
  /** Signer; self-signed when absent. */
  issuer?: Issued;
  ca?: boolean;
  /** KEY_USAGE flags; CA default keyCertSign|cRLSign, leaf default digitalSignature|keyEncipherment. */
  keyUsage?: number;
  /** Leave out the key usage extension. */
  noKeyUsage?: boolean;
  notBefore?: Date;
  /** Default one year from now. */
  notAfter?: Date;
  /** Sign this certificate for the key of `keyOf` instead of a new key (an RSA key takes 0.1 s to make). */
  keyOf?: Issued;
  /** Sign with SHA-1 (sha1WithRSAEncryption, ecdsa-with-SHA1), as no CA may any more. */
  sha1?: boolean;
}

// --- DER ---
function tlv(tag: number, content: Buffer): Buffer {
  const size: number[] = [];
  for (let n = content.length; n > 0; n >>= 8) size.unshift(n & 0xff);
  const length = content.length < 0x80 ? [content.length] : [0x80 | size.length, ...size];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), content]));
const TRUE = tlv(0x01, Buffer.from([0xff]));
const NULL = tlv(0x05, Buffer.alloc(0));

function integer(value: Buffer): Buffer {
  return tlv(0x02, value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const base128 = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) base128.unshift(0x80 | (v & 0x7f));
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]|\.\d+/g, ''); // YYYYMMDDHHMMSSZ
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

const nameOf = (cn: string) => seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn)))));

function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  const [head, tail = ''] = ip.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const missing = 8 - groups(head!).length - groups(tail).length;
  const all = ip.includes('::') ? [...groups(head!), ...Array(missing).fill('0'), ...groups(tail)] : groups(ip);
  return Buffer.from(all.map((g) => g.padStart(4, '0')).join(''), 'hex');
}

function keyUsageBits(flags: number): Buffer {
  const highest = 31 - Math.clz32(flags);
  const bytes = Buffer.alloc((highest >> 3) + 1);
  for (let bit = 0; bit <= highest; bit++) if (flags & (1 << bit)) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return bits(bytes, 7 - (highest & 7));
}

const extension = (id: string, value: Buffer, critical = false) =>
  seq(oid(id), ...(critical ? [TRUE] : []), octets(value));

// --- keys and signatures ---
const SIGNING: Record<KeyKind, { algorithm: Buffer; hash: string | null }> = {
  rsa: { algorithm: seq(oid('1.2.840.113549.1.1.11'), NULL), hash: 'sha256' },
  p256: { algorithm: seq(oid('1.2.840.10045.4.3.2')), hash: 'sha256' },
  p384: { algorithm: seq(oid('1.2.840.10045.4.3.3')), hash: 'sha384' },
  ed25519: { algorithm: seq(oid('1.3.101.112')), hash: null },
  rsa512: { algorithm: seq(oid('1.2.840.113549.1.1.11'), NULL), hash: 'sha256' },
  rsa1024: { algorithm: seq(oid('1.2.840.113549.1.1.11'), NULL), hash: 'sha256' },
  p224: { algorithm: seq(oid('1.2.840.10045.4.3.2')), hash: 'sha256' },
};

/** The SHA-1 signature algorithm of a signer's key kind. */
function sha1Signing(kind: KeyKind): { algorithm: Buffer; hash: string } {
  return kind.startsWith('rsa')
    ? { algorithm: seq(oid('1.2.840.113549.1.1.5'), NULL), hash: 'sha1' }
    : { algorithm: seq(oid('1.2.840.10045.4.1')), hash: 'sha1' };
}

function generateKeys(kind: KeyKind) {
  if (kind === 'rsa') return generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (kind === 'rsa512' || kind === 'rsa1024')
    return generateKeyPairSync('rsa', { modulusLength: kind === 'rsa512' ? 512 : 1024 });
  if (kind === 'p224') return generateKeyPairSync('ec', { namedCurve: 'secp224r1' });
  if (kind === 'ed25519') return generateKeyPairSync('ed25519');
  return generateKeyPairSync('ec', { namedCurve: kind === 'p256' ? 'P-256' : 'P-384' });
}

export function issue(options: IssueOptions): Issued {
  const kind = options.keyOf?.kind ?? options.kind ?? options.issuer?.kind ?? 'p256';
  const { privateKey, publicKey } = options.keyOf
    ? { privateKey: options.keyOf.keyObject, publicKey: createPublicKey(options.keyOf.keyObject) }
    : generateKeys(kind);
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const keyId = createHash('sha1').update(spki).digest();
  const name = nameOf(options.cn);
  const signer = options.issuer;
  const usage =
    options.keyUsage ??
    (options.ca ? KEY_USAGE.keyCertSign | KEY_USAGE.cRLSign : KEY_USAGE.digitalSignature | KEY_USAGE.keyEncipherment);
  const sans = (options.dns ?? []).map((host) =>
    isIPv4(host) || isIPv6(host) ? tlv(0x87, ipBytes(host)) : tlv(0x82, Buffer.from(host)),
  );
  const extensions = [
    extension('2.5.29.19', options.ca ? seq(TRUE) : seq(), true),
    ...(options.noKeyUsage ? [] : [extension('2.5.29.15', keyUsageBits(usage), true)]),
    ...(options.ca ? [] : [extension('2.5.29.37', seq(oid('1.3.6.1.5.5.7.3.1')))]),
    ...(sans.length ? [extension('2.5.29.17', seq(...sans))] : []),
    extension('2.5.29.14', octets(keyId)),
    extension('2.5.29.35', seq(tlv(0x80, signer?.keyId ?? keyId))),
  ];
  const signing = options.sha1 ? sha1Signing(signer?.kind ?? kind) : SIGNING[signer?.kind ?? kind];
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(Buffer.concat([Buffer.from([1]), randomBytes(8)])),
    signing.algorithm,
    signer?.name ?? name,
    seq(
      time(options.notBefore ?? new Date(Date.now() - DAY)),
      time(options.notAfter ?? new Date(Date.now() + 365 * DAY)),
    ),
    name,
    spki,
    explicit(3, seq(...extensions)),
  );
  const signature = sign(signing.hash, tbs, signer?.keyObject ?? privateKey);
  const der = seq(tbs, signing.algorithm, bits(signature));
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    keyObject: privateKey,
    kind,
    subject: `CN=${options.cn}`,
    name,
    keyId,
  };
}

export interface Chain {
  root: Issued;
  intermediate: Issued;
  leaf: Issued;
}

/** Root → intermediate → leaf, all of one key kind unless the leaf is told otherwise. */
export function chain(kind: KeyKind, leaf: Partial<IssueOptions> = {}): Chain {
  const root = issue({ kind, cn: `Test Root ${kind}`, ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const intermediate = issue({ cn: `Test Intermediate ${kind}`, ca: true, issuer: root });
  const issued = issue({
    cn: '*.cloud.example.test',
    dns: ['*.cloud.example.test'],
    ...leaf,
    issuer: intermediate,
    kind: leaf.kind ?? kind,
  });
  return { root, intermediate, leaf: issued };
}

export interface TestCA extends Issued {
  /** Path of a file holding the CA certificate (for --ca-file / OS_CACERT). */
  file: string;
  /** A server certificate for these hosts (DNS names or IP addresses), or an intermediate CA with `ca`. */
  issue(
    hosts: string[],
    options?: Partial<Pick<IssueOptions, 'cn' | 'ca' | 'notBefore' | 'notAfter' | 'kind' | 'sha1'>>,
  ): Issued;
}

/**
 * A P-256 root CA written to a file, for tests that start HTTPS servers on 127.0.0.1 (a P-256 key is made
 * in well under a millisecond, an RSA-2048 one in about 250 ms: a test about RSA asks for it by kind).
 */
export function createTestCA(name = 'cloudgate test CA'): TestCA {
  const root = issue({ kind: 'p256', cn: name, ca: true });
  const file = join(tempDir('cloudgate-ca-'), 'ca.pem');
  writeFileSync(file, root.cert);
  return {
    ...root,
    file,
    issue: (hosts, options = {}) =>
      issue({
        cn: options.cn ?? hosts[0] ?? 'test',
        dns: options.ca ? undefined : hosts,
        issuer: root,
        notAfter: new Date(Date.now() + 90 * DAY),
        ...options,
      }),
  };
}

/** The private key in one of the PEM encodings operators meet. */
export function keyPem(
  issued: Issued,
  form: 'pkcs8' | 'pkcs1' | 'sec1' | 'encrypted',
  passphrase = 'correct horse',
): string {
  if (form === 'encrypted') {
    return issued.keyObject.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString();
  }
  return issued.keyObject.export({ type: form, format: 'pem' } as never).toString();
}

export function tempDir(prefix = 'cloudgate-pki-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Written private (0600), as a key file should be. */
export function writeFile(dir: string, name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode });
  return path;
}
