// What the bench runs cloudgate on, side by side: the active LTS (scripts/node-lines.mjs), the machine's own
// Node, the Node the bench was started with when it is neither, and the single executable
// (dist/cloudgate-linux-<arch>, `npm run build:exe`); each with NODE_EXTRA_CA_CERTS unset and set. The
// targets are judged on the active LTS (and the executable against cloudgate on that same Node).
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ACTIVE_LTS, cacheRoot, nodeBinary } from './node-lines.mjs';

// CLOUDGATE_BENCH_BIN times another build (e.g. a copy of bin/ and dist/ from before a change).
export const BIN = process.env.CLOUDGATE_BENCH_BIN || new URL('../bin/cloudgate.js', import.meta.url).pathname;
export const EXE = process.env.CLOUDGATE_BENCH_EXE || new URL(`../dist/cloudgate-linux-${process.arch}`, import.meta.url).pathname;

// Every command runs with NODE_EXTRA_CA_CERTS removed or set to this file: the bench's own environment's,
// else the system bundle (a corporate CA is usually added to it, and the whole bundle is what Node reads).
export const EXTRA_CA_CERTS = [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find((f) => f && existsSync(f));
delete process.env.NODE_EXTRA_CA_CERTS;

function versionOf(node) {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
}

/** The first `node` on PATH that is not one of the cache's (the machine's own), else the one running. */
function machineNode() {
  const cache = realpathSync.native(existsSync(cacheRoot()) ? cacheRoot() : '/');
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      const real = realpathSync(candidate);
      if (cache === '/' || !real.startsWith(cache)) return real;
    } catch { /* not here */ }
  }
  return process.execPath;
}

/** The Node lines, the active LTS first; the LTS is missing when not installed (then said once). */
export function nodeLines() {
  const lines = [];
  const lts = nodeBinary();
  if (existsSync(lts)) lines.push({ key: 'lts', label: `Node ${ACTIVE_LTS.version} (active LTS)`, short: `${ACTIVE_LTS.version} LTS`, node: lts, lts: true });
  else console.log(`The active LTS is not installed: node scripts/node-lines.mjs install (its figures are missing below).`);
  const machine = machineNode();
  if (!lines.some((l) => realpathSync(l.node) === machine)) lines.push({ key: 'machine', label: `Node ${versionOf(machine)} (this machine's)`, short: `${versionOf(machine)} machine`, node: machine });
  const started = realpathSync(process.execPath);
  if (!lines.some((l) => realpathSync(l.node) === started)) lines.push({ key: 'started', label: `Node ${process.versions.node} (running the bench)`, short: `${process.versions.node} bench's`, node: started });
  return lines;
}

/** The executable, when built; its Node is the active LTS. */
export function executable() {
  return existsSync(EXE) ? { key: 'exe', label: `the executable ${EXE} (Node ${ACTIVE_LTS.version})`, short: 'executable', file: EXE, exe: true } : undefined;
}

export const ENVIRONMENTS = [
  { key: 'unset', label: 'NODE_EXTRA_CA_CERTS unset', env: { NODE_EXTRA_CA_CERTS: undefined } },
  ...(EXTRA_CA_CERTS ? [{ key: 'set', label: `NODE_EXTRA_CA_CERTS=${EXTRA_CA_CERTS}`, env: { NODE_EXTRA_CA_CERTS: EXTRA_CA_CERTS } }] : []),
];

/** cloudgate as installed on `line` (the file run as a program, its `env node` finding that Node first), or the executable. */
export function cloudgate(subject, args) {
  if (subject.exe) return { command: [subject.file, ...args] };
  return { command: [BIN, ...args], env: { PATH: `${dirname(subject.node)}${delimiter}${process.env.PATH}` } };
}

/** A plain Node command on `line` (for the executable: on its Node, the active LTS). */
export function bareNode(subject, args) {
  return { command: [subject.exe ? nodeBinary() : subject.node, ...args] };
}

/** The bench's environment with `env` over it (CI=true by default); entries set to undefined are removed. */
export function childEnvironment(env = {}) {
  const merged = { ...process.env, CI: 'true', ...env };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  return merged;
}

/** Wall time and exit code of one run. */
export function timeOnce({ command: [file, ...args], env }) {
  const started = performance.now();
  return new Promise((resolve) => {
    spawn(file, args, { env: childEnvironment(env), stdio: 'ignore' }).on('close', (code) => resolve({ ms: performance.now() - started, code }));
  });
}

export function middle(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The median and the interquartile range (the middle half of the runs) of some times. */
export function spreadOf(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { ms: middle(times), low: at(0.25), high: at(0.75) };
}

/** The columns: each subject with each environment. */
export function columnsOf(subjects, environments = ENVIRONMENTS) {
  return subjects.flatMap((subject) => environments.map((environment) => ({ subject, environment })));
}

/**
 * Runs each row in each column, all cells in turn in every round (a change of the machine's load hits
 * them alike), and returns each cell's spread and failed runs. A row's `cell(subject, environment)` gives
 * the command, or undefined where the row does not apply.
 */
export async function matrix(rows, columns, runs) {
  const cells = rows.flatMap((row) => columns.map((column) => {
    const command = row.cell(column.subject, column.environment);
    return command && { row, column, command: { ...command, env: { ...column.environment.env, ...command.env } }, times: [], failed: 0 };
  })).filter(Boolean);
  for (let i = 0; i < runs; i++) {
    for (const cell of cells) {
      const { ms, code } = await timeOnce(cell.command);
      cell.times.push(ms);
      if (code !== (cell.row.exitCode ?? 0)) cell.failed++;
    }
  }
  return (row, column) => {
    const cell = cells.find((c) => c.row === row && c.column === column);
    return cell && { ...spreadOf(cell.times), failed: cell.failed };
  };
}

/**
 * Prints rows × columns, each cell "median ms" and its ratio to the row's `floor` row in the same column,
 * judged against the row's target where the column is the active LTS or the executable.
 */
export function printMatrix(title, rows, columns, figure) {
  const header1 = ['', ...columns.map((c) => c.subject.short)];
  const header2 = ['', ...columns.map((c) => c.environment.key === 'unset' ? 'CA unset' : 'CA set')];
  const body = rows.map((row) => [row.name, ...columns.map((column) => {
    const f = figure(row, column);
    if (!f) return '';
    const floor = row.floor && figure(row.floor, column);
    const ratio = floor ? f.ms / floor.ms : undefined;
    const judged = row.target !== undefined && ratio !== undefined && (column.subject.lts || column.subject.exe);
    return `${f.ms.toFixed(1)}${ratio === undefined ? '' : ` ${ratio.toFixed(2)}x`}${judged ? (ratio <= row.target ? ' ok' : ' OVER') : ''}${f.failed ? ` (${f.failed} failed)` : ''}`;
  }), row.target === undefined ? '' : `<= ${row.target}x ${row.floor.name}`]);
  const all = [[...header1, 'target'], [...header2, ''], ...body];
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  console.log(title);
  for (const r of all) console.log('  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : (c ?? '').padStart(widths[i]))).join('  '));
  const spreads = rows.flatMap((row) => columns.map((c) => figure(row, c)).filter(Boolean).map((f) => f.high - f.low));
  console.log(`  (medians in ms; the middle half of each cell's runs spans at most ${Math.max(...spreads).toFixed(1)} ms; CA: NODE_EXTRA_CA_CERTS=${EXTRA_CA_CERTS ?? 'none found'})`);
}

/** The executable beside cloudgate on its own Node (the active LTS), row by row: the target is no slower. */
export function printExecutableBeside(rows, columns, figure) {
  const lines = [];
  for (const environment of ENVIRONMENTS) {
    const exe = columns.find((c) => c.subject.exe && c.environment === environment);
    const lts = columns.find((c) => c.subject.lts && c.environment === environment);
    if (!exe || !lts) continue;
    const pairs = rows.filter((row) => row.besideExecutable).map((row) => [row, figure(row, exe), figure(row, lts)]).filter(([, a, b]) => a && b);
    lines.push(`${environment.key === 'unset' ? 'CA unset' : 'CA set'}: ` + pairs.map(([row, a, b]) => `${row.name.replace(/^cloudgate /, '')} ${(a.ms / b.ms).toFixed(2)}x ${a.ms <= b.ms ? 'ok' : 'OVER'}`).join(', '));
  }
  if (lines.length) console.log(`  the executable against cloudgate on its Node (target <= 1x): ${lines.join('; ')}`);
}

/** Says which columns are which. */
export function printLegend(subjects) {
  console.log(`Columns: ${subjects.map((s) => `${s.short} = ${s.label}`).join('; ')}; each with NODE_EXTRA_CA_CERTS unset and set to ${EXTRA_CA_CERTS ?? '(no bundle found)'}.`);
}
