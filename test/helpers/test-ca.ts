/**
 * Throw-away certificates for tests that start HTTPS servers on 127.0.0.1. Keys come from
 * node:crypto (fast); certificates are assembled with node-forge (RSA only, which is all a test
 * server needs; ECDSA/Ed25519 material lives with the TLS toolkit tests in pki.ts).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';

export interface Issued {
  cert: string;
  key: string;
}
export type Pem = Issued;

export interface IssueSpec {
  commonName: string;
  /** DNS names or IP addresses for subjectAltName (leaves only). */
  hosts?: string[];
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** Signer; absent = self-signed. */
  issuer?: Issued;
}

const DAY = 86_400_000;

/** One certificate (a CA or a server leaf) and its new RSA key, signed by `issuer` or by itself. */
export function issueCertificate(spec: IssueSpec): Issued {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = spec.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = spec.notAfter ?? new Date(Date.now() + 90 * DAY);
  cert.setSubject([{ name: 'commonName', value: spec.commonName }]);
  const signerCert = spec.issuer ? forge.pki.certificateFromPem(spec.issuer.cert) : cert;
  cert.setIssuer(signerCert.subject.attributes);
  const altNames = (spec.hosts ?? []).map((h) => (/^[\d.]+$|:/.test(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  cert.setExtensions(
    spec.ca
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
          { name: 'subjectKeyIdentifier' },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
        ],
  );
  const signerKey = forge.pki.privateKeyFromPem(spec.issuer ? spec.issuer.key : keyPem);
  cert.sign(signerKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

export interface TestCA extends Issued {
  /** Path of a file holding the CA certificate (for --ca-file / OS_CACERT). */
  file: string;
  issue(hosts: string[], options?: IssueOptions): Issued;
}

export interface IssueOptions {
  notBefore?: Date;
  notAfter?: Date;
  commonName?: string;
  /** Issue as an intermediate CA instead of a server certificate. */
  ca?: boolean;
}

export function createTestCA(name = 'cloudgate test CA'): TestCA {
  const root = issueCertificate({ commonName: name, ca: true, notAfter: new Date(Date.now() + 365 * DAY) });
  const file = join(mkdtempSync(join(tmpdir(), 'cloudgate-ca-')), 'ca.pem');
  writeFileSync(file, root.cert);
  return {
    ...root,
    file,
    issue: (hosts, options = {}) =>
      issueCertificate({ commonName: options.commonName ?? hosts[0] ?? 'test', hosts: options.ca ? undefined : hosts, issuer: root, ...options }),
  };
}
