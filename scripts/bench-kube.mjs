// bench section `kube`: `cloudgate doctor --only kube` against the Kubernetes API test server with the
// real kubectl, on a healthy platform of 5 Certificates in the platform namespaces, then 500 across 20
// namespaces (each with its annotated ingress and TLS secret). Target: the 500 cost under 2 s more than
// the 5; the number of API list requests stays the same. Prints, asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.CLOUDGATE_BENCH_BIN || new URL('../bin/cloudgate.js', import.meta.url).pathname;

async function loadKubeServer() {
  const { build } = await import('esbuild');
  // One folder below the repository: the test server finds data/cert-manager-crds two levels up, as from test/servers.
  const outdir = new URL('../.bench-kube/', import.meta.url).pathname;
  await build({
    entryPoints: [new URL('../test/servers/kube-api.ts', import.meta.url).pathname, new URL('../test/helpers/cert-manager-objects.ts', import.meta.url).pathname],
    outdir, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning', outExtension: { '.js': '.mjs' },
  });
  try {
    return { ...(await import(join(outdir, 'servers/kube-api.mjs'))), ...(await import(join(outdir, 'helpers/cert-manager-objects.mjs'))) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

function platform(m, certificates, namespaces) {
  const names = ['openstack', 'auth-system', 'monitoring', ...Array.from({ length: Math.max(0, namespaces - 3) }, (_, i) => `tenant-${i + 1}`)];
  const leaf = m.leafFor(['*.bench.test'], 60);
  const objects = [...m.certManagerCrds(), ...m.certManagerWorkloads(), ...names.slice(3).map(m.namespace), ...['openstack', 'auth-system', 'monitoring'].map(m.namespace), m.clusterIssuer('self-signed', { selfSigned: {} }), m.clusterIssuer('atmosphere', { acme: { email: 'ops@bench.test', server: 'https://acme.test/directory', privateKeySecretRef: { name: 'certmgr-issuer-account-key' }, solvers: [{ http01: { ingress: { class: 'atmosphere' } } }] } })];
  for (let i = 0; i < certificates; i++) {
    const ns = names[i % names.length];
    const name = `svc-${i}`;
    const host = `${name}.bench.test`;
    objects.push(m.certificate(name, { namespace: ns, hosts: [host] }), m.tlsSecret(`${name}-certs`, ns, leaf, { 'cert-manager.io/issuer-name': 'atmosphere' }), m.ingress(name, ns, host, `${name}-certs`));
  }
  return objects;
}

function doctor(env, inventory) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'doctor', '--only', 'kube', '--json', '--inventory', inventory, '--timeout', '60'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => {
      const ms = performance.now() - started;
      let statuses = '?';
      try {
        statuses = JSON.parse(out).checks.map((c) => `${c.id.replace('kube.', '')}=${c.status}${process.env.BENCH_KUBE_TIMES ? `:${c.durationMs}ms` : ''}`).join(' ');
      } catch { /* printed below as '?' */ }
      resolve({ ms, statuses });
    });
  });
}

export async function benchKube(runs = 3) {
  const m = await loadKubeServer();
  const inventory = join(mkdtempSync(join(tmpdir(), 'cg-bench-kube-')), 'certificates.yml');
  writeFileSync(inventory, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@bench.test\ncluster_issuer_acme_server: https://acme.test/directory\n');
  const rows = [];
  for (const [certificates, namespaces] of [[5, 3], [500, 20]]) {
    const state = new m.KubeState().add(...platform(m, certificates, namespaces));
    const api = await m.startKubeApi(state);
    try {
      await doctor(api.env, inventory); // kubectl's discovery cache warms up
      const times = [];
      let last;
      state.requests = [];
      for (let i = 0; i < runs; i++) {
        last = await doctor(api.env, inventory);
        times.push(last.ms);
      }
      const lists = state.requests.filter((q) => q.method === 'GET' && !q.path.startsWith('/api/v1/namespaces/cert-manager/secrets') && /^\/apis?\//.test(q.path) && !/^\/apis?(\/[^/]+){0,2}$/.test(q.path)).length / runs;
      rows.push({ certificates, namespaces, median: times.sort((a, b) => a - b)[Math.floor(times.length / 2)], lists, statuses: last.statuses });
    } finally {
      await api.stop();
    }
  }
  console.log('\nkube: doctor --only kube on a healthy platform (median of %d runs, real kubectl, API test server)', runs);
  for (const r of rows) console.log(`  ${String(r.certificates).padStart(3)} Certificates in ${String(r.namespaces).padStart(2)} namespaces: ${(r.median / 1000).toFixed(2)} s, ${r.lists} API reads per run  [${r.statuses}]`);
  const more = (rows[1].median - rows[0].median) / 1000;
  console.log(`  500 vs 5: ${more >= 0 ? '+' : ''}${more.toFixed(2)} s (target: under +2 s)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchKube();

