/**
 * `cloudgate serve` (the built binary) against the local identity and TLS test servers, scraped by a
 * real Prometheus; and `doctor --format junit|prometheus --output`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { startTlsEndpoint, type RunningEndpoint } from '../servers/tls-endpoints.js';

const servers = useIdentityServers();
let endpoint: RunningEndpoint;
const dir = mkdtempSync(join(tmpdir(), 'cloudgate-serve-e2e-'));

beforeAll(async () => {
  const leaf = servers.ca.issue(['localhost']);
  endpoint = await startTlsEndpoint({ chain: [leaf.cert], key: leaf.key });
});
afterAll(async () => endpoint?.stop());

function env(): NodeJS.ProcessEnv {
  return { ...process.env, ...servers.spec.env(), OS_PROJECT_NAME: 'demo', CI: 'true', NO_COLOR: '1' };
}

interface Served {
  child: ChildProcess;
  address: string;
  stderr: () => string;
  exit: Promise<number | null>;
}

async function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--listen', '127.0.0.1:0', ...args], {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const address = await waitUntil(
    'serve to log "Listening on"',
    () => stderr.match(/Listening on http:\/\/(\S+) /)?.[1],
    { timeoutMs: 10_000, lastSeen: () => stderr },
  );
  return { child, address, stderr: () => stderr, exit };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  return waitUntil(what, () => probe().catch(() => undefined), { timeoutMs, intervalMs: 200 });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function secrets(): string[] {
  const s = servers.spec;
  return [...s.issued, s.clientSecret, s.subjectToken];
}

describe('cloudgate serve', () => {
  it('serves the last run as metrics that Prometheus scrapes; SIGTERM stops it within a second', async () => {
    const serve = await startServe([
      '--interval',
      '2s',
      '--only',
      'signin,tls',
      '--endpoint',
      `localhost:${endpoint.port}`,
    ]);
    let prometheus: ChildProcess | undefined;
    try {
      const checks = await until('the first run', async () => {
        const res = await fetch(`http://${serve.address}/checks`);
        return res.status === 200 ? await res.json() : undefined;
      });
      expect(checks.schema).toBe('cloudgate.doctor/v1');
      expect(checks.checks.find((c: { id: string }) => c.id === 'signin.api').status).toBe('ok');

      const metrics = await (await fetch(`http://${serve.address}/metrics`)).text();
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: metrics, encoding: 'utf8' });
      expect(lint.stdout + lint.stderr).toBe('');
      expect(lint.status).toBe(0);
      expect(metrics).toContain('cloudgate_signin_success 1');
      expect(metrics).toContain(
        `cloudgate_check_status{group="tls",id="tls.localhost:${endpoint.port}",status="ok"} 1`,
      );
      expect(metrics).toMatch(
        new RegExp(
          `cloudgate_certificate_expiry_timestamp_seconds\\{source="localhost:${endpoint.port}",subject="localhost"\\} \\d+`,
        ),
      );
      expect(metrics).toMatch(/cloudgate_token_expiry_timestamp_seconds\{token="signin.scope"\} \d+/);
      const checksText = await (await fetch(`http://${serve.address}/checks`)).text();
      for (const secret of secrets()) {
        expect(metrics).not.toContain(secret);
        expect(checksText).not.toContain(secret);
      }

      // A scrape never triggers a run: the identity server sees no request from scrapes alone.
      // Judged only over a window no run touched: idle before and after, and no run finished in between.
      const health = () =>
        fetch(`http://${serve.address}/healthz`).then((r) => r.json()) as Promise<{ runs: number; running: boolean }>;
      let judged = false;
      for (let attempt = 0; attempt < 20 && !judged; attempt++) {
        const first = await health();
        const before = servers.spec.requests.length;
        await Promise.all(
          Array.from({ length: 20 }, () => fetch(`http://${serve.address}/metrics`).then((r) => r.text())),
        );
        const after = servers.spec.requests.length;
        const last = await health();
        if (first.running || last.running || first.runs !== last.runs) continue;
        expect(after).toBe(before);
        judged = true;
      }
      expect(judged).toBe(true);

      // A real Prometheus with a static scrape config on 127.0.0.1.
      const port = await freePort();
      const config = join(dir, 'prometheus.yml');
      writeFileSync(
        config,
        `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: cloudgate\n    static_configs:\n      - targets: ['${serve.address}']\n`,
      );
      prometheus = spawn(
        'prometheus',
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${mkdtempSync(join(dir, 'tsdb-'))}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: 'ignore' },
      );
      const query = async (q: string) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
        const body = (await res.json()) as {
          data: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        return body.data.result.length ? body.data.result : undefined;
      };
      const up = await until('up == 1 in Prometheus', () => query('up{job="cloudgate"} == 1'), 60_000);
      expect(up[0]!.metric.instance).toBe(serve.address);
      const status = await until('cloudgate_check_status in Prometheus', () =>
        query('cloudgate_check_status{id="signin.api",status="ok"}'),
      );
      expect(status[0]!.value[1]).toBe('1');
      expect(status[0]!.metric).toMatchObject({ group: 'signin', id: 'signin.api', job: 'cloudgate' });

      const t0 = performance.now();
      serve.child.kill('SIGTERM');
      expect(await serve.exit).toBe(0);
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(serve.stderr()).toContain('Stopped (SIGTERM)');
    } finally {
      serve.child.kill('SIGKILL');
      prometheus?.kill('SIGTERM');
    }
  }, 120_000);

  it('bad flags exit 2 before listening', async () => {
    for (const args of [
      ['--interval', '0s'],
      ['--listen', 'nowhere'],
      ['--only', 'nonsense'],
      ['--timeout', 'x'],
      ['--json'],
    ]) {
      const r = await runCli(['serve', ...args], { env: env(), timeoutMs: 10_000 });
      expect(`${args.join(' ')}: ${r.code}`).toBe(`${args.join(' ')}: 2`);
      expect(r.stderr).not.toContain('Listening');
    }
  });
});

describe('cloudgate doctor --format', () => {
  const tlsArgs = () => ['doctor', '--only', 'tls', '--endpoint', `localhost:${endpoint.port}`];

  it('prometheus --output writes the textfile atomically (no temp or backup left behind), promtool-clean', async () => {
    const folder = mkdtempSync(join(dir, 'textfile-'));
    const file = join(folder, 'cloudgate.prom');
    for (let i = 0; i < 2; i++) {
      const r = await runCli([...tlsArgs(), '--format', 'prometheus', '--output', file], { env: env() });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
    expect(readdirSync(folder)).toEqual(['cloudgate.prom']);
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: readFileSync(file, 'utf8'), encoding: 'utf8' });
    expect(lint.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(
      `cloudgate_check_status{group="tls",id="tls.localhost:${endpoint.port}",status="ok"} 1`,
    );
  });

  it('junit prints one testcase per check, parsed by a real XML parser', async () => {
    const json = JSON.parse((await runCli([...tlsArgs(), '--json'], { env: env() })).stdout);
    const r = await runCli([...tlsArgs(), '--format', 'junit'], { env: env() });
    expect(r.code).toBe(0);
    const parsed = spawnSync(
      'python3',
      [
        '-c',
        'import sys, xml.etree.ElementTree as ET; r = ET.fromstring(sys.stdin.buffer.read()); print(" ".join(c.get("name") for c in r.iter("testcase")))',
      ],
      { input: r.stdout, encoding: 'utf8' },
    );
    expect(parsed.status).toBe(0);
    expect(parsed.stdout.trim().split(' ')).toEqual(json.checks.map((c: { id: string }) => c.id));
  });

  it('an unknown format, or --json with another format, is exit 2 and writes nothing', async () => {
    const file = join(dir, 'never.prom');
    expect((await runCli([...tlsArgs(), '--format', 'xml', '--output', file], { env: env() })).code).toBe(2);
    expect((await runCli([...tlsArgs(), '--json', '--format', 'junit', '--output', file], { env: env() })).code).toBe(
      2,
    );
    expect(existsSync(file)).toBe(false);
  });
});
