import { describe, expect, it } from 'vitest';
import { ChainError, runChain } from '../../../../../src/core/areas/signin/chain.js';
import { systemClock } from '../../../../../src/core/doctor/services.js';
import { readSigninSettings } from '../../../../../src/core/areas/signin/settings.js';
import { useIdentityServerFactory } from '../../../../helpers/identity-servers.js';
import type { IdentityServer, IdentityServerOptions } from '../../../../servers/identity.js';

// `cloudgate token`'s run of the chain: the steps in turn, the first failure named.
const identity = useIdentityServerFactory();
const server = (options: Partial<IdentityServerOptions> = {}) => identity.server(options);

async function chain(
  s: IdentityServer,
  env: Record<string, string | undefined> = {},
  flavour: { value?: 'platform' | 'keystone' } = {},
) {
  const merged = Object.fromEntries(
    Object.entries({ ...s.env(), ...env }).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  const settings = readSigninSettings({ given: {}, env: merged, config: {}, cwd: process.cwd() });
  const http = identity.client();
  const steps: string[] = [];
  const scoped = await runChain({ http, settings, flavour, clock: systemClock }, (step) => steps.push(step));
  return { scoped, steps };
}

async function chainError(s: IdentityServer, env: Record<string, string | undefined> = {}): Promise<ChainError> {
  const error = await chain(s, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChainError);
  return error as ChainError;
}

describe('the chain run straight through', () => {
  it('returns the scoped token after every step', async () => {
    const s = await server();
    const { scoped, steps } = await chain(s, { OS_PROJECT_NAME: 'demo' });
    expect(scoped.project).toMatchObject({ name: 'demo' });
    expect(s.issued).toContain(scoped.token);
    expect(steps).toEqual(['signin.exchange', 'signin.federated', 'signin.projects', 'signin.scope']);
  });

  it('scopes with a configured project id even when the listing fails, as the doctor does', async () => {
    const s = await server({ fail: { projects: 'status-500' } });
    const { scoped, steps } = await chain(s, { OS_PROJECT_ID: s.projects[1]!.id });
    expect(scoped.project.id).toBe(s.projects[1]!.id);
    expect(steps).toEqual(['signin.exchange', 'signin.federated', 'signin.scope']);
  });

  it('stops at the listing when the project is a name and the list cannot be read', async () => {
    const s = await server({ fail: { projects: 'status-500' } });
    const error = await chainError(s, { OS_PROJECT_NAME: 'demo' });
    expect([error.step, error.input]).toEqual(['signin.projects', false]);
  });

  it('a project id the user may not access is still scoped, as the OpenStack client scopes; the list read proves why it fails', async () => {
    const s = await server();
    const error = await chainError(s, { OS_PROJECT_ID: 'f'.repeat(32) });
    expect([error.step, error.input]).toEqual(['signin.scope', false]);
    expect(error.message).toContain(`Project id ${'f'.repeat(32)} is not among`);
    expect(s.requests.some((r) => r.path.endsWith('/auth/tokens') || r.path.endsWith('/auth/projects'))).toBe(true);
  });

  it('no project among several is a choice for the operator (input), naming the projects', async () => {
    const s = await server();
    const error = await chainError(s);
    expect([error.step, error.input]).toEqual(['signin.scope', true]);
    expect(error.message).toContain('demo (a1b2c3d4e5f60718293a4b5c6d7e8f90)');
  });

  it('thousands of projects: the message names the first ones and how many more, on a bounded line', async () => {
    // As many as fit the 1 MiB answer cap (20,000 made one 877 KB line).
    const projects = Array.from({ length: 8_000 }, (_, i) => ({ id: `${i}`.padStart(8, '0'), name: `p${i}` }));
    const s = await server({ projects });
    const error = await chainError(s);
    expect(error.message).toContain('p0 (00000000)');
    expect(error.message).toContain('and 7980 more');
    expect(error.message.length).toBeLessThan(2_000);
    const unknown = await chainError(s, { OS_PROJECT_NAME: 'nope' });
    expect(unknown.message).toContain('and 7980 more');
    expect(unknown.message.length).toBeLessThan(2_000);
  });

  it('names every missing setting before any request', async () => {
    const s = await server();
    const error = await chainError(s, {
      OS_IDENTITY_PROVIDER: undefined,
      CLOUDGATE_REALM: '',
      OS_CLIENT_SECRET: '',
      CLOUDGATE_CLIENT_SECRET: '',
    });
    expect([error.step, error.input]).toEqual(['settings', true]);
    expect(error.message).toContain('idp_id (or OS_IDENTITY_PROVIDER)');
    expect(s.requests).toEqual([]);
  });

  it('a known flavour costs one request per step', async () => {
    const s = await server({ mode: 'keystone' });
    const flavour: { value?: 'platform' | 'keystone' } = { value: 'keystone' };
    await chain(s, { OS_PROJECT_NAME: 'demo' }, flavour);
    const identity = s.requests
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => /\/identity\/v3\/(projects|auth\/(projects|tokens))$/.test(r));
    expect(identity).toEqual(['GET /identity/v3/auth/projects', 'POST /identity/v3/auth/tokens']);
  });
});
