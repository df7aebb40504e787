/**
 * Debian's BIND `named` for the RFC 2136 checks: a primary zone on 127.0.0.1 at a free port, a TSIG
 * key made by `tsig-keygen`, queries and updates allowed only with that key. Runs in the foreground
 * (`-g`) from a temporary folder; `stop()` kills it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool, toolRuns } from '../helpers/tools.js';

export const hasNamed = toolRuns('named') && toolRuns('tsig-keygen');
/** For `describe.skipIf(!requireNamed())`: false outside CI when bind9 is missing, a failure under CI. */
export const requireNamed = () => requireTool('named', 'bind9') && requireTool('tsig-keygen', 'bind9');

export interface KeyFile {
  name: string;
  algorithm: string;
  secret: string;
  /** The `key "name" { ... };` block as tsig-keygen prints it. */
  text: string;
}

/** A fresh key from the real tsig-keygen. */
export function tsigKeygen(name: string, algorithm = 'hmac-sha256'): KeyFile {
  const out = spawnSync('tsig-keygen', ['-a', algorithm, name], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`tsig-keygen failed: ${out.stderr}`);
  const secret = /secret "([^"]+)"/.exec(out.stdout)![1]!;
  return { name, algorithm, secret, text: out.stdout };
}

export interface RunningNamed {
  port: number;
  zone: string;
  key: KeyFile;
  dir: string;
  /** The zone's journal as named-journalprint shows it: one "add"/"del" line per change named committed. */
  journal(): string[];
  stop(): Promise<void>;
}

export interface NamedOptions {
  zone?: string;
  key?: KeyFile;
  /** Updates of TXT records under the zone only (cert-manager's policy), and queries without a key. */
  txtUpdatesOnly?: boolean;
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** "running" is logged a moment before the UDP socket answers: wait for any DNS answer. */
async function answering(port: number): Promise<void> {
  const query = Buffer.from('abcd0000000100000000000000000600010000', 'hex'); // SOA of "."
  for (let attempt = 0; attempt < 50; attempt++) {
    const socket = createSocket('udp4');
    const answered = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 200);
      socket.on('error', () => setTimeout(() => resolve(false), 100));
      socket.on('message', () => {
        clearTimeout(timer);
        resolve(true);
      });
      socket.connect(port, '127.0.0.1', () => socket.send(query));
    });
    socket.close();
    if (answered) return;
  }
  throw new Error(`named does not answer on 127.0.0.1:${port}`);
}

export async function startNamed(options: NamedOptions = {}): Promise<RunningNamed> {
  const zone = options.zone ?? 'example.test';
  const key = options.key ?? tsigKeygen('cert-manager');
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-named-'));
  const port = await freeUdpPort();
  writeFileSync(join(dir, 'tsig.key'), key.text);
  writeFileSync(
    join(dir, `${zone}.zone`),
    [
      '$TTL 300',
      `@ IN SOA ns1.${zone}. hostmaster.${zone}. 1 3600 600 86400 300`,
      `@ IN NS ns1.${zone}.`,
      'ns1 IN A 127.0.0.1',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'named.conf'),
    `
include "${join(dir, 'tsig.key')}";
options {
  directory "${dir}";
  pid-file "${join(dir, 'named.pid')}";
  session-keyfile "${join(dir, 'session.key')}";
  managed-keys-directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
${options.txtUpdatesOnly ? '' : `  allow-query { key "${key.name}"; };\n`}};
controls { };
zone "${zone}" {
  type primary;
  file "${join(dir, `${zone}.zone`)}";
  ${options.txtUpdatesOnly ? `update-policy { grant ${key.name} zonesub TXT; };` : `allow-update { key "${key.name}"; };`}
};
`,
  );
  const child: ChildProcess = spawn('named', ['-g', '-c', join(dir, 'named.conf'), '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`named did not start within 15 s:\n${log}`)), 15_000);
    child.stderr!.on('data', (d) => {
      log += d;
      if (/running/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`named exited (${code}):\n${log}`));
    });
  });
  await answering(port);
  return {
    port,
    zone,
    key,
    dir,
    journal: () => {
      const out = spawnSync('named-journalprint', [join(dir, `${zone}.zone.jnl`)], { encoding: 'utf8' });
      return (out.stdout ?? '').split('\n').filter((line) => /^(add|del) /.test(line) && !/\sSOA\s/.test(line));
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
