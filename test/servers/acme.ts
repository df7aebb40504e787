/**
 * ACME directories on 127.0.0.1: Debian's `pebble` (a real ACME server) when installed, and a small
 * local one whose answers can be broken on purpose (no newOrder, no Replay-Nonce, HTML, EAB required).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCA } from '../helpers/pki.js';
import { requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';

export interface AcmeServer {
  /** The directory URL. */
  url: string;
  stop(): Promise<void>;
}

export interface LocalAcmeOptions {
  omit?: string[];
  noNonce?: boolean;
  html?: boolean;
  externalAccountRequired?: boolean;
  status?: number;
}

export async function startLocalAcme(ca: TestCA, options: LocalAcmeOptions = {}): Promise<AcmeServer> {
  const { cert, key } = ca.issue(['localhost', '127.0.0.1']);
  let base = '';
  const server: Server = createHttpsServer({ cert, key }, (req, res) => {
    if (req.url === '/directory') {
      if (options.html) {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Welcome</title></head></html>');
        return;
      }
      const directory: Record<string, unknown> = {
        newNonce: `${base}/nonce`,
        newAccount: `${base}/account`,
        newOrder: `${base}/order`,
        revokeCert: `${base}/revoke`,
        keyChange: `${base}/key-change`,
        meta: { termsOfService: `${base}/terms`, externalAccountRequired: options.externalAccountRequired ?? false },
      };
      for (const name of options.omit ?? []) delete directory[name];
      res.writeHead(options.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(directory));
    } else if (req.url === '/nonce') {
      res.writeHead(200, options.noNonce ? {} : { 'replay-nonce': 'bm9uY2Utb25l', 'cache-control': 'no-store' }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as { port: number }).port}`;
  return { url: `${base}/directory`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** For `it.skipIf(!requirePebble())`: false outside CI when pebble is missing, a failure under CI. */
export const requirePebble = () => requireTool('pebble', 'pebble');

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs the real pebble with a certificate from the test CA; resolves once its directory answers. */
export async function startPebble(ca: TestCA): Promise<AcmeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-pebble-'));
  const { cert, key } = ca.issue(['localhost', '127.0.0.1']);
  writeFileSync(join(dir, 'cert.pem'), cert);
  writeFileSync(join(dir, 'key.pem'), key);
  const [port, management] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: join(dir, 'cert.pem'),
        privateKey: join(dir, 'key.pem'),
        httpPort: 5002,
        tlsPort: 5001,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child: ChildProcess = spawn('pebble', ['-config', join(dir, 'config.json')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1' },
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `https://localhost:${port}/dir`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  // pebble logs "Listening on" just before it listens: the port accepting a connection is the signal.
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
  try {
    await waitUntil(
      `pebble on 127.0.0.1:${port}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`pebble exited with ${child.exitCode}; its log:\n${log}`);
        return accepts();
      },
      { timeoutMs: 20_000, lastSeen: () => log },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
