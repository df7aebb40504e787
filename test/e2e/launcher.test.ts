import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { createPki, startTlsEndpoint, type Pki, type RunningEndpoint } from '../servers/tls-endpoints.js';

// bin/cloudgate.js run as an installed `cloudgate` is: a plain Node script. Node loads NODE_EXTRA_CA_CERTS
// itself at start-up; cloudgate must trust it with and without --ca-file, and trust --ca-file alone too.
const servers = useIdentityServers();
let pki: Pki;
let endpoint: RunningEndpoint;

beforeAll(async () => {
  pki = createPki();
  const leaf = pki.leaf(['localhost']);
  endpoint = await startTlsEndpoint({ chain: [leaf.cert, pki.intermediate.cert], key: leaf.key });
});
afterAll(async () => {
  await endpoint?.stop();
});

function signin(env: Record<string, string>, args: string[] = [], asProgram = true) {
  // OS_CACERT emptied: only what each test gives is trusted.
  return runCli(['doctor', '--only', 'signin', '--json', ...args], {
    asProgram,
    env: { ...servers.spec.env(), OS_PROJECT_NAME: 'demo', OS_CACERT: '', ...env },
  });
}

function statuses(stdout: string): string[] {
  return (JSON.parse(stdout).checks as { id: string; status: string }[]).map((c) => `${c.id}=${c.status}`);
}

describe('bin/cloudgate.js run as a program', () => {
  it('is a plain Node script, and runs through node alike', async () => {
    expect(readFileSync(BIN, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const asProgram = await runCli(['--version'], { asProgram: true });
    const viaNode = await runCli(['--version']);
    expect(asProgram).toEqual({ code: 0, stdout: viaNode.stdout, stderr: '' });
    expect(asProgram.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers --version itself with the bundled CLI's version", async () => {
    const bundled = await new Promise<string>((resolve, reject) => {
      const cli = new URL('../../dist/cli.js', import.meta.url).href;
      execFile(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { main } = await import(${JSON.stringify(cli)}); await main(['--version']);`,
        ],
        { timeout: 30_000 },
        (error, stdout) => (error ? reject(new Error(error.message, { cause: error })) : resolve(stdout)),
      );
    });
    expect(bundled).toMatch(/^\d+\.\d+\.\d+/);
    for (const flag of ['--version', '-v']) expect((await runCli([flag], { asProgram: true })).stdout).toBe(bundled);
  });

  it('trusts NODE_EXTRA_CA_CERTS without --ca-file', async () => {
    const ok = await signin({ NODE_EXTRA_CA_CERTS: servers.ca.file });
    expect(ok.code).toBe(0);
    expect(statuses(ok.stdout)).toContain('signin.api=ok');
    expect((await signin({ NODE_EXTRA_CA_CERTS: '' })).code).toBe(1);

    // The TLS check names the store that trusted the chain.
    const tls = await runCli(['doctor', '--only', 'tls', '--endpoint', `localhost:${endpoint.port}`, '--json'], {
      asProgram: true,
      env: { NODE_EXTRA_CA_CERTS: pki.rootFile, OS_CACERT: '' },
    });
    expect(tls.code).toBe(0);
    const check = JSON.parse(tls.stdout).checks.find((c: { id: string }) => c.id === `tls.localhost:${endpoint.port}`);
    expect(check.status).toBe('ok');
    expect(check.details.trustStore).toBe(`system + NODE_EXTRA_CA_CERTS ${pki.rootFile}`);
  });

  it('with --ca-file, trusts both the CA file and NODE_EXTRA_CA_CERTS', async () => {
    const both = await signin({ NODE_EXTRA_CA_CERTS: servers.ca.file }, ['--ca-file', pki.rootFile]);
    expect(both.code).toBe(0);
    expect(statuses(both.stdout)).toContain('signin.api=ok');
    const tls = await runCli(
      ['doctor', '--only', 'tls', '--endpoint', `localhost:${endpoint.port}`, '--ca-file', pki.rootFile, '--json'],
      {
        asProgram: true,
        env: { NODE_EXTRA_CA_CERTS: servers.ca.file, OS_CACERT: '' },
      },
    );
    expect(tls.code).toBe(0);
    const caFileOnly = await signin({ NODE_EXTRA_CA_CERTS: '' }, ['--ca-file', servers.ca.file]);
    expect(caFileOnly.code).toBe(0);
    const wrongCaFile = await signin({ NODE_EXTRA_CA_CERTS: '' }, ['--ca-file', pki.rootFile]);
    expect(wrongCaFile.code).toBe(1);
    expect(wrongCaFile.stdout).toContain('unknown certificate authority');
  });

  it('ends a second after the run, even when something the run gave up on keeps Node running', async () => {
    // A handle that never ends stands for what a run cannot cancel at its deadline: a DNS lookup
    // waiting out the system resolver's retries.
    const dir = mkdtempSync(join(tmpdir(), 'cg-launcher-'));
    const keepAlive = join(dir, 'keep-alive.cjs');
    writeFileSync(keepAlive, 'setInterval(() => {}, 60_000);\n');
    const inventory = new URL('../fixtures/inventory/good.yml', import.meta.url).pathname;
    try {
      const result = await new Promise<{ code: number | null; killed: boolean; stdout: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--require', keepAlive, BIN, 'doctor', '--only', 'inventory', '--inventory', inventory, '--json'],
          { timeout: 20_000, env: { ...process.env, CI: 'true' } },
          (_error, stdout) => resolve({ code: child.exitCode, killed: child.killed, stdout }),
        );
      });
      expect({ code: result.code, killed: result.killed }).toEqual({ code: 0, killed: false });
      expect(statuses(result.stdout)).toEqual(['inventory.valid=ok']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ignores an unreadable NODE_EXTRA_CA_CERTS with Node's own warning", async () => {
    const result = await signin({ NODE_EXTRA_CA_CERTS: '/nonexistent/extra.pem' }, ['--ca-file', servers.ca.file]);
    expect(result.code).toBe(0);
    const untrusted = await signin({ NODE_EXTRA_CA_CERTS: '/nonexistent/extra.pem' });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('Ignoring extra certs from `/nonexistent/extra.pem`');
    expect(JSON.parse(untrusted.stdout).summary.fail).toBe(1);
  });
});

describe('bin/cloudgate.js keeps compiled code for the next run (Node 22 and later)', () => {
  // This Node has module.enableCompileCache (22 and later): .ci/run runs the suite on Node 20 and the active LTS.
  const supported = 'enableCompileCache' in nodeModule;
  const home = () => mkdtempSync(join(tmpdir(), 'cg-compile-home-'));
  // Unset (not empty: Node takes any NODE_DISABLE_COMPILE_CACHE as off).
  const help = (env: NodeJS.ProcessEnv) =>
    runCli(['--help'], { env: { XDG_CACHE_HOME: undefined, NODE_DISABLE_COMPILE_CACHE: undefined, ...env } });

  it(`${supported ? 'in' : 'not on this Node: no'} cloudgate/compile under ~/.cache, the user's alone`, async () => {
    const dir = home();
    expect((await help({ HOME: dir })).code).toBe(0);
    const cache = join(dir, '.cache', 'cloudgate', 'compile');
    expect(existsSync(cache)).toBe(supported);
    if (supported) {
      expect(statSync(cache).mode & 0o777).toBe(0o700);
      const [versioned] = readdirSync(cache);
      expect(versioned).toMatch(new RegExp(`^${process.version}-`));
      expect(readdirSync(join(cache, versioned)).length).toBeGreaterThan(0);
    }
  });

  it('under $XDG_CACHE_HOME when it is an absolute path', async () => {
    const dir = home();
    expect((await help({ HOME: dir, XDG_CACHE_HOME: join(dir, 'xdg') })).code).toBe(0);
    expect(existsSync(join(dir, 'xdg', 'cloudgate', 'compile'))).toBe(supported);
    expect(existsSync(join(dir, '.cache'))).toBe(false);
  });

  it('never in a folder others can write to, or under one; the command runs all the same', async () => {
    const open = home();
    mkdirSync(join(open, '.cache', 'cloudgate', 'compile'), { recursive: true });
    chmodSync(join(open, '.cache', 'cloudgate', 'compile'), 0o777);
    const shared = home();
    chmodSync(shared, 0o770);
    for (const dir of [open, shared]) {
      const result = await help({ HOME: dir });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: cloudgate');
      const cache = join(dir, '.cache', 'cloudgate', 'compile');
      expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
    }
  });
});
