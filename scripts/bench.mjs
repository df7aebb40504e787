// Speed figures (`npm run bench`, after a build). Each section is one function; prints, asserts nothing.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket } from 'node:tls';
import forge from 'node-forge';

const BIN = new URL('../bin/cloudgate.js', import.meta.url).pathname;

function runCli(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout, ms: performance.now() - started }));
  });
}

// --- tls: doctor --only tls over 50 local endpoints, each answering the handshake after 100 ms (target < 1 s) ---
function selfSignedLocalhost() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 90 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer([{ name: 'commonName', value: 'localhost' }]);
  cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

async function benchTls({ endpoints = 50, delayMs = 100 } = {}) {
  const { cert, key } = selfSignedLocalhost();
  const caFile = join(mkdtempSync(join(tmpdir(), 'cloudgate-bench-')), 'ca.pem');
  writeFileSync(caFile, cert);
  const context = createSecureContext({ cert, key });
  const servers = await Promise.all(
    Array.from({ length: endpoints }, () => {
      const server = createServer((socket) => {
        socket.on('error', () => undefined);
        setTimeout(() => new TLSSocket(socket, { isServer: true, secureContext: context }).on('error', () => undefined), delayMs);
      });
      return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
    }),
  );
  const args = ['doctor', '--only', 'tls', '--ca-file', caFile, '--json'];
  for (const s of servers) args.push('--endpoint', `localhost:${s.address().port}`);
  const result = await runCli(args);
  for (const s of servers) s.close();
  const report = JSON.parse(result.stdout || '{"summary":{}}');
  console.log(`tls: doctor --only tls, ${endpoints} endpoints each delayed ${delayMs} ms: ${Math.round(result.ms)} ms in total ` +
    `(checks ${report.durationMs} ms; ok ${report.summary.ok ?? 0}, fail ${report.summary.fail ?? 0}); target < 1000 ms`);
}

await benchTls();
