/**
 * Test PKI for the TLS toolkit: roots, intermediates and leaves with RSA, ECDSA (P-256, P-384) or
 * Ed25519 keys, made at test time with @peculiar/x509 over Node's WebCrypto. Dates are relative to
 * now, so nothing here goes stale.
 */
import 'reflect-metadata';
import { createPrivateKey, webcrypto, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export type KeyKind = 'rsa' | 'p256' | 'p384' | 'ed25519';
export const KEY_KINDS: KeyKind[] = ['rsa', 'p256', 'p384', 'ed25519'];

export const DAY = 86_400_000;

export interface Issued {
  /** PEM of the certificate. */
  cert: string;
  /** PKCS#8 PEM of the private key. */
  key: string;
  keyObject: KeyObject;
  kind: KeyKind;
  subject: string;
  keys: CryptoKeyPair;
}

export interface IssueOptions {
  kind?: KeyKind;
  /** Common name; the subject is `CN=<cn>`. */
  cn: string;
  /** DNS names for the subjectAltName extension. */
  dns?: string[];
  /** Signer; self-signed when absent. */
  issuer?: Issued;
  ca?: boolean;
  /** Key usage flags; CA default keyCertSign+cRLSign, leaf default digitalSignature+keyEncipherment. */
  keyUsage?: number;
  /** Leave out the key usage extension. */
  noKeyUsage?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** Reuse this key pair instead of generating one. */
  keys?: CryptoKeyPair;
}

const ALGORITHMS: Record<KeyKind, { gen: RsaHashedKeyGenParams | EcKeyGenParams | Algorithm; sign: Algorithm | EcdsaParams }> = {
  rsa: {
    gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    sign: { name: 'RSASSA-PKCS1-v1_5' },
  },
  p256: { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } as EcdsaParams },
  p384: { gen: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } as EcdsaParams },
  ed25519: { gen: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
};

export async function generateKeys(kind: KeyKind): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHMS[kind].gen as never, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export async function issue(options: IssueOptions): Promise<Issued> {
  const kind = options.kind ?? options.issuer?.kind ?? 'p256';
  const keys = options.keys ?? (await generateKeys(kind));
  const signer = options.issuer;
  const usage =
    options.keyUsage ??
    (options.ca
      ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
      : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment);
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(Boolean(options.ca), undefined, true)];
  if (!options.noKeyUsage) extensions.push(new x509.KeyUsagesExtension(usage, true));
  if (options.dns?.length) {
    extensions.push(new x509.SubjectAlternativeNameExtension(options.dns.map((value) => ({ type: 'dns' as const, value }))));
  }
  const subject = `CN=${options.cn}`;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01' + Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    subject,
    issuer: signer?.subject ?? subject,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
    publicKey: keys.publicKey,
    signingKey: (signer?.keys ?? keys).privateKey,
    signingAlgorithm: ALGORITHMS[signer?.kind ?? kind].sign,
    extensions,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyObject = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  return {
    cert: cert.toString('pem') + '\n',
    key: keyObject.export({ type: 'pkcs8', format: 'pem' }).toString(),
    keyObject,
    kind,
    subject,
    keys,
  };
}

export interface Chain {
  root: Issued;
  intermediate: Issued;
  leaf: Issued;
}

/** Root → intermediate → leaf, all of one key kind unless the leaf is told otherwise. */
export async function chain(kind: KeyKind, leaf: Partial<IssueOptions> = {}): Promise<Chain> {
  const root = await issue({ kind, cn: `Test Root ${kind}`, ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const intermediate = await issue({ cn: `Test Intermediate ${kind}`, ca: true, issuer: root });
  const issued = await issue({ cn: '*.cloud.example.test', dns: ['*.cloud.example.test'], ...leaf, issuer: intermediate, kind: leaf.kind ?? kind });
  return { root, intermediate, leaf: issued };
}

/** The private key in one of the PEM encodings operators meet. */
export function keyPem(issued: Issued, form: 'pkcs8' | 'pkcs1' | 'sec1' | 'encrypted', passphrase = 'correct horse'): string {
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
