import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { startIdentityServer, type IdentityServer } from '../servers/identity.js';

const servers = useIdentityServers();

// Each run gets its own cache folder, unless a test hands one in: never the user's own.
const token = (s: IdentityServer, args: string[], env: Record<string, string> = {}) =>
  runCli(['token', ...args], {
    env: {
      XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'cloudgate-cache-')),
      ...s.env(),
      OS_PROJECT_NAME: '',
      OS_PROJECT_ID: '',
      ...env,
    },
  });

const scopeAndListCalls = (s: IdentityServer, since: number) =>
  s.requests
    .slice(since)
    .map((r) => `${r.method} ${r.path}`)
    .filter((r) => /\/identity\/v3\/(projects|auth\/(projects|tokens))$/.test(r));

describe('cloudgate token', () => {
  it('prints only the project-scoped token (the last one issued)', async () => {
    const result = await token(servers.spec, ['--project', 'demo']);
    expect(result.code).toBe(0);
    const printed = result.stdout.trim();
    expect(printed).toBe(servers.spec.issued.at(-1));
    expect(result.stdout.split('\n')).toHaveLength(2);
    expect(result.stderr).not.toContain(printed);
  });

  it('--format env prints the OpenStack client variables, against real-Keystone paths', async () => {
    const result = await token(servers.keystone, ['--format', 'env'], {
      OS_PROJECT_ID: servers.keystone.projects[1]!.id,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `export OS_TOKEN=${servers.keystone.issued.at(-1)}`,
        `export OS_AUTH_URL=${servers.keystone.identityUrl}/v3`,
        'export OS_AUTH_TYPE=token',
        `export OS_PROJECT_ID=${servers.keystone.projects[1]!.id}`,
        '',
      ].join('\n'),
    );
    // The standard Keystone paths are healthy: no warning.
    expect(result.stderr).toBe('');
  });

  it('remembers per identity URL which paths it serves (0600 file, no secret): the next run costs one request per step', async () => {
    const s = servers.keystone;
    const cache = mkdtempSync(join(tmpdir(), 'cloudgate-cache-'));
    const env = { XDG_CACHE_HOME: cache, OS_PROJECT_ID: s.projects[0]!.id };
    let since = s.requests.length;
    const first = await token(s, [], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(scopeAndListCalls(s, since)).toEqual([
      'GET /identity/v3/projects',
      'GET /identity/v3/auth/projects',
      'POST /identity/v3/auth/tokens',
    ]);
    const file = join(cache, 'cloudgate', 'identity-paths.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)[s.identityUrl].flavour).toBe('keystone');
    for (const secret of [...s.issued, s.clientSecret, s.subjectToken]) expect(text).not.toContain(secret);

    since = s.requests.length;
    const second = await token(s, [], env);
    expect(second.code, second.stderr).toBe(0);
    expect(scopeAndListCalls(s, since)).toEqual(['GET /identity/v3/auth/projects', 'POST /identity/v3/auth/tokens']);
  });

  it('a cached flavour the service no longer speaks is corrected, not fatal', async () => {
    const s = await startIdentityServer({ ca: servers.ca, mode: 'keystone' });
    try {
      const cache = mkdtempSync(join(tmpdir(), 'cloudgate-cache-'));
      const env = { XDG_CACHE_HOME: cache, OS_PROJECT_ID: s.projects[0]!.id };
      expect((await token(s, [], env)).code).toBe(0);
      s.mode = 'spec';
      const changed = await token(s, [], env);
      expect(changed.code, changed.stderr).toBe(0);
      expect(changed.stdout.trim()).toBe(s.issued.at(-1));
      const file = join(cache, 'cloudgate', 'identity-paths.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))[s.identityUrl].flavour).toBe('platform');
      const since = s.requests.length;
      expect((await token(s, [], env)).code).toBe(0);
      expect(scopeAndListCalls(s, since)).toEqual(['GET /identity/v3/projects', 'POST /identity/v3/auth/projects']);
    } finally {
      await s.close();
    }
  });

  it('--format json carries the token, expiry, project and catalog', async () => {
    const result = await token(servers.spec, ['--format', 'json', '--project', 'ops']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.token).toBe(servers.spec.issued.at(-1));
    expect(doc.project).toEqual({
      id: servers.spec.projects[1]!.id,
      name: 'ops',
      domain: { id: 'default', name: 'Default' },
    });
    expect(doc.auth_url).toBe(`${servers.spec.identityUrl}/v3`);
    expect(doc.catalog.map((c: { type: string }) => c.type)).toEqual(['compute', 'identity']);
    expect(Date.parse(doc.expires_at)).toBeGreaterThan(Date.now());
  });

  it('a failing step exits 1 with the step, the reason and the fix on stderr, nothing on stdout', async () => {
    const s = await startIdentityServer({ ca: servers.ca, fail: { federated: 'mapping' } });
    try {
      const result = await token(s, ['--project', 'demo', '--verbose']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('error: signin.federated');
      expect(result.stderr).toContain('Could not map any federated user properties');
      expect(result.stderr).toContain('mapping');
      for (const secret of [...s.issued, s.clientSecret]) expect(result.stderr).not.toContain(secret);
    } finally {
      await s.close();
    }
  });

  it('missing settings and several projects without --project are usage errors (exit 2)', async () => {
    const missing = await token(servers.spec, [], { OS_AUTH_URL: '', CLOUDGATE_CLIENT_SECRET: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('client_secret');
    expect(missing.stderr).toContain('identity_url (or OS_AUTH_URL)');
    const ambiguous = await token(servers.spec, []);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('demo (a1b2c3d4e5f60718293a4b5c6d7e8f90)');
    expect(ambiguous.stderr).toContain('--project');
    expect(ambiguous.stdout).toBe('');
    const format = await token(servers.spec, ['--format', 'yaml']);
    expect(format.code).toBe(2);
    const caFile = await token(servers.spec, ['--project', 'demo', '--ca-file', '/nonexistent/ca.pem']);
    expect(caFile.code).toBe(2);
    expect(caFile.stderr).toContain('/nonexistent/ca.pem');
  });
});
