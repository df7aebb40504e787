/**
 * A throw-away certificate authority for tests that start HTTPS servers on 127.0.0.1.
 * Keys come from node:crypto (fast); certificates are assembled with node-forge (RSA only,
 * which is all a test server needs; ECDSA/Ed25519 material lives with the TLS toolkit tests).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';

export interface Pem {
  cert: string;
  key: string;
}

export interface TestCA extends Pem {
  /** Path of a file holding the CA certificate (for --ca-file / OS_CACERT). */
  file: string;
  issue(hosts: string[], options?: IssueOptions): Pem;
}

export interface IssueOptions {
  notBefore?: Date;
  notAfter?: Date;
  commonName?: string;
  /** Issue as an intermediate CA instead of a server certificate. */
  ca?: boolean;
}

const DAY = 86_400_000;

function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    forgePublic: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    forgePrivate: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
  };
}

function serial() {
  return '01' + randomBytes(8).toString('hex');
}

export function createTestCA(name = 'cloudgate test CA'): TestCA {
  const pair = rsaPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.forgePublic;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 365 * DAY);
  const subject = [{ name: 'commonName', value: name }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(pair.forgePrivate, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-ca-'));
  const file = join(dir, 'ca.pem');
  writeFileSync(file, certPem);

  return {
    cert: certPem,
    key: pair.keyPem,
    file,
    issue(hosts, options = {}) {
      const leafPair = rsaPair();
      const leaf = forge.pki.createCertificate();
      leaf.publicKey = leafPair.forgePublic;
      leaf.serialNumber = serial();
      leaf.validity.notBefore = options.notBefore ?? new Date(Date.now() - DAY);
      leaf.validity.notAfter = options.notAfter ?? new Date(Date.now() + 90 * DAY);
      leaf.setSubject([{ name: 'commonName', value: options.commonName ?? hosts[0] ?? 'test' }]);
      leaf.setIssuer(cert.subject.attributes);
      const altNames = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 7, ip: h } : { type: 2, value: h }));
      leaf.setExtensions(
        options.ca
          ? [
              { name: 'basicConstraints', cA: true, critical: true },
              { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
            ]
          : [
              { name: 'basicConstraints', cA: false },
              { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
              { name: 'extKeyUsage', serverAuth: true },
              { name: 'subjectAltName', altNames },
            ],
      );
      leaf.sign(pair.forgePrivate, forge.md.sha256.create());
      return { cert: forge.pki.certificateToPem(leaf), key: leafPair.keyPem };
    },
  };
}
