// Speed figures (`npm run bench`, after a build). Each section is one function; prints, asserts nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { benchInventory } from './bench-inventory.mjs';
import { loadTestServers } from './bench-servers.mjs';

// CLOUDGATE_BENCH_BIN times another build (e.g. a copy of bin/ and dist/ from before a change).
const BIN = process.env.CLOUDGATE_BENCH_BIN || new URL('../bin/cloudgate.js', import.meta.url).pathname;
// The targets are for an ordinary environment: every command runs without NODE_EXTRA_CA_CERTS, except the
// rows that say they set it (informative: Node then parses that file at every start-up).
const EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS || undefined;
delete process.env.NODE_EXTRA_CA_CERTS;

function runCli(args) {
  return runCaptured([process.execPath, BIN, ...args]);
}

/** Wall time, exit code and standard output of one run. */
function runCaptured([file, ...args]) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(file, args, { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout, ms: performance.now() - started }));
  });
}

// --- shared harness: wall times of commands over several runs, and a table of medians and spreads ---

/** Wall time of one run; `env` entries set to undefined are removed from the environment. */
function timeOnce(command, env = {}) {
  const [file, ...args] = command;
  const childEnv = { ...process.env, CI: 'true', ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const started = performance.now();
  return new Promise((resolve) => {
    spawn(file, args, { env: childEnv, stdio: 'ignore' }).on('close', () => resolve(performance.now() - started));
  });
}

function middle(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The median and the interquartile range (the middle half of the runs) of some times. */
function spreadOf(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { ms: middle(times), low: at(0.25), high: at(0.75) };
}

/** Medians and spreads of several commands, run in turn in each round so that a change of machine load hits all alike. */
async function interleaved(rows, runs) {
  const times = rows.map(() => []);
  for (let i = 0; i < runs; i++) for (const [k, row] of rows.entries()) times[k].push(await timeOnce(row.command, row.env));
  return times.map(spreadOf);
}

export function printTable(title, rows) {
  const header = ['', 'median ms', 'middle half', 'ratio', 'target', ''];
  const body = rows.map((r) => [r.name, r.ms.toFixed(1), r.low === undefined ? '' : `${r.low.toFixed(1)}–${r.high.toFixed(1)}`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.target === undefined ? '' : `<= ${r.target}x`, r.target === undefined ? '' : r.ratio <= r.target ? 'ok' : 'OVER']);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => row[i].length)));
  console.log(title);
  for (const row of [header, ...body]) console.log('  ' + row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
}

// --- startup: --version, --help and doctor --only inventory as a ratio to `node -e 0` (targets 1.3x, 2x, 3x) ---
async function benchStartup(runs = 21) {
  const inventory = new URL('../test/fixtures/inventory/realistic.yml', import.meta.url).pathname;
  // As installed: the file run as a program. Interleaved run by run with the baseline.
  const rows = [
    { name: 'node -e 0', command: [process.execPath, '-e', '0'] },
    { name: 'cloudgate --version', command: [BIN, '--version'], target: 1.3 },
    { name: 'cloudgate --help', command: [BIN, '--help'], target: 2 },
    { name: 'cloudgate doctor --only inventory', command: [BIN, 'doctor', '--only', 'inventory', '--inventory', inventory], target: 3 },
    ...(EXTRA_CA_CERTS ? [{ name: `cloudgate --version, NODE_EXTRA_CA_CERTS=${EXTRA_CA_CERTS}`, command: [BIN, '--version'], env: { NODE_EXTRA_CA_CERTS: EXTRA_CA_CERTS } }] : []),
  ];
  const figures = await interleaved(rows, runs);
  const baseline = figures[0].ms;
  printTable(`startup (median of ${runs} interleaved runs each, same machine, same run):`,
    rows.map((row, k) => ({ name: row.name, ...figures[k], ...(k > 0 ? { ratio: figures[k].ms / baseline } : {}), target: row.target })));
  // Where the inventory run's time goes: the run (loading the group's code, then reading, validating and
  // rendering before its one check reports; --json's durationMs counts it all) against the rest.
  const inside = [];
  const outside = [];
  for (let i = 0; i < 9; i++) {
    const run = await runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--json']);
    const checks = Number(JSON.parse(run.stdout || '{}').durationMs);
    if (Number.isFinite(checks)) {
      inside.push(checks);
      outside.push(run.ms - checks);
    }
  }
  if (inside.length) {
    console.log(`  where the time of doctor --only inventory goes (median of ${inside.length} runs, --json): ${Math.round(middle(inside))} ms in the run ` +
      `(loading the group's code, reading, validating, rendering the objects), ${Math.round(middle(outside))} ms around it (start-up, exit); node -e 0 ${Math.round(baseline)} ms`);
  }
}

// --- tls: doctor --only tls over 50 endpoints behind a 100 ms round trip (target <= 0.3 s wall) ---
// One TLS server on 127.0.0.1, reached through 50 delaying TCP proxies (one port per endpoint): the
// proxy opens its upstream connection one round trip after accepting (the TCP handshake), then holds
// every chunk half a round trip in each direction.
function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Forwards from `from` to `to`, each chunk `delayMs` after it arrived (order kept). */
function delayedPipe(from, to, delayMs) {
  from.on('data', (chunk) => setTimeout(() => to.writable && to.write(chunk), delayMs));
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('error', () => to.destroy());
}

function delayingProxy(targetPort, roundTripMs) {
  return listen(createServer((client) => {
    client.pause();
    client.on('error', () => undefined);
    setTimeout(() => {
      const upstream = connect(targetPort, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      delayedPipe(client, upstream, roundTripMs / 2);
      delayedPipe(upstream, client, roundTripMs / 2);
      client.resume();
    }, roundTripMs);
  }));
}

async function benchTls({ endpoints = 50, roundTripMs = 100, runs = 5 } = {}) {
  const ca = (await loadTestServers()).createTestCA('cloudgate bench CA');
  const server = await listen(createTlsServer(ca.issue(['localhost']), (socket) => socket.end()));
  const proxies = await Promise.all(Array.from({ length: endpoints }, () => delayingProxy(server.address().port, roundTripMs)));
  const args = ['doctor', '--only', 'tls', '--ca-file', ca.file, '--json'];
  for (const p of proxies) args.push('--endpoint', `localhost:${p.address().port}`);
  const check = await runCli(args);
  const report = JSON.parse(check.stdout || '{"summary":{}}');
  // The floor: a bare Node script making the same handshakes (scripts/bench-tls-floor.mjs), run by run beside cloudgate.
  const floorScript = new URL('./bench-tls-floor.mjs', import.meta.url).pathname;
  const floorArgs = proxies.map((p) => `localhost:${p.address().port}`);
  const timeFloor = () => new Promise((resolve) => {
    const started = performance.now();
    spawn(process.execPath, [floorScript, ...floorArgs], { env: { ...process.env, TLS_FLOOR_CA: ca.file }, stdio: 'ignore' })
      .on('close', (code) => resolve({ code, ms: performance.now() - started }));
  });
  const times = [];
  const floorTimes = [];
  let floorFailed = false;
  for (let i = 0; i < runs; i++) {
    times.push((await runCli(args)).ms);
    const floor = await timeFloor();
    floorTimes.push(floor.ms);
    floorFailed ||= floor.code !== 0;
  }
  const memory = await peakMemoryMb([BIN, ...args]);
  for (const s of [server, ...proxies]) s.close();
  const { ms, low, high } = spreadOf(times);
  const floor = spreadOf(floorTimes);
  console.log(`tls: doctor --only tls, ${endpoints} endpoints behind a ${roundTripMs} ms round trip (median of ${runs} runs): ` +
    `${Math.round(ms)} ms wall (middle half ${Math.round(low)}–${Math.round(high)}; the run ${report.durationMs} ms (--json durationMs, loading the group's code included); ok ${report.summary.ok ?? 0}, fail ${report.summary.fail ?? 0}); ` +
    `target <= 300 ms: ${ms <= 300 ? 'ok' : 'OVER'}; peak memory ${memory.toFixed(1)} MB (target < 80 MB)`);
  console.log(`  bare Node script, the same ${endpoints} handshakes at once (the floor here: one server process for all endpoints, the client on the same cores): ` +
    `${Math.round(floor.ms)} ms (middle half ${Math.round(floor.low)}–${Math.round(floor.high)})${floorFailed ? ', WARNING: a handshake failed' : ''}; cloudgate ${(ms / floor.ms).toFixed(2)}x`);
}

// --- memory: peak resident memory (max RSS, from /usr/bin/time) of each command, target < 80 MB ---
/** Max RSS in MB of one run of `command`; async, so servers in this process keep answering. */
function peakMemoryMb(command, env = {}) {
  const file = join(mkdtempSync(join(tmpdir(), 'cloudgate-bench-rss-')), 'rss');
  return new Promise((resolve) => {
    spawn('/usr/bin/time', ['-f', '%M', '-o', file, ...command], { env: { ...process.env, CI: 'true', ...env }, stdio: 'ignore' })
      .on('close', () => resolve(Number(readFileSync(file, 'utf8').trim().split('\n').pop()) / 1024));
  });
}

async function benchMemory() {
  if (!existsSync('/usr/bin/time')) {
    console.log('memory: skipped (/usr/bin/time is not installed; Debian package `time`)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-bench-memory-'));
  const inventory = new URL('../test/fixtures/inventory/realistic.yml', import.meta.url).pathname;
  const answers = join(dir, 'answers.yml');
  writeFileSync(answers, 'cluster_issuer_type: self-signed\n');
  const rows = [
    ['node -e 0', [process.execPath, '-e', '0']],
    ['cloudgate --version', [BIN, '--version']],
    ['cloudgate --help', [BIN, '--help']],
    ['cloudgate schema', [BIN, 'schema']],
    ['cloudgate doctor --only inventory', [BIN, 'doctor', '--only', 'inventory', '--inventory', inventory]],
    ['cloudgate doctor (all groups, nothing reachable)', [BIN, 'doctor', '--inventory', inventory, '--timeout', '2']],
    ['cloudgate setup --answers --dry-run', [BIN, 'setup', '--answers', answers, '--inventory', join(dir, 'inventory.yml'), '--dry-run']],
    ['cloudgate render', [BIN, 'render', '--inventory', inventory]],
  ];
  console.log('memory: peak resident memory of one run each (max RSS), target < 80 MB:');
  for (const [name, command] of rows) {
    const mb = await peakMemoryMb(command);
    console.log(`  ${name.padEnd(50)} ${mb.toFixed(1).padStart(6)} MB  ${name.startsWith('node') ? '' : mb < 80 ? 'ok' : 'OVER'}`);
  }
}

// --- signin: doctor --only signin against the local test broker/identity service, beside a shell script
// doing the same five HTTP requests with one curl process each, and a bare Node script making them (target
// <= 1.2x that bare Node script: the least a Node program can take for them) ---

const SIGNIN_CURL_SCRIPT = `#!/bin/sh
set -e
c="curl -sS --fail --cacert $OS_CACERT"
form="grant_type=urn:ietf:params:oauth:grant-type:token-exchange&client_id=$CLOUDGATE_CLIENT_ID&client_secret=$CLOUDGATE_CLIENT_SECRET&subject_token=$CLOUDGATE_SUBJECT_TOKEN&subject_token_type=urn:ietf:params:oauth:token-type:access_token"
broker=$($c -H 'Content-Type: application/x-www-form-urlencoded' --data "$form" "$CLOUDGATE_BROKER_URL/realms/$CLOUDGATE_REALM/protocol/openid-connect/token" | sed -n 's/.*"access_token":"\\([^"]*\\)".*/\\1/p')
unscoped=$($c -D - -o /dev/null -H "Authorization: Bearer $broker" "$OS_AUTH_URL/OS-FEDERATION/identity_providers/$OS_IDENTITY_PROVIDER/protocols/openid/auth" | tr -d '\\r' | sed -n 's/^[Xx]-[Ss]ubject-[Tt]oken: //p')
project=$($c -H "X-Auth-Token: $unscoped" "$OS_AUTH_URL/projects" | sed -n 's/.*"id":"\\([^"]*\\)","name":"'"$OS_PROJECT_NAME"'".*/\\1/p')
body='{"auth":{"identity":{"methods":["token"],"token":{"id":"'"$unscoped"'"}},"scope":{"project":{"id":"'"$project"'"}}}}'
scoped=$($c -D - -o /dev/null -H 'Content-Type: application/json' -H "X-Auth-Token: $unscoped" --data "$body" "$OS_AUTH_URL/auth/projects" | tr -d '\\r' | sed -n 's/^[Xx]-[Ss]ubject-[Tt]oken: //p')
$c -o /dev/null -H "X-Auth-Token: $scoped" "$COMPUTE_URL/servers"
`;

async function benchSignin(runs = 21) {
  const { startIdentityServer, createTestCA } = await loadTestServers();
  const ca = createTestCA();
  const server = await startIdentityServer({ ca });
  const env = { ...server.env(), OS_PROJECT_NAME: 'demo', COMPUTE_URL: `${server.origin}/compute/v2.1` };
  const script = join(mkdtempSync(join(tmpdir(), 'cloudgate-bench-signin-')), 'signin.sh');
  writeFileSync(script, SIGNIN_CURL_SCRIPT, { mode: 0o700 });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    // Async: the servers live in this process, a synchronous spawn would starve them.
    const baseline = await new Promise((resolve) => {
      const child = spawn('sh', [script], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr: stderr.trim() }));
    });
    if (baseline.code !== 0) {
      console.log(`signin: skipped: the curl script failed (exit ${baseline.code}: ${baseline.stderr}); is curl installed?`);
      return;
    }
    const check = await runCli(['doctor', '--only', 'signin', '--json']);
    const report = JSON.parse(check.stdout || '{"summary":{}}');
    if (check.code !== 0) console.log(`signin: WARNING: doctor exited ${check.code}: ${JSON.stringify(report.summary)}`);
    const floorScript = new URL('./bench-signin-floor.mjs', import.meta.url).pathname;
    const floorCheck = await new Promise((resolve) => spawn(process.execPath, [floorScript], { stdio: 'ignore' }).on('close', resolve));
    if (floorCheck !== 0) console.log(`signin: WARNING: the bare Node floor script failed (exit ${floorCheck}); its figure is not comparable.`);
    const doctorArgs = ['doctor', '--only', 'signin', '--json'];
    const rows = [
      // The floor the target is set against: the same five requests by a bare Node script (no cloudgate code).
      { name: 'bare Node script, same 5 requests', command: [process.execPath, floorScript] },
      // As installed: the file run as a program.
      { name: 'cloudgate doctor --only signin', command: [BIN, ...doctorArgs], target: 1.2 },
      { name: 'node bin/cloudgate.js doctor --only signin', command: [process.execPath, BIN, ...doctorArgs] },
      // For scale: Node's start-up, and one curl process per request.
      { name: 'node -e 0 (start-up floor)', command: [process.execPath, '-e', '0'] },
      { name: 'curl script (one curl per request)', command: ['sh', script] },
      ...(EXTRA_CA_CERTS ? [{ name: 'cloudgate doctor --only signin, NODE_EXTRA_CA_CERTS set', command: [BIN, ...doctorArgs], env: { NODE_EXTRA_CA_CERTS: EXTRA_CA_CERTS } }] : []),
    ];
    const figures = await interleaved(rows, runs);
    const floor = figures[0].ms;
    printTable(`signin (median of ${runs} interleaved runs each; 5 HTTPS requests; ratio to the bare Node script; ${server.connections()} connections accepted in all):`,
      rows.map((row, k) => ({ name: row.name, ...figures[k], ...(k > 0 ? { ratio: figures[k].ms / floor } : {}), target: row.target })));
    await printSigninSplit(floorScript, doctorArgs);
    console.log(`  peak memory of cloudgate doctor --only signin: ${(await peakMemoryMb([BIN, ...doctorArgs])).toFixed(1)} MB (target < 80 MB)`);
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key]; else process.env[key] = saved[key];
    await server.close();
  }
}

/**
 * Where the signin time goes: the requests themselves (the bare script's own clock around its five
 * requests; cloudgate's checks, one step after the other, as the sum of their durations in its --json
 * report) and everything around them (Node's start-up, loading the code, rendering, exit). Alternating
 * runs, outputs read.
 */
async function printSigninSplit(floorScript, doctorArgs, runs = 9) {
  const floor = { inside: [], outside: [] };
  const cloudgate = { inside: [], outside: [] };
  const add = (into, ms, inside) => {
    if (!Number.isFinite(inside)) return;
    into.inside.push(inside);
    into.outside.push(ms - inside);
  };
  for (let i = 0; i < runs; i++) {
    const bare = await runCaptured([process.execPath, floorScript]);
    add(floor, bare.ms, Number(JSON.parse(bare.stdout || '{}').requestsMs));
    const doctor = await runCli(doctorArgs);
    const checks = JSON.parse(doctor.stdout || '{}').checks;
    add(cloudgate, doctor.ms, Array.isArray(checks) ? checks.reduce((sum, c) => sum + c.durationMs, 0) : Number.NaN);
  }
  const figure = (times) => (times.length ? `${Math.round(middle(times))} ms` : 'n/a');
  console.log(`  where the time goes (median of ${runs} alternating runs): bare script ${figure(floor.inside)} in its requests, ` +
    `${figure(floor.outside)} around them; cloudgate ${figure(cloudgate.inside)} in its checks, ${figure(cloudgate.outside)} around them ` +
    '(start-up and loading its code, rendering, exit)');
}

// --- keystone: doctor --only signin against the real Keystone of test/e2e/keystone (when start.sh has it
// running), beside the OpenStack client signing in the same user to the same project with the same broker
// token kind (target: cloudgate <= 0.5x the client's wall time, while doing six steps to its two) ---
function keystoneEnvironment() {
  const state = process.env.CLOUDGATE_KEYSTONE_STATE || new URL('../test/e2e/keystone/.state', import.meta.url).pathname;
  const alive = ['idp', 'broker', 'keystone', 'compute'].every((name) => {
    try {
      process.kill(Number(readFileSync(join(state, 'pids', `${name}.pid`), 'utf8')), 0);
      return true;
    } catch {
      return false;
    }
  });
  return alive && existsSync(join(state, 'env.json')) ? state : undefined;
}

async function benchKeystone(runs = 7) {
  const state = keystoneEnvironment();
  if (!state) {
    console.log('keystone: skipped (start it with test/e2e/keystone/start.sh; stop with stop.sh)');
    return;
  }
  const chain = await import('../test/e2e/keystone/chain.mjs');
  const env = chain.loadEnv(state);
  const doctorArgs = ['doctor', '--only', 'signin', '--json', '--config', env.configFile, '--ca-file', env.caFile];
  const check = await runCli(doctorArgs);
  if (check.code !== 0) console.log(`keystone: WARNING: doctor exited ${check.code}: ${check.stdout.slice(0, 300)}`);
  // The client gets the broker token as an access token (v3oidcaccesstoken); it is fetched once, beforehand.
  const brokerToken = await chain.brokerToken(env, await chain.idpToken(env));
  const openstack = ['openstack', '--os-auth-url', env.authUrl, '--os-cacert', env.caFile, '--os-auth-type', 'v3oidcaccesstoken',
    '--os-access-token', brokerToken, '--os-identity-provider', env.idpId, '--os-protocol', env.protocol,
    '--os-project-id', env.projects.alpha, 'token', 'issue', '-f', 'value', '-c', 'project_id'];
  const probe = await new Promise((resolve) => {
    const child = spawn(openstack[0], openstack.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', () => resolve('not runnable'));
    child.on('close', (code) => resolve(code === 0 && out.trim() === env.projects.alpha ? 'ok' : `exit ${code}`));
  });
  if (probe !== 'ok') console.log(`keystone: WARNING: openstack token issue: ${probe}`);
  // Alternate the two, so a load change on a shared machine hits both alike.
  const clientTimes = [];
  const doctorTimes = [];
  for (let i = 0; i < runs; i++) {
    clientTimes.push(await timeOnce(openstack));
    doctorTimes.push(await timeOnce([BIN, ...doctorArgs]));
  }
  const client = middle(clientTimes);
  const doctor = middle(doctorTimes);
  printTable(`keystone (median of ${runs} alternating runs each; real Keystone ${env.authUrl}, user ci-robot, project alpha):`, [
    { name: 'openstack v3oidcaccesstoken token issue (2 steps)', ms: client },
    { name: 'cloudgate doctor --only signin (6 steps)', ms: doctor, ratio: doctor / client, target: 0.5 },
  ]);
}

// --- setup walkthrough: launch to the first drawn question, in a pseudo-terminal (target < 2.5x node -e 0) ---
// `script` gives the binary a real pty (so it is interactive) without tmux's polling; the clock stops when
// the first question's text reaches the pty output. The baseline is `node -e 0` under the same `script`.
// With `respond`, it also times the first key handled: Down pressed as soon as the question shows,
// until the highlight has moved (the full terminal UI is then running).
function firstQuestion(command, marker, respond) {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.CI;
    const started = performance.now();
    const child = spawn('script', ['-qfec', `stty cols 80 rows 24; exec ${command}`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let drawn;
    let handled;
    child.stdout.on('data', (d) => {
      out += d;
      if (drawn === undefined && marker && out.includes(marker)) {
        drawn = performance.now() - started;
        if (respond) child.stdin.write(respond.key);
        else child.stdin.write('\u0003');
      }
      if (respond && drawn !== undefined && handled === undefined && out.includes(respond.until)) {
        handled = performance.now() - started;
        child.stdin.write('\u0003');
      }
    });
    child.on('close', () => resolve({ drawn: drawn ?? performance.now() - started, handled }));
  });
}

async function benchSetupFirstQuestion(runs = 9) {
  const inventory = join(mkdtempSync(join(tmpdir(), 'cloudgate-bench-setup-')), 'certificates.yml');
  const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
  const runsOf = async (command, marker, respond) => {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await firstQuestion(command, marker, respond));
    return results;
  };
  const baseline = spreadOf((await runsOf(`${q(process.execPath)} -e 0`)).map((r) => r.drawn));
  const setup = await runsOf(`${q(BIN)} setup --inventory ${q(inventory)}`, 'Certificate type',
    { key: '\u001b[B', until: '> Wildcard, issued automatically' });
  const drawn = spreadOf(setup.map((r) => r.drawn));
  const handled = spreadOf(setup.map((r) => r.handled ?? Number.NaN));
  // Peak memory of the walkthrough up to its first handled key, /usr/bin/time running inside the pty.
  const rssFile = join(dirname(inventory), 'rss');
  await firstQuestion(`/usr/bin/time -f %M -o ${q(rssFile)} ${q(BIN)} setup --inventory ${q(inventory)}`, 'Certificate type',
    { key: '\u001b[B', until: '> Wildcard, issued automatically' });
  const memory = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : Number.NaN;
  printTable(`setup walkthrough (median of ${runs} runs each, both under script(1) in an 80x24 pty):`, [
    { name: 'node -e 0', ...baseline },
    { name: 'cloudgate setup: first question drawn', ...drawn, ratio: drawn.ms / baseline.ms, target: 2.5 },
    { name: 'cloudgate setup: first key handled (informative)', ...handled, ratio: handled.ms / baseline.ms },
  ]);
  console.log(`  peak memory of cloudgate setup up to the first key handled: ${memory.toFixed(1)} MB (target < 80 MB)`);
}

// `npm run bench -- signin tls` runs only the named sections.
const sections = { startup: benchStartup, memory: benchMemory, tls: benchTls, signin: benchSignin, keystone: benchKeystone, setup: benchSetupFirstQuestion,
  inventory: benchInventory, serve: async () => (await import('./bench-serve.mjs')).benchServe(), kube: async () => (await import('./bench-kube.mjs')).benchKube() };
// Options (`--runs N`, `--interval MS`, `--no-kube`: the serve section's) are not section names.
const chosen = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !['--runs', '--interval'].includes(all[i - 1]));
for (const name of chosen) if (!sections[name]) throw new Error(`unknown bench section ${name}; known: ${Object.keys(sections).join(', ')}`);
for (const [name, bench] of Object.entries(sections)) if (chosen.length === 0 || chosen.includes(name)) await bench();
