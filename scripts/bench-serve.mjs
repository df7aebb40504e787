// bench section `serve`: `cloudgate serve --interval 1s` against the local identity test server for
// N runs (default 1,000, about 17 minutes; `npm run bench -- serve --runs 100` for a quick look).
// Targets: resident memory after the last run within 20% of after run 50 and under 100 MB; the
// median scrape of /metrics under 20 ms. Prints, asserts nothing.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadTestServers } from './bench-servers.mjs';

// CLOUDGATE_BENCH_BIN times another build, as in bench.mjs.
const BIN = process.env.CLOUDGATE_BENCH_BIN || new URL('../bin/cloudgate.js', import.meta.url).pathname;


const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line.replace(/\D+/g, '')) / 1024;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function benchServe(args = process.argv.slice(2)) {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 1000;
  const { startIdentityServer, createTestCA } = await loadTestServers();
  const server = await startIdentityServer({ ca: createTestCA() });
  const child = spawn(process.execPath, [BIN, 'serve', '--listen', '127.0.0.1:0', '--interval', '1s', '--only', 'signin'], {
    env: { ...process.env, ...server.env(), OS_PROJECT_NAME: 'demo', CI: 'true' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    while (!/Listening on http:\/\/(\S+) /.test(stderr)) {
      if (child.exitCode !== null) throw new Error(`serve exited: ${stderr}`);
      await sleep(50);
    }
    const base = `http://${stderr.match(/Listening on http:\/\/(\S+) /)[1]}`;
    const done = async () => (await (await fetch(`${base}/healthz`)).json()).runs;
    const scrapes = [];
    let after50;
    let summary = '';
    console.log(`serve: ${runs} runs at a 1 s interval (±10% jitter), doctor --only signin against the local identity server...`);
    for (let n = await done(); n < runs; n = await done()) {
      const t0 = performance.now();
      const text = await (await fetch(`${base}/metrics`)).text();
      scrapes.push(performance.now() - t0);
      if (after50 === undefined && n >= Math.min(50, runs)) after50 = rssMb(child.pid);
      summary = /cloudgate_signin_success (\d)/.exec(text)?.[1] ?? summary;
      await sleep(250);
    }
    after50 ??= rssMb(child.pid);
    const last = rssMb(child.pid);
    const sorted = [...scrapes].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const growth = (last - after50) / after50;
    console.log(`  RSS after run ${Math.min(50, runs)}: ${after50.toFixed(1)} MB; after run ${runs}: ${last.toFixed(1)} MB ` +
      `(${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%; targets within 20%, under 100 MB: ${Math.abs(growth) <= 0.2 && last < 100 ? 'ok' : 'OVER'})`);
    console.log(`  /metrics scrape: median ${median.toFixed(2)} ms over ${scrapes.length} scrapes (target < 20 ms: ${median < 20 ? 'ok' : 'OVER'}); ` +
      `last signin_success ${summary || '?'}`);
  } finally {
    child.kill('SIGTERM');
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchServe();
