// bench section `serve`: the exporter's memory over many runs of every group (default 1,000, kube
// included), with the soak driver of test/helpers/serve-soak.ts: the exporter in a child process with
// --expose-gc, which measures RSS and the heap after a full collection as each run starts; the local
// servers of every group in another. Targets: RSS and the retained heap at the last run within 10%
// of run 50; the retained heap's slope after run 50 under 1 KB per run; the median /metrics scrape
// under 20 ms. Prints, asserts nothing. The soak test (test/integration/serve) uses the same driver.
// The code row is the part of the heap that is V8's machine code (the exporter turns the optimising
// compiler off: its code grew as more functions became hot; docs/exporter.md).
//   npm run bench -- serve [--runs N] [--interval MS] [--no-kube]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../', import.meta.url).pathname;
export const TARGET_GROWTH = 0.1;
export const TARGET_SLOPE_BYTES = 1024;

/** The soak driver bundled (with the validators the render code loads); returns the file to run. */
export async function bundleSoakDriver() {
  const { build } = await import('esbuild');
  const base = mkdtempSync(join(tmpdir(), 'cloudgate-soak-'));
  // test/servers/kube-api.ts reads cert-manager's CRDs from ../../data relative to its own file.
  const dir = join(base, 'driver', 'bundle');
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(ROOT, 'data'), join(base, 'data'));
  const outfile = join(dir, 'soak.mjs');
  await build({
    stdin: { contents: "import { main } from './test/helpers/serve-soak.ts'; await main();", resolveDir: ROOT, loader: 'ts' },
    outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning', external: ['react-devtools-core'],
    banner: { js: "import { createRequire as __cgRequire } from 'node:module'; const require = __cgRequire(import.meta.url);" },
  });
  const { writeCrdValidators } = await import('./crd-validators.mjs');
  await writeCrdValidators(new URL(`file://${join(dir, 'crd-validators.cjs')}`));
  return outfile;
}

/**
 * Runs the driver: `onSample` gets {run, heapUsed, rss, scrapeMs} at each run. Resolves with the
 * samples, the last /metrics, stderr and the exit code; killed after `deadlineMs`.
 */
export function runSoak(file, { runs, intervalMs = 20, kube = false, v8Flags = [], deadlineMs, onSample = () => {} }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', ...v8Flags, file, String(runs), String(intervalMs), kube ? 'kube' : 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    const samples = [];
    let metrics = '';
    let partial = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines.filter(Boolean)) {
        const parsed = JSON.parse(line);
        if (parsed.done) metrics = parsed.metrics;
        else {
          samples.push(parsed);
          onSample(parsed);
        }
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    const deadline = deadlineMs ? setTimeout(() => child.kill('SIGKILL'), deadlineMs) : undefined;
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ samples, metrics, stderr, code });
    });
  });
}

/** Bytes per run: the least-squares slope of the retained heap over the samples. */
export function slopeOf(samples) {
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.run, 0) / n;
  const my = samples.reduce((s, p) => s + p.heapUsed, 0) / n;
  const sxy = samples.reduce((s, p) => s + (p.run - mx) * (p.heapUsed - my), 0);
  const sxx = samples.reduce((s, p) => s + (p.run - mx) ** 2, 0);
  return sxy / sxx;
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const change = (from, to) => (to - from) / from;
const percent = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

function optionOf(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

export async function benchServe(args = process.argv.slice(2)) {
  const runs = optionOf(args, '--runs', 1000);
  const intervalMs = optionOf(args, '--interval', 20);
  const kube = !args.includes('--no-kube');
  const reference = Math.min(50, runs);
  console.log(`serve: ${runs} runs of every group${kube ? '' : ' but kube'} at a ${intervalMs} ms interval against local servers ` +
    '(test/helpers/serve-soak.ts; heap measured after a full collection as each run starts)...');
  const started = performance.now();
  const { samples, stderr, code } = await runSoak(await bundleSoakDriver(), {
    runs, intervalMs, kube,
    onSample: (s) => {
      if (s.run % 100 === 0) console.log(`  run ${s.run}: heap ${mb(s.heapUsed)} (code ${mb(s.codeSpace)}), RSS ${mb(s.rss)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    },
  });
  const first = samples.find((s) => s.run === reference);
  const last = samples.at(-1);
  if (code !== 0 || !first || !last) {
    console.log(`  the driver failed (exit ${code}) after ${samples.length} runs: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
    return;
  }
  const verdict = (ok) => (ok ? 'ok' : 'OVER');
  const rows = [
    ['RSS', first.rss, last.rss],
    ['heap after GC', first.heapUsed, last.heapUsed],
  ];
  for (const [name, from, to] of rows) {
    const growth = change(from, to);
    console.log(`  ${name.padEnd(14)} run ${reference}: ${mb(from).padStart(9)}; run ${last.run}: ${mb(to).padStart(9)} ` +
      `(${percent(growth)}; target within ${TARGET_GROWTH * 100}% of run ${reference}: ${verdict(Math.abs(growth) <= TARGET_GROWTH)})`);
  }
  console.log(`  ${'of it, code'.padEnd(14)} run ${reference}: ${mb(first.codeSpace).padStart(9)}; run ${last.run}: ${mb(last.codeSpace).padStart(9)} ` +
    '(V8\'s machine code)');
  const slope = slopeOf(samples.filter((s) => s.run > reference));
  console.log(`  heap slope after run ${reference}: ${slope.toFixed(0)} bytes per run (target < ${TARGET_SLOPE_BYTES}: ${verdict(slope < TARGET_SLOPE_BYTES)})`);
  const scrapes = samples.map((s) => s.scrapeMs).sort((a, b) => a - b);
  const median = scrapes[Math.floor(scrapes.length / 2)];
  console.log(`  /metrics scrape: median ${median.toFixed(2)} ms over ${scrapes.length} scrapes (target < 20 ms: ${verdict(median < 20)}); ` +
    `${((performance.now() - started) / 1000).toFixed(0)} s in all`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchServe();
