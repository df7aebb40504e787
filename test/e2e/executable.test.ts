/**
 * The single executable (`npm run build:exe`), built here from the sources with the active LTS from the
 * cache (scripts/node-lines.mjs; nothing is downloaded: .ci/run installs it, and outside CI the tests are
 * skipped with that reason), then run as an operator runs it on a host with no Node: setup with answers
 * and in a terminal, doctor against real servers on 127.0.0.1, render (the bundled CRD validators), oidc
 * (the templates it carries) and serve. V8's coverage (NODE_V8_COVERAGE, which the executable honours as
 * Node does) shows which of its bundled modules a run evaluated: each is a function named after its file.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';
import { underCI } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const REALISTIC = join(ROOT, 'test/fixtures/inventory/realistic.yml');

/** Whether the active LTS is in the cache; under CI its absence fails the file instead. */
function activeLtsInstalled(): boolean {
  const found = spawnSync(process.execPath, [join(ROOT, 'scripts/node-lines.mjs'), 'path'], { encoding: 'utf8' });
  if (found.status === 0) return true;
  const message = `${found.stderr.trim()} (.ci/run installs it)`;
  if (underCI()) throw new Error(`${message}. CI is set, so the executable's tests fail instead of being skipped.`);
  console.warn(`skipped: the single executable's tests: ${message}`);
  return false;
}

const dir = mkdtempSync(join(tmpdir(), 'cloudgate-exe-e2e-'));
const EXE = join(dir, 'cloudgate');
// A folder holding no node: the PATH of every run, as on a host without Node.
const NO_NODE = mkdtempSync(join(tmpdir(), 'cloudgate-exe-path-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}, cwd = dir): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(EXE, args, {
      cwd,
      env: { PATH: NO_NODE, HOME: dir, CI: 'true', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/** The bundled modules a run of the executable evaluated, by their file (`node_modules/ink/build/ink.js`). */
function evaluatedModules(coverageDir: string): { evaluated: string[]; bundled: string[] } {
  const files = readdirSync(coverageDir).map((f) => JSON.parse(readFileSync(join(coverageDir, f), 'utf8')) as Coverage);
  const script = files.flatMap((f) => f.result).find((r) => r.url === `file://${EXE}`);
  expect(script, "the executable's own script in the coverage").toBeDefined();
  const modules = script!.functions.filter((f) => /^(src|node_modules)\/.+\.(ts|tsx|js|cjs|mjs)$/.test(f.functionName));
  return {
    evaluated: modules.filter((f) => f.ranges[0].count > 0).map((f) => f.functionName),
    bundled: modules.map((f) => f.functionName),
  };
}

async function withCoverage(args: string[]): Promise<{ run: Run; modules: ReturnType<typeof evaluatedModules> }> {
  const coverage = mkdtempSync(join(dir, 'coverage-'));
  const result = await run(args, { NODE_V8_COVERAGE: coverage });
  return { run: result, modules: evaluatedModules(coverage) };
}

const UI_LIBRARIES = /^node_modules\/(ink|react|react-reconciler|yoga-layout)\//;

const built = activeLtsInstalled();
const servers = useIdentityServers();

beforeAll(() => {
  if (!built) return;
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-exe.mjs'), '--out', EXE, '--offline'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(build.stderr).toContain('with code cache');
  expect(build.status).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!built)('the single executable', () => {
  it('runs on a host without Node: --version from package.json, one file', async () => {
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: NO_NODE } }).status).not.toBe(0);
    const r = await run(['--version']);
    expect(r).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(statSync(EXE).mode & 0o111).toBe(0o111);
  });

  it('--help evaluates none of Ink and React; doctor evaluates the YAML library and still no Ink', async () => {
    const help = await withCoverage(['--help']);
    expect(help.run.code).toBe(0);
    expect(help.run.stdout).toContain('Usage: cloudgate <command>');
    // They are in the executable, and were not run.
    expect(help.modules.bundled.filter((m) => UI_LIBRARIES.test(m)).length).toBeGreaterThan(20);
    expect(help.modules.evaluated.filter((m) => UI_LIBRARIES.test(m))).toEqual([]);
    expect(help.modules.evaluated.filter((m) => m.startsWith('node_modules/yaml/'))).toEqual([]);

    const doctor = await withCoverage(['doctor', '--only', 'inventory', '--inventory', REALISTIC]);
    expect(doctor.run.code).toBe(0);
    // It carries its own code cache: no compile cache in its HOME, as bin/cloudgate.js keeps on Node 22 and later.
    expect(existsSync(join(dir, '.cache'))).toBe(false);
    expect(doctor.modules.evaluated.filter((m) => m.startsWith('node_modules/yaml/')).length).toBeGreaterThan(0);
    expect(doctor.modules.evaluated.filter((m) => UI_LIBRARIES.test(m))).toEqual([]);
  });

  it('setup --answers writes the inventory', async () => {
    const inventory = join(dir, 'certificates.yml');
    copyFileSync(REALISTIC, inventory);
    const answers = join(dir, 'answers.yml');
    writeFileSync(answers, 'cluster_issuer_acme_email: pki-exe@example.com\n');
    const r = await run(['setup', '--answers', answers, '--inventory', inventory, '--yes']);
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.code).toBe(0);
    expect(readFileSync(inventory, 'utf8')).toContain('pki-exe@example.com');
  });

  it('doctor against the test identity services on 127.0.0.1: every sign-in step ok', async () => {
    const r = await run(['doctor', '--only', 'signin', '--json'], { ...servers.spec.env(), OS_PROJECT_NAME: 'demo' });
    expect(r.code).toBe(0);
    const checks = (JSON.parse(r.stdout) as { checks: { id: string; status: string }[] }).checks;
    expect(checks.filter((c) => c.status !== 'skip').map((c) => `${c.id}=${c.status}`)).toEqual([
      'signin.exchange=ok',
      'signin.claims=ok',
      'signin.federated=ok',
      'signin.projects=ok',
      'signin.scope=ok',
      'signin.api=ok',
    ]);
  });

  it('render checks objects with the CRD validators it carries', async () => {
    // A PEM text where the CRD wants base64 ("byte"): only cert-manager's schemas refuse it.
    const r = await run([
      'render',
      '--inventory',
      join(ROOT, 'test/fixtures/render/platform/venafi-pem-bundle.yml'),
      '--json',
    ]);
    expect(r.code).toBe(2);
    const findings = (JSON.parse(r.stdout) as { findings: { rule: string; variable: string; message: string }[] })
      .findings;
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'platform-schema',
        variable: 'cluster_issuer_venafi_tpp_ca_bundle',
        message: expect.stringContaining('cert-manager v1.15.5 and v1.21.1 schemas'),
      }),
    ]);
  });

  it('oidc fills the templates it carries', async () => {
    const r = await run([
      'oidc',
      '--issuer-url',
      'https://oidc.example.com/c1',
      '--account',
      '123456789012',
      '--thumbprint',
      `AB:CD:${'EF:'.repeat(17)}EF`,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: Record<string, unknown> }).files;
    expect(Object.keys(files)).toEqual(expect.arrayContaining(readdirSync(join(ROOT, 'templates/oidc'))));
    expect(files['trust-policy.json']).toMatchObject({
      Statement: [expect.objectContaining({ Action: 'sts:AssumeRoleWithWebIdentity' })],
    });
    expect(files['apiserver-flags.txt']).toContain(
      '--service-account-jwks-uri=https://oidc.example.com/c1/openid/v1/jwks',
    );
  });

  it('serve: metrics of a run, build info, and SIGTERM ends it', async () => {
    const child = spawn(EXE, ['serve', '--listen', '127.0.0.1:0', '--interval', '1h', '--only', 'signin'], {
      env: { PATH: NO_NODE, HOME: dir, CI: 'true', NO_COLOR: '1', ...servers.spec.env(), OS_PROJECT_NAME: 'demo' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const address = await waitUntil(
        'serve to log "Listening on"',
        () => stderr.match(/Listening on http:\/\/(\S+) /)?.[1],
        { timeoutMs: 15_000, lastSeen: () => stderr },
      );
      const metrics = await waitUntil(
        "the first run's metrics",
        async () => {
          const text = await fetch(`http://${address}/metrics`).then(
            (res) => res.text(),
            () => '',
          );
          return text.includes('cloudgate_signin_success') && text;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(metrics).toContain('cloudgate_signin_success 1');
      expect(metrics).toContain(`cloudgate_build_info{version="${VERSION}"} 1`);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(stderr).toContain('Stopped (SIGTERM)');
    } finally {
      child.kill('SIGKILL');
    }
  });

  describe('in a terminal', () => {
    let term: Terminal | undefined;
    afterAll(() => term?.kill());

    it('the walkthrough draws, takes keys, and Ctrl+C leaves nothing written; Ink was evaluated', async () => {
      const work = mkdtempSync(join(dir, 'tty-'));
      const coverage = mkdtempSync(join(dir, 'coverage-'));
      term = launchCloudgate(['setup', '--inventory', join(work, 'certificates.yml')], {
        cwd: work,
        program: [EXE],
        env: { NODE_V8_COVERAGE: coverage },
      });
      await term.waitFor('question 1 of');
      await term.press('Down');
      term.send('C-c');
      await term.waitFor('EXIT=130');
      expect(readdirSync(work)).toEqual([]);
      expect(evaluatedModules(coverage).evaluated).toContain('node_modules/ink/build/index.js');
    });
  });
});
