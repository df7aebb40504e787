/**
 * The exporter run in this process for many runs against local servers of every group, with the
 * heap measured after a full garbage collection at the start of each run (run node with --expose-gc).
 * The soak test and `npm run bench -- serve` bundle this file and run it in a child process, which
 * prints one JSON line per run: {"run", "heapUsed", "rss"} (bytes), then {"done": true, "metrics"}.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksOf } from '../../src/core/areas/index.js';
import { doctorInput, runOptionsOf } from '../../src/core/doctor/input.js';
import { startExporter } from '../../src/serve/exporter.js';
import { createTestCA } from './pki.js';
import { startLocalAcme } from '../servers/acme.js';
import { startIdentityServer } from '../servers/identity.js';
import { certManagerCrds, KubeState, namespace, startKubeApi, type KubeApi } from '../servers/kube-api.js';
import { startOidcIssuer } from '../servers/oidc-issuer.js';
import { startTlsEndpoint } from '../servers/tls-endpoints.js';

export interface SoakOptions {
  runs: number;
  intervalMs: number;
  /** Also the kube group against the Kubernetes API emulation (kubectl is spawned: slower runs). */
  kube: boolean;
}

export interface RunSample {
  run: number;
  heapUsed: number;
  rss: number;
}

export async function soak(options: SoakOptions, onRun: (sample: RunSample) => void): Promise<string> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc');
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-soak-'));
  const ca = createTestCA('soak CA');
  const identity = await startIdentityServer({ ca });
  const oidc = await startOidcIssuer();
  const acme = await startLocalAcme(ca);
  const leaf = ca.issue(['localhost']);
  const endpoint = await startTlsEndpoint({ chain: [leaf.cert, ca.cert], key: leaf.key });
  let kube: KubeApi | undefined;
  if (options.kube) {
    const state = new KubeState();
    state.objects.push(...certManagerCrds(), namespace('openstack'), namespace('cert-manager'));
    kube = await startKubeApi(state);
  }

  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, [ca.cert, oidc.ca.cert].join('\n'));
  const certificate = join(dir, 'wildcard.pem');
  writeFileSync(certificate, [leaf.cert, ca.cert].join('\n'));
  const key = join(dir, 'wildcard.key');
  writeFileSync(key, leaf.key, { mode: 0o600 });
  const inventory = join(dir, 'certificates.yml');
  writeFileSync(inventory, `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.test\ncluster_issuer_acme_server: ${acme.url}\n`);

  const env: NodeJS.ProcessEnv = {
    ...process.env, ...identity.env(), ...(kube?.env ?? { KUBECONFIG: join(dir, 'no-kubeconfig') }),
    OS_PROJECT_NAME: 'demo', OS_CACERT: caFile, CLOUDGATE_ISSUER_URL: oidc.url,
  };
  const input = doctorInput({
    flags: { inventory, certificate, key, endpoint: `localhost:${endpoint.port}`, 'ca-file': caFile, timeout: '5' },
    env, cwd: dir, stderr: process.stderr,
  });
  let runs = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const exporter = await startExporter({
    host: '127.0.0.1', port: 0, intervalMs: options.intervalMs, version: 'soak',
    async provide() {
      // Called as each run starts: the previous run is complete and served; measure what it left.
      if (runs > 0) {
        // The test servers live in this process and record every request: not the exporter's memory.
        identity.requests.length = 0;
        identity.issued.length = 0;
        oidc.requests.length = 0;
        kube?.state.requests.splice(0);
        await fetch(`http://${exporter.address}/metrics`).then((r) => r.text());
        gc();
        const { heapUsed, rss } = process.memoryUsage();
        onRun({ run: runs, heapUsed, rss });
        if (process.env.SOAK_SNAPSHOTS?.split(',').includes(String(runs))) (await import('node:v8')).writeHeapSnapshot(join(tmpdir(), `soak-${runs}.heapsnapshot`));
      }
      if (++runs > options.runs) finished();
      return checksOf(input, []);
    },
    runOptions: runOptionsOf(input),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  await done;
  const metrics = await (await fetch(`http://${exporter.address}/metrics`)).text();
  await exporter.stop();
  await Promise.all([identity.close(), oidc.stop(), acme.stop(), endpoint.stop(), kube?.stop()]);
  return metrics;
}

/** The child's entry: options from argv (`runs intervalMs kube`), one JSON line per run on stdout. */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  const [runs = '200', intervalMs = '20', kube = 'no'] = argv;
  const metrics = await soak({ runs: Number(runs), intervalMs: Number(intervalMs), kube: kube === 'kube' }, (s) => process.stdout.write(`${JSON.stringify(s)}\n`));
  process.stdout.write(`${JSON.stringify({ done: true, metrics })}\n`);
}
