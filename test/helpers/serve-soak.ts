/**
 * The exporter run in this process for many runs against local servers of every group, with the
 * heap measured after a full garbage collection at the start of each run (run node with --expose-gc).
 * The local servers run in a second child process (they record what they answer). The soak test and
 * `npm run bench -- serve` bundle this file (scripts/bench-serve.mjs) and run it in a child process,
 * which prints one JSON line per run, {"run", "heapUsed", "rss", "codeSpace" (bytes), "scrapeMs"}, then
 * {"done": true, "metrics"}.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get } from 'node:http';
import { join } from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { AREA_METRICS, checksOf } from '../../src/core/areas/index.js';
import { doctorInput, runOptionsOf } from '../../src/core/doctor/input.js';
import { startExporter } from '../../src/serve/exporter.js';
import { createTestCA } from './pki.js';
import { startLocalAcme } from '../servers/acme.js';
import { startIdentityServer } from '../servers/identity.js';
import { certManagerCrds, KubeState, namespace, startKubeApi, type KubeApi } from '../servers/kube-api.js';
import { startOidcIssuer } from '../servers/oidc-issuer.js';
import { startTlsEndpoint } from '../servers/tls-endpoints.js';
import { doctorOptionsFrom } from './doctor-options.js';

export interface SoakOptions {
  runs: number;
  servers(): Promise<SoakWorld & { stop(): Promise<void> }>;
  intervalMs: number;
}

export interface RunSample {
  run: number;
  heapUsed: number;
  rss: number;
  /** How long GET /metrics took as this run started. */
  scrapeMs: number;
  /** The part of heapUsed that is V8's compiled machine code (grows as more functions become hot). */
  codeSpace: number;
}

export async function soak(options: SoakOptions, onRun: (sample: RunSample) => void): Promise<string> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc');
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-soak-'));
  const world = await options.servers();
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, world.caPems.join('\n'));
  const certificate = join(dir, 'wildcard.pem');
  writeFileSync(certificate, world.certificate);
  const key = join(dir, 'wildcard.key');
  writeFileSync(key, world.key, { mode: 0o600 });
  const inventory = join(dir, 'certificates.yml');
  writeFileSync(
    inventory,
    `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.test\ncluster_issuer_acme_server: ${world.acmeUrl}\n`,
  );

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...world.env,
    OS_PROJECT_NAME: 'demo',
    OS_CACERT: caFile,
  };
  const input = await doctorInput(
    doctorOptionsFrom(
      { inventory, certificate, key, endpoint: `localhost:${world.endpointPort}`, 'ca-file': caFile, timeout: '5' },
      dir,
    ),
    { env, cwd: dir, stderr: process.stderr },
  );
  let runs = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const exporter = await startExporter({
    host: '127.0.0.1',
    port: 0,
    intervalMs: options.intervalMs,
    version: 'soak',
    areaMetrics: AREA_METRICS,
    async provide() {
      // Called as each run starts: the previous run is complete and served; measure what it left.
      if (runs > 0) {
        const t0 = performance.now();
        await scrape(exporter.address);
        const scrapeMs = performance.now() - t0;
        gc();
        const { heapUsed, rss } = process.memoryUsage();
        const codeSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'code_space')?.space_used_size ?? 0;
        onRun({ run: runs, heapUsed, rss, scrapeMs, codeSpace });
        if (process.env.SOAK_SNAPSHOTS?.split(',').includes(String(runs)))
          writeHeapSnapshot(join(tmpdir(), `soak-${runs}.heapsnapshot`));
      }
      if (++runs > options.runs) finished();
      return checksOf(input, []);
    },
    runOptions: runOptionsOf(input),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  await done;
  const metrics = await scrape(exporter.address);
  await exporter.stop();
  await world.stop();
  return metrics;
}

/**
 * GET /metrics as Prometheus does, with node:http: `fetch` would add an entry to Node's resource
 * timing buffer at each run (up to 250, ~350 bytes each), which is the driver's memory, not the exporter's.
 */
function scrape(address: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(`http://${address}/metrics`, { agent: false, timeout: 5000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
      response.on('error', reject);
    })
      .on('error', reject)
      .on('timeout', function (this: { destroy(e: Error): void }) {
        this.destroy(new Error('GET /metrics took over 5 s'));
      });
  });
}

/** What the exporter needs to know of the local servers (plain data: they may run in another process). */
export interface SoakWorld {
  env: Record<string, string>;
  caPems: string[];
  certificate: string;
  key: string;
  acmeUrl: string;
  endpointPort: number;
}

const NO_CLUSTER = {
  KUBECONFIG: join(tmpdir(), 'cloudgate-soak-no-kubeconfig'),
  CLOUDGATE_KUBECTL: join(tmpdir(), 'cloudgate-soak-no-kubectl'),
};

/** Every group's local servers; `kube` adds the Kubernetes API emulation. */
export async function startWorld(kubeToo: boolean): Promise<SoakWorld & { stop(): Promise<void> }> {
  const ca = createTestCA('soak CA');
  const identity = await startIdentityServer({ ca });
  const oidc = await startOidcIssuer();
  const acme = await startLocalAcme(ca);
  const leaf = ca.issue(['localhost']);
  const endpoint = await startTlsEndpoint({ chain: [leaf.cert, ca.cert], key: leaf.key });
  let kube: KubeApi | undefined;
  if (kubeToo) {
    const state = new KubeState();
    state.objects.push(...certManagerCrds(), namespace('openstack'), namespace('cert-manager'));
    kube = await startKubeApi(state);
  }
  return {
    // Without kube, no kubectl either: the cluster checks skip at once instead of starting a kubectl
    // process per run (the CPU of which made the soak test last over a minute).
    env: { ...identity.env(), ...(kube?.env ?? NO_CLUSTER), CLOUDGATE_ISSUER_URL: oidc.url },
    caPems: [ca.cert, oidc.ca.cert],
    certificate: [leaf.cert, ca.cert].join('\n'),
    key: leaf.key,
    acmeUrl: acme.url,
    endpointPort: endpoint.port,
    stop: async () =>
      void (await Promise.all([identity.close(), oidc.stop(), acme.stop(), endpoint.stop(), kube?.stop()])),
  };
}

/**
 * The servers in a child process of their own (this file run with `servers`): they record requests
 * and tokens, which must not count as the exporter's memory.
 */
function worldInChild(kubeToo: boolean): Promise<SoakWorld & { stop(): Promise<void> }> {
  const child = fork(process.argv[1]!, ['servers', kubeToo ? 'kube' : 'no'], {
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // SIGTERM stops the servers, and the IPC channel is closed too: a server whose close waits on a
    // connection must not keep the child, and through the channel the driver, running (seen on Node 26).
    child.once('message', (world) =>
      resolve({
        ...(world as SoakWorld),
        stop: async () => {
          child.kill();
          if (child.connected) child.disconnect();
        },
      }),
    );
  });
}

/** The child's entry: options from argv (`runs intervalMs kube`), one JSON line per run on stdout. */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  if (argv[0] === 'servers') {
    const world = await startWorld(argv[1] === 'kube');
    process.send!({ ...world, stop: undefined });
    process.once('SIGTERM', () => void world.stop().then(() => process.exit(0)));
    // The driver killed (a test's deadline, Ctrl+C): the servers go with it.
    process.once('disconnect', () => process.exit(0));
    return;
  }
  const [runs = '200', intervalMs = '20', kube = 'no'] = argv;
  const metrics = await soak(
    { runs: Number(runs), intervalMs: Number(intervalMs), servers: () => worldInChild(kube === 'kube') },
    (s) => process.stdout.write(`${JSON.stringify(s)}\n`),
  );
  process.stdout.write(`${JSON.stringify({ done: true, metrics })}\n`);
}
