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

// --- shared harness: median wall time of a command over several runs, and a table of figures ---
export async function median(command, runs = 15) {
  const [file, ...args] = command;
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await new Promise((resolve) => {
      const child = spawn(file, args, { env: { ...process.env, CI: 'true' }, stdio: 'ignore' });
      child.on('close', resolve);
    });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export function printTable(title, rows) {
  const header = ['', 'median ms', 'ratio', 'target', ''];
  const body = rows.map((r) => [r.name, r.ms.toFixed(1), r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.target === undefined ? '' : `<= ${r.target}x`, r.target === undefined ? '' : r.ratio <= r.target ? 'ok' : 'OVER']);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => row[i].length)));
  console.log(title);
  for (const row of [header, ...body]) console.log('  ' + row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
}

// --- startup: --version, --help and doctor --only inventory as a ratio to `node -e 0` (targets 2x, 2x, 4x) ---
async function benchStartup(runs = 15) {
  const inventory = new URL('../test/fixtures/inventory/realistic.yml', import.meta.url).pathname;
  const node = [process.execPath];
  const baseline = await median([...node, '-e', '0'], runs);
  const rows = [{ name: 'node -e 0', ms: baseline }];
  for (const [name, args, target] of [
    ['cloudgate --version', ['--version'], 2],
    ['cloudgate --help', ['--help'], 2],
    ['cloudgate doctor --only inventory', ['doctor', '--only', 'inventory', '--inventory', inventory], 4],
  ]) {
    const ms = await median([...node, BIN, ...args], runs);
    rows.push({ name, ms, ratio: ms / baseline, target });
  }
  printTable(`startup (median of ${runs} runs each, same machine, same run):`, rows);
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

await benchStartup();
await benchTls();
