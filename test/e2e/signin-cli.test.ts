import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { startIdentityServer, type IdentityServer } from '../servers/identity.js';

const servers = useIdentityServers();

function secretsOf(s: IdentityServer): string[] {
  return [...s.issued, s.clientSecret, s.subjectToken, s.idpClientSecret];
}

function expectNoSecrets(result: CliResult, s: IdentityServer) {
  for (const secret of secretsOf(s)) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

async function doctor(s: IdentityServer, args: string[], env: Record<string, string> = {}) {
  return runCli(['doctor', '--only', 'signin', ...args], { env: { ...s.env(), OS_PROJECT_NAME: 'demo', ...env } });
}

describe('cloudgate doctor --only signin', () => {
  it('--json prints only the JSON document, all steps ok, and no secret anywhere', async () => {
    const result = await doctor(servers.spec, ['--json', '--verbose']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.schema).toBe('cloudgate.doctor/v1');
    expect(report.checks.map((c: { id: string; status: string }) => `${c.id}=${c.status}`)).toEqual([
      'signin.idp-token=skip',
      'signin.exchange=ok',
      'signin.claims=ok',
      'signin.federated=ok',
      'signin.projects=ok',
      'signin.scope=ok',
      'signin.api=ok',
    ]);
    expect(report.checks[1].details.claims.username).toBe('alice');
    // --verbose puts the request/response lines on stderr, redacted.
    expect(result.stderr).toContain(`→ POST ${servers.spec.origin}/realms/cloud/protocol/openid-connect/token`);
    expect(result.stderr).toMatch(/← 201 \(\d+ ms\)/);
    expect(result.stderr).toContain('authorization: Bearer [redacted]');
    expectNoSecrets(result, servers.spec);
  });

  it('against real-Keystone paths: every step ok, the path used in the details, exit 0 even with --strict', async () => {
    const result = await doctor(servers.keystone, ['--json']);
    expect(result.code).toBe(0);
    const checks = JSON.parse(result.stdout).checks as {
      id: string;
      status: string;
      details?: Record<string, unknown>;
    }[];
    expect(checks.map((c) => `${c.id}=${c.status}`)).toEqual([
      'signin.idp-token=skip',
      'signin.exchange=ok',
      'signin.claims=ok',
      'signin.federated=ok',
      'signin.projects=ok',
      'signin.scope=ok',
      'signin.api=ok',
    ]);
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['signin.projects']!.details).toMatchObject({
      path: '/v3/auth/projects',
      tried: { path: '/v3/projects', status: 403 },
    });
    expect(byId['signin.scope']!.details).toMatchObject({ path: '/v3/auth/tokens' });
    expect((await doctor(servers.keystone, ['--json', '--strict'])).code).toBe(0);
    expectNoSecrets(result, servers.keystone);
  });

  it('the text report names the failing step, why and the fix; exit 1', async () => {
    const s = await startIdentityServer({ ca: servers.ca, fail: { exchange: 'exchange-not-permitted' } });
    try {
      const result = await doctor(s, []);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('[✗] Federated sign-in chain');
      expect(result.stdout).toContain('Broker token exchange');
      expect(result.stdout).toContain('Client not allowed to exchange');
      expect(result.stdout).toContain('token-exchange permission');
      expectNoSecrets(result, s);
    } finally {
      await s.close();
    }
  });

  it('reads secrets from a config file and *_file keys, never from flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-signin-'));
    const secretFile = join(dir, 'client-secret');
    writeFileSync(secretFile, `${servers.spec.clientSecret}\n`);
    chmodSync(secretFile, 0o600);
    const config = join(dir, 'cloudgate.yaml');
    writeFileSync(
      config,
      [
        'signin:',
        `  broker_url: ${servers.spec.brokerUrl}`,
        `  realm: ${servers.spec.realm}`,
        `  client_id: ${servers.spec.clientId}`,
        `  client_secret_file: ${secretFile}`,
        `  subject_token: ${servers.spec.subjectToken}`,
        `  identity_url: ${servers.spec.identityUrl}/v3/`,
        `  idp_id: ${servers.spec.idpId}`,
        '  project: ops',
        '',
      ].join('\n'),
    );
    const result = await runCli(
      ['doctor', '--only', 'signin', '--json', '--config', config, '--ca-file', servers.ca.file],
      { env: { OS_CACERT: '' } },
    );
    expect(result.code).toBe(0);
    const checks = JSON.parse(result.stdout).checks as { id: string; status: string; message: string }[];
    expect(checks.find((c) => c.id === 'signin.projects')!.message).toContain('chose ops');
    expectNoSecrets(result, servers.spec);
    // A secret given as a flag is refused by the parser (no such flag exists).
    const flag = await runCli(['doctor', '--only', 'signin', '--client-secret', 'x']);
    expect(flag.code).toBe(2);
  });

  it('an unknown CA fails with advice naming --ca-file; --insecure passes but is reported loudly', async () => {
    const env = { OS_CACERT: '' };
    const untrusted = await doctor(servers.spec, ['--json'], env);
    expect(untrusted.code).toBe(1);
    const exchange = JSON.parse(untrusted.stdout).checks[1];
    expect(exchange.status).toBe('fail');
    expect(exchange.message).toContain('unknown certificate authority');
    expect(exchange.advice).toContain('--ca-file');
    const insecure = await doctor(servers.spec, ['--json', '--insecure'], env);
    expect(insecure.code).toBe(0);
    expect(insecure.stderr).toContain('--insecure');
    expect(insecure.stderr).toContain('NOT verified');
  });

  it('refuses to send tokens over plain http to a remote host unless --allow-http', async () => {
    const result = await doctor(servers.spec, ['--json'], { CLOUDGATE_BROKER_URL: 'http://broker.invalid' });
    const exchange = JSON.parse(result.stdout).checks[1];
    expect(exchange.details.kind).toBe('insecure-http');
    expect(exchange.advice).toContain('--allow-http');
    const allowed = await doctor(servers.spec, ['--json', '--allow-http'], {
      CLOUDGATE_BROKER_URL: 'http://broker.invalid',
    });
    expect(JSON.parse(allowed.stdout).checks[1].details.kind).toBe('dns');
  });

  it('--list-checks names the six steps', async () => {
    const result = await runCli(['doctor', '--only', 'signin', '--list-checks']);
    expect(result.code).toBe(0);
    for (const id of [
      'signin.idp-token',
      'signin.exchange',
      'signin.federated',
      'signin.projects',
      'signin.scope',
      'signin.api',
    ]) {
      expect(result.stdout).toContain(id);
    }
  });
});

describe('cloudgate doctor --only signin with a --config file', () => {
  it('a misspelt key warns (exit 1 with --strict) instead of "Nothing was checked"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-config-'));
    const file = join(dir, 'cloudgate.yaml');
    writeFileSync(file, 'signin:\n  brokr_url: https://kc.example.com\n');
    chmodSync(file, 0o600);
    const result = await runCli(['doctor', '--only', 'signin', '--json', '--config', file], {
      cwd: dir,
      env: { OS_AUTH_URL: '', OS_PROJECT_ID: '', OS_PROJECT_NAME: '' },
    });
    const check = JSON.parse(result.stdout).checks.find((c: { id: string }) => c.id === 'signin.config');
    expect(check).toMatchObject({ status: 'warn', advice: expect.stringContaining('broker_url') });
    const strict = await runCli(['doctor', '--only', 'signin', '--strict', '--config', file], {
      cwd: dir,
      env: { OS_AUTH_URL: '' },
    });
    expect(strict.code).toBe(1);
  });
});
