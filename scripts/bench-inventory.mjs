// Inventory size figures (`npm run bench -- inventory`): wall time and peak memory of
// `doctor --only inventory`, `setup --dry-run` and a real `setup` write on generated 1, 4 and 16 MB inventories,
// and of the largest one starting with a `%YAML 1.1` directive (which once fell off the fast path into a
// whole parse), and `doctor` on a 0.75 MB one, under the 1 MiB lazy size: every entry parsed, in pieces.
// Targets: linear in the size, 16 MB under 10 s, peak memory under 10x the file. Prints, asserts nothing.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// CLOUDGATE_BENCH_BIN times another build, as in bench.mjs.
const BIN = process.env.CLOUDGATE_BENCH_BIN || new URL('../bin/cloudgate.js', import.meta.url).pathname;
const REALISTIC = new URL('../test/fixtures/inventory/realistic.yml', import.meta.url).pathname;
// Reports the child's own peak resident memory on exit (Node gives no rusage of a child).
const PEAK = 'data:text/javascript,process.on("exit",()=>process.stderr.write("\\ncloudgate-bench-maxrss="+process.resourceUsage().maxRSS+"\\n"))';

/** The realistic inventory followed by unrelated application settings up to `bytes`. */
function inventoryOf(bytes) {
  const parts = [readFileSync(REALISTIC, 'utf8')];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    const entry = `app_${i}_settings:\n  name: app-${i}\n  enabled: true\n  hosts: [a${i}.example.com, b${i}.example.com]\n`
      + `  note: "settings of app ${i} # not a comment"\n  limits: {cpu: ${i % 16}, memory: ${i % 64}Gi}\n`;
    parts.push(entry);
    size += entry.length;
  }
  return parts.join('');
}

function run(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK, BIN, ...args], { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const kb = Number(/cloudgate-bench-maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN);
      resolve({ code, ms: performance.now() - started, peakBytes: kb * 1024 });
    });
  });
}

export async function benchInventory(sizesMb = [1, 4, 16]) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-bench-inventory-'));
  try {
    const answers = join(dir, 'answers.yml');
    writeFileSync(answers, 'cluster_issuer_acme_email: pki@example.com\n');
    const rows = [];
    for (const mb of sizesMb) {
      const file = join(dir, `inventory-${mb}mb.yml`);
      writeFileSync(file, inventoryOf(mb * 1024 * 1024));
      const bytes = statSync(file).size;
      const written = join(dir, `written-${mb}mb.yml`);
      copyFileSync(file, written);
      for (const [name, args] of [
        ['doctor --only inventory', ['doctor', '--only', 'inventory', '--inventory', file]],
        ['setup --dry-run', ['setup', '--answers', answers, '--inventory', file, '--dry-run']],
        ['setup --yes (writes)', ['setup', '--answers', answers, '--inventory', written, '--yes']],
      ]) {
        const r = await run(args);
        rows.push({ name: `${mb} MB ${name}`, mb, ...r, ratio: r.peakBytes / bytes });
      }
    }
    const mb = sizesMb[sizesMb.length - 1];
    const directive = join(dir, `directive-${mb}mb.yml`);
    writeFileSync(directive, `%YAML 1.1\n${inventoryOf(mb * 1024 * 1024)}`);
    const bytes = statSync(directive).size;
    for (const [name, args] of [
      ['doctor, %YAML directive', ['doctor', '--only', 'inventory', '--inventory', directive]],
      ['setup --yes, %YAML directive', ['setup', '--answers', answers, '--inventory', directive, '--yes']],
    ]) {
      const r = await run(args);
      rows.push({ name: `${mb} MB ${name}`, mb, ...r, ratio: r.peakBytes / bytes });
    }
    // Under the 1 MiB lazy size every entry is parsed (in pieces), so that its warnings are reported.
    const whole = join(dir, 'inventory-0.75mb.yml');
    writeFileSync(whole, inventoryOf(0.75 * 1024 * 1024));
    const r = await run(['doctor', '--only', 'inventory', '--inventory', whole]);
    rows.push({ name: '0.75 MB doctor, every entry parsed', mb: 0.75, ...r, ratio: r.peakBytes / statSync(whole).size });
    console.log('inventory size (targets: 16 MB under 10 s, peak memory under 10x the file)');
    const base = new Map(rows.filter((r) => r.mb === sizesMb[0]).map((r) => [r.name.replace(/^\d+ MB /, ''), r.ms / r.mb]));
    for (const r of rows) {
      const base1 = base.get(r.name.replace(/^\d+ MB /, ''));
      // The targets are stated for 16 MB: a small file's peak is Node and cloudgate's fixed ~70 MB.
      const over = r.mb === 16 && (r.ms > 10_000 || r.ratio > 10);
      console.log(`  ${r.name.padEnd(36)} ${(r.ms / 1000).toFixed(2).padStart(7)} s  peak ${(r.peakBytes / 1024 / 1024).toFixed(0).padStart(5)} MiB`
        + `  ${r.ratio.toFixed(1).padStart(5)}x file  ${base1 ? `time/MB ${(r.ms / r.mb / base1).toFixed(2)}x of ${sizesMb[0]} MB` : ''.padEnd(22)}`
        + `  exit ${r.code}${over ? '  OVER' : ''}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchInventory();
