import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { createPki, startTlsEndpoint, type Pki, type RunningEndpoint } from '../servers/tls-endpoints.js';

// bin/cloudgate.js run as an installed `cloudgate` is: its shell line hands NODE_EXTRA_CA_CERTS over
// instead of letting Node parse it at start-up, and cloudgate must still trust it exactly as Node would.
const servers = useIdentityServers();
let pki: Pki;
let endpoint: RunningEndpoint;

beforeAll(async () => {
  pki = createPki();
  const leaf = pki.leaf(['localhost']);
  endpoint = await startTlsEndpoint({ chain: [leaf.cert, pki.intermediate.cert], key: leaf.key });
});
afterAll(async () => {
  await endpoint?.stop();
});

function signin(env: Record<string, string>, args: string[] = [], asProgram = true) {
  // OS_CACERT emptied: only what each test gives is trusted.
  return runCli(['doctor', '--only', 'signin', '--json', ...args], {
    asProgram,
    env: { ...servers.spec.env(), OS_PROJECT_NAME: 'demo', OS_CACERT: '', ...env },
  });
}

function statuses(stdout: string): string[] {
  return (JSON.parse(stdout).checks as { id: string; status: string }[]).map((c) => `${c.id}=${c.status}`);
}

describe('bin/cloudgate.js run as a program', () => {
  it('starts through sh and through node alike', async () => {
    const viaSh = await runCli(['--version'], { asProgram: true });
    const viaNode = await runCli(['--version']);
    expect(viaSh).toEqual({ code: 0, stdout: viaNode.stdout, stderr: '' });
    expect(viaSh.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('its shell line hands NODE_EXTRA_CA_CERTS over and passes every argument through unchanged', async () => {
    // A stand-in `node` first on PATH shows what the shell line executes.
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-launcher-'));
    const show = '#!/bin/sh\nprintf "%s\\n" "NODE_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS-unset}" "DEFERRED=${CLOUDGATE_DEFERRED_EXTRA_CA_CERTS-unset}" "$@"\n';
    writeFileSync(join(dir, 'node'), show, { mode: 0o755 });
    const env = { PATH: `${dir}:${process.env.PATH}` };
    const deferred = await runCli(['doctor', 'two words', ''], { asProgram: true, env: { ...env, NODE_EXTRA_CA_CERTS: '/etc/x ca.pem' } });
    expect(deferred.stdout.split('\n')).toEqual(['NODE_EXTRA_CA_CERTS=unset', 'DEFERRED=/etc/x ca.pem', BIN, 'doctor', 'two words', '', '']);
    const unset = await runCli(['--version'], { asProgram: true, env: { ...env, NODE_EXTRA_CA_CERTS: '' } });
    expect(unset.stdout.split('\n').slice(0, 2)).toEqual(['NODE_EXTRA_CA_CERTS=', 'DEFERRED=unset']);
  });

  it('trusts a deferred NODE_EXTRA_CA_CERTS without --ca-file, and puts the variable back', async () => {
    const ok = await signin({ NODE_EXTRA_CA_CERTS: servers.ca.file });
    expect(ok.code).toBe(0);
    expect(statuses(ok.stdout)).toContain('signin.api=ok');
    expect((await signin({ NODE_EXTRA_CA_CERTS: '' })).code).toBe(1);

    // The TLS check names the store that trusted the chain, read from the restored environment.
    const tls = await runCli(['doctor', '--only', 'tls', '--endpoint', `localhost:${endpoint.port}`, '--json'], {
      asProgram: true,
      env: { NODE_EXTRA_CA_CERTS: pki.rootFile, OS_CACERT: '' },
    });
    expect(tls.code).toBe(0);
    const check = JSON.parse(tls.stdout).checks.find((c: { id: string }) => c.id === `tls.localhost:${endpoint.port}`);
    expect(check.status).toBe('ok');
    expect(check.details.trustStore).toBe(`system + NODE_EXTRA_CA_CERTS ${pki.rootFile}`);
  });

  it('with --ca-file, still trusts NODE_EXTRA_CA_CERTS for a server the CA file does not cover', async () => {
    // Also through `node bin/cloudgate.js`, where Node loaded the file itself: adding the CA file must not drop it.
    for (const asProgram of [true, false]) {
      const both = await signin({ NODE_EXTRA_CA_CERTS: servers.ca.file }, ['--ca-file', pki.rootFile], asProgram);
      expect(both.code).toBe(0);
      expect(statuses(both.stdout)).toContain('signin.api=ok');
    }
    const caFileOnly = await signin({ NODE_EXTRA_CA_CERTS: '' }, ['--ca-file', pki.rootFile]);
    expect(caFileOnly.code).toBe(1);
    expect(caFileOnly.stdout).toContain('unknown certificate authority');
  });

  it('ignores an unreadable NODE_EXTRA_CA_CERTS with a warning, as Node does', async () => {
    const result = await signin({ NODE_EXTRA_CA_CERTS: '/nonexistent/extra.pem' }, ['--ca-file', servers.ca.file]);
    expect(result.code).toBe(0);
    const untrusted = await signin({ NODE_EXTRA_CA_CERTS: '/nonexistent/extra.pem' });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('Ignoring extra certs from `/nonexistent/extra.pem`');
    expect(JSON.parse(untrusted.stdout).summary.fail).toBe(1);
  });
});
