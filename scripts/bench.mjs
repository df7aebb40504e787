// Speed figures (`npm run bench`, after a build and `npm run build:exe`). Each section is one function;
// prints, asserts nothing. The sections of start-up, memory, sign-in, TLS, the walkthrough and Keystone run
// cloudgate on each Node line side by side, and the single executable (scripts/bench-lines.mjs); the
// others on the Node that runs the bench.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { benchInventory } from './bench-inventory.mjs';
import {
  ENVIRONMENTS, bareNode, childEnvironment, cloudgate, columnsOf, executable, matrix, middle, nodeLines, printExecutableBeside, printLegend, printMatrix,
  spreadOf,
} from './bench-lines.mjs';
import { loadTestServers } from './bench-servers.mjs';

const LINES = nodeLines();
const EXE = executable();
const SUBJECTS = [...LINES, ...(EXE ? [EXE] : [])];
if (!EXE) console.log('The executable is not built (npm run build:exe): its figures are missing below.');
printLegend(SUBJECTS);

/** Wall time, exit code and standard output of one run of `{ command, env }`. */
function runCaptured({ command: [file, ...args], env }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(file, args, { env: childEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout, ms: performance.now() - started }));
  });
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

// --- startup: --version, --help and doctor --only inventory as a ratio to `node -e 0` of the same Node
// (targets on the active LTS: 1.3x, 1.3x, 2.5x; the executable no slower than cloudgate on that Node) ---
async function benchStartup(runs = 21) {
  const inventory = new URL('../test/fixtures/inventory/realistic.yml', import.meta.url).pathname;
  const floor = { name: 'node -e 0', cell: (s) => bareNode(s, ['-e', '0']) };
  const rows = [
    floor,
    { name: 'cloudgate --version', cell: (s) => cloudgate(s, ['--version']), floor, target: 1.3, besideExecutable: true },
    { name: 'cloudgate --help', cell: (s) => cloudgate(s, ['--help']), floor, target: 1.3, besideExecutable: true },
    { name: 'cloudgate doctor --only inventory', cell: (s) => cloudgate(s, ['doctor', '--only', 'inventory', '--inventory', inventory]), floor, target: 2.5, besideExecutable: true },
  ];
  const columns = columnsOf(SUBJECTS);
  const figure = await matrix(rows, columns, runs);
  printMatrix(`startup (median of ${runs} interleaved runs each; ratio to node -e 0 on the same Node, same environment):`, rows, columns, figure);
  printExecutableBeside(rows, columns, figure);
  // Where the inventory run's time goes: the run (loading the group's code, then reading, validating and
  // rendering before its one check reports; --json's durationMs counts it all) against the rest.
  const parts = [];
  for (const subject of SUBJECTS) {
    const inside = [];
    const outside = [];
    for (let i = 0; i < 9; i++) {
      const run = await runCaptured(cloudgate(subject, ['doctor', '--only', 'inventory', '--inventory', inventory, '--json']));
      const checks = Number(JSON.parse(run.stdout || '{}').durationMs);
      if (Number.isFinite(checks)) {
        inside.push(checks);
        outside.push(run.ms - checks);
      }
    }
    if (inside.length) parts.push(`${subject.short} ${Math.round(middle(inside))} ms in the run, ${Math.round(middle(outside))} ms around it`);
  }
  console.log(`  where the time of doctor --only inventory goes (median of 9 runs, --json, CA unset; the run: loading the group's code, reading, validating, rendering the objects; around it: start-up, exit): ${parts.join('; ')}`);
}

/** Milliseconds from starting `serve` until it says it listens (then it is stopped). */
function timeToListen({ command: [file, ...args], env }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(file, args, { env: childEnvironment(env), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let listening;
    child.stderr.on('data', (d) => {
      stderr += d;
      if (listening === undefined && stderr.includes('Listening on')) {
        listening = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.on('close', () => resolve(listening ?? Number.NaN));
  });
}

// --- serve start-up: from start to listening, as a container's start-up (informative) ---
async function benchServeStart(runs = 9) {
  const inventory = new URL('../test/fixtures/inventory/realistic.yml', import.meta.url).pathname;
  const args = ['serve', '--listen', '127.0.0.1:0', '--only', 'inventory', '--inventory', inventory];
  const times = SUBJECTS.map(() => []);
  for (let i = 0; i < runs; i++) for (const [k, subject] of SUBJECTS.entries()) times[k].push(await timeToListen(cloudgate(subject, args)));
  console.log(`serve start-up, from start to "Listening on" (median of ${runs} interleaved runs, CA unset): ` +
    SUBJECTS.map((s, k) => `${s.short} ${middle(times[k]).toFixed(1)} ms`).join(', '));
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

async function benchTls({ endpoints = 50, roundTripMs = 100, runs = 9 } = {}) {
  const ca = (await loadTestServers()).createTestCA('cloudgate bench CA');
  const server = await listen(createTlsServer(ca.issue(['localhost']), (socket) => socket.end()));
  const proxies = await Promise.all(Array.from({ length: endpoints }, () => delayingProxy(server.address().port, roundTripMs)));
  try {
    const args = ['doctor', '--only', 'tls', '--ca-file', ca.file, '--json'];
    for (const p of proxies) args.push('--endpoint', `localhost:${p.address().port}`);
    // The floor: a bare Node script making the same handshakes (scripts/bench-tls-floor.mjs), on the same Node.
    const floorScript = new URL('./bench-tls-floor.mjs', import.meta.url).pathname;
    const floor = { name: 'bare Node script, the same handshakes', cell: (s) => ({ ...bareNode(s, [floorScript, ...proxies.map((p) => `localhost:${p.address().port}`)]), env: { TLS_FLOOR_CA: ca.file } }) };
    const rows = [floor, { name: 'cloudgate doctor --only tls', cell: (s) => cloudgate(s, args), floor, target: 1.1, besideExecutable: true }];
    const reports = [];
    for (const subject of SUBJECTS) {
      const report = JSON.parse((await runCaptured(cloudgate(subject, args))).stdout || '{"summary":{}}');
      reports.push(`${subject.short}: the run ${report.durationMs} ms, ok ${report.summary.ok ?? 0}, fail ${report.summary.fail ?? 0}`);
    }
    const columns = columnsOf(SUBJECTS);
    const figure = await matrix(rows, columns, runs);
    printMatrix(`tls: doctor --only tls, ${endpoints} endpoints behind a ${roundTripMs} ms round trip (median of ${runs} interleaved runs; the floor: ` +
      'one server process answers all endpoints, on the same cores as the client):', rows, columns, figure);
    printExecutableBeside(rows, columns, figure);
    const memory = [];
    for (const subject of SUBJECTS) memory.push(`${subject.short} ${(await peakMemoryMb(cloudgate(subject, args))).toFixed(1)} MB`);
    console.log(`  --json durationMs (loading the group's code included): ${reports.join('; ')}`);
    console.log(`  peak memory (target < 80 MB): ${memory.join(', ')}`);
  } finally {
    for (const s of [server, ...proxies]) s.close();
  }
}

// --- memory: peak resident memory (max RSS, from /usr/bin/time) of each command, target < 80 MB ---
/** Max RSS in MB of one run of `{ command, env }`; async, so servers in this process keep answering. */
function peakMemoryMb({ command, env }) {
  const file = join(mkdtempSync(join(tmpdir(), 'cloudgate-bench-rss-')), 'rss');
  return new Promise((resolve) => {
    spawn('/usr/bin/time', ['-f', '%M', '-o', file, ...command], { env: childEnvironment(env), stdio: 'ignore' })
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
    ['node -e 0', (s) => bareNode(s, ['-e', '0'])],
    ['cloudgate --version', (s) => cloudgate(s, ['--version'])],
    ['cloudgate --help', (s) => cloudgate(s, ['--help'])],
    ['cloudgate schema', (s) => cloudgate(s, ['schema'])],
    ['cloudgate doctor --only inventory', (s) => cloudgate(s, ['doctor', '--only', 'inventory', '--inventory', inventory])],
    ['cloudgate doctor (all groups, nothing reachable)', (s) => cloudgate(s, ['doctor', '--inventory', inventory, '--timeout', '2'])],
    ['cloudgate setup --answers --dry-run', (s) => cloudgate(s, ['setup', '--answers', answers, '--inventory', join(dir, 'inventory.yml'), '--dry-run'])],
    ['cloudgate render', (s) => cloudgate(s, ['render', '--inventory', inventory])],
  ];
  console.log(`memory: peak resident memory of one run each (max RSS, MB; CA unset), target < 80 MB:`);
  console.log(`  ${''.padEnd(50)} ${SUBJECTS.map((s) => s.short.padStart(16)).join(' ')}`);
  for (const [name, cell] of rows) {
    const figures = [];
    for (const subject of SUBJECTS) {
      const mb = await peakMemoryMb(cell(subject));
      figures.push(`${mb.toFixed(1)}${name.startsWith('node') ? '' : mb < 80 ? ' ok' : ' OVER'}`.padStart(16));
    }
    console.log(`  ${name.padEnd(50)} ${figures.join(' ')}`);
  }
}

// --- signin: doctor --only signin against the local test broker/identity service, beside a shell script
// doing the same five HTTP requests with one curl process each, and a bare Node script making them (target
// on the active LTS: <= 1.3x that bare Node script on the same Node: the least a Node program can take for them) ---

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
    const doctorArgs = ['doctor', '--only', 'signin', '--json'];
    const floorScript = new URL('./bench-signin-floor.mjs', import.meta.url).pathname;
    for (const subject of SUBJECTS) {
      const check = await runCaptured(cloudgate(subject, doctorArgs));
      if (check.code !== 0) console.log(`signin: WARNING: doctor on ${subject.short} exited ${check.code}: ${JSON.stringify(JSON.parse(check.stdout || '{}').summary)}`);
      const bare = await runCaptured(bareNode(subject, [floorScript]));
      if (bare.code !== 0) console.log(`signin: WARNING: the bare Node floor script failed on ${subject.short} (exit ${bare.code}); its figure is not comparable.`);
    }
    // The floor the target is set against: the same five requests by a bare Node script (no cloudgate code), on the same Node.
    const floor = { name: 'bare Node script, same 5 requests', cell: (s) => bareNode(s, [floorScript]) };
    const rows = [
      floor,
      { name: 'cloudgate doctor --only signin', cell: (s) => cloudgate(s, doctorArgs), floor, target: 1.3, besideExecutable: true },
      // For scale: Node's start-up, and one curl process per request (no Node: once).
      { name: 'node -e 0 (start-up floor)', cell: (s) => bareNode(s, ['-e', '0']), floor },
      { name: 'curl script (one curl per request)', cell: (s, e) => (s === SUBJECTS[0] && e === ENVIRONMENTS[0] ? { command: ['sh', script] } : undefined), floor },
    ];
    const columns = columnsOf(SUBJECTS);
    const figure = await matrix(rows, columns, runs);
    printMatrix(`signin (median of ${runs} interleaved runs each; 5 HTTPS requests; ratio to the bare Node script on the same Node; ` +
      `${server.connections()} connections accepted in all):`, rows, columns, figure);
    printExecutableBeside(rows, columns, figure);
    for (const subject of SUBJECTS) await printSigninSplit(subject, floorScript, doctorArgs);
    const memory = [];
    for (const subject of SUBJECTS) memory.push(`${subject.short} ${(await peakMemoryMb(cloudgate(subject, doctorArgs))).toFixed(1)} MB`);
    console.log(`  peak memory of doctor --only signin (target < 80 MB): ${memory.join(', ')}`);
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key]; else process.env[key] = saved[key];
    await server.close();
  }
}

/**
 * Where the signin time goes: the requests themselves (the bare script's own clock around its five
 * requests; cloudgate's checks, one step after the other, as the sum of their durations in its --json
 * report) and everything around them (Node's start-up, loading the code, rendering, exit). Alternating
 * runs, outputs read, NODE_EXTRA_CA_CERTS unset.
 */
async function printSigninSplit(subject, floorScript, doctorArgs, runs = 9) {
  const floor = { inside: [], outside: [] };
  const ours = { inside: [], outside: [] };
  const add = (into, ms, inside) => {
    if (!Number.isFinite(inside)) return;
    into.inside.push(inside);
    into.outside.push(ms - inside);
  };
  for (let i = 0; i < runs; i++) {
    const bare = await runCaptured(bareNode(subject, [floorScript]));
    add(floor, bare.ms, Number(JSON.parse(bare.stdout || '{}').requestsMs));
    const doctor = await runCaptured(cloudgate(subject, doctorArgs));
    const checks = JSON.parse(doctor.stdout || '{}').checks;
    add(ours, doctor.ms, Array.isArray(checks) ? checks.reduce((sum, c) => sum + c.durationMs, 0) : Number.NaN);
  }
  const figure = (times) => (times.length ? `${Math.round(middle(times))} ms` : 'n/a');
  console.log(`  where the time goes on ${subject.short} (median of ${runs} alternating runs): bare script ${figure(floor.inside)} in its requests, ` +
    `${figure(floor.outside)} around them; cloudgate ${figure(ours.inside)} in its checks, ${figure(ours.outside)} around them ` +
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
  for (const subject of SUBJECTS) {
    const check = await runCaptured(cloudgate(subject, doctorArgs));
    if (check.code !== 0) console.log(`keystone: WARNING: doctor on ${subject.short} exited ${check.code}: ${check.stdout.slice(0, 300)}`);
  }
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
  // Each in turn, so a load change on a shared machine hits all alike.
  const client = { name: 'openstack v3oidcaccesstoken token issue (2 steps)', cell: (s, e) => (s === SUBJECTS[0] && e === ENVIRONMENTS[0] ? { command: openstack } : undefined) };
  const rows = [client, { name: 'cloudgate doctor --only signin (6 steps)', cell: (s) => cloudgate(s, doctorArgs), floor: client, target: 0.5 }];
  const columns = columnsOf(SUBJECTS, ENVIRONMENTS.slice(0, 1));
  const figure = await matrix(rows, columns, runs);
  // The client's one figure is every column's floor.
  const judged = (row, column) => figure(row, row === client ? columns[0] : column);
  printMatrix(`keystone (median of ${runs} interleaved runs each; real Keystone ${env.authUrl}, user ci-robot, project alpha; ratio to the client):`, rows, columns, judged);
}

// --- setup walkthrough: launch to the first drawn question, in a pseudo-terminal (target < 2.5x node -e 0) ---
// `script` gives the binary a real pty (so it is interactive) without tmux's polling; the clock stops when
// the first question's text reaches the pty output. The baseline is `node -e 0` under the same `script`.
// With `respond`, it also times the first key handled: Down pressed as soon as the question shows, until
// the screen is drawn again (the full terminal UI is then running).
function firstQuestion({ command, env: extra = {} }, marker, respond) {
  return new Promise((resolve) => {
    // Interactive: no CI.
    const env = childEnvironment({ ...extra, CI: undefined });
    const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
    const started = performance.now();
    const child = spawn('script', ['-qfec', `stty cols 80 rows 24; exec ${command.map(q).join(' ')}`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let drawn;
    let handled;
    let pressedAt;
    child.stdout.on('data', (d) => {
      out += d;
      if (drawn === undefined && marker && out.includes(marker)) {
        drawn = performance.now() - started;
        pressedAt = out.length;
        child.stdin.write(respond ? respond : '\u0003');
      } else if (respond && drawn !== undefined && handled === undefined && out.length > pressedAt) {
        handled = performance.now() - started;
        child.stdin.write('\u0003');
      }
    });
    child.on('close', () => resolve({ drawn: drawn ?? performance.now() - started, handled }));
  });
}

async function benchSetupFirstQuestion(runs = 9) {
  const inventory = join(mkdtempSync(join(tmpdir(), 'cloudgate-bench-setup-')), 'certificates.yml');
  // The first screen says which question of how many it is; Down moves its highlight, which redraws it.
  const marker = 'question 1 of';
  const down = '\u001b[B';
  const rows = [];
  for (const subject of SUBJECTS) {
    const drawn = [];
    const handled = [];
    const floor = [];
    for (let i = 0; i < runs; i++) {
      floor.push((await firstQuestion(bareNode(subject, ['-e', '0']))).drawn);
      const setup = await firstQuestion(cloudgate(subject, ['setup', '--inventory', inventory]), marker, down);
      drawn.push(setup.drawn);
      handled.push(setup.handled ?? Number.NaN);
    }
    // Peak memory of the walkthrough up to its first handled key, /usr/bin/time running inside the pty.
    const rssFile = join(dirname(inventory), `rss-${subject.key}`);
    const run = cloudgate(subject, ['setup', '--inventory', inventory]);
    await firstQuestion({ ...run, command: ['/usr/bin/time', '-f', '%M', '-o', rssFile, ...run.command] }, marker, down);
    const memory = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : Number.NaN;
    const base = spreadOf(floor);
    const first = spreadOf(drawn);
    const key = spreadOf(handled);
    rows.push({ name: `${subject.short}: node -e 0`, ...base });
    rows.push({ name: `${subject.short}: first question drawn`, ...first, ratio: first.ms / base.ms, target: 2.5 });
    rows.push({ name: `${subject.short}: first key handled (informative; peak memory ${memory.toFixed(1)} MB, target < 80 MB)`, ...key, ratio: key.ms / base.ms });
  }
  printTable(`setup walkthrough (median of ${runs} alternating runs each, under script(1) in an 80x24 pty, CA unset):`, rows);
}

// `npm run bench -- signin tls` runs only the named sections.
const sections = { startup: benchStartup, 'serve-start': benchServeStart, memory: benchMemory, tls: benchTls, signin: benchSignin, keystone: benchKeystone, setup: benchSetupFirstQuestion,
  inventory: benchInventory, serve: async () => (await import('./bench-serve.mjs')).benchServe(), kube: async () => (await import('./bench-kube.mjs')).benchKube() };
// Options (`--runs N`, `--interval MS`, `--no-kube`: the serve section's) are not section names.
const chosen = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !['--runs', '--interval'].includes(all[i - 1]));
for (const name of chosen) if (!sections[name]) throw new Error(`unknown bench section ${name}; known: ${Object.keys(sections).join(', ')}`);
for (const [name, bench] of Object.entries(sections)) if (chosen.length === 0 || chosen.includes(name)) await bench();
