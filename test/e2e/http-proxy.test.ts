import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useIdentityServers } from '../helpers/identity-servers.js';
import { startConnectProxy, type ConnectProxy } from '../servers/connect-proxy.js';

// The built binary loads its HTTP client lazily; through a proxy it must still reach the servers.
const servers = useIdentityServers();
let proxy: ConnectProxy;
beforeAll(async () => {
  proxy = await startConnectProxy();
});
afterAll(() => proxy.close());

it('doctor --only signin goes through HTTPS_PROXY', async () => {
  const env = { ...servers.spec.env(), OS_PROJECT_NAME: 'demo', HTTPS_PROXY: proxy.url, NO_PROXY: '' };
  const result = await runCli(['doctor', '--only', 'signin', '--json'], { env });
  expect(result.code).toBe(0);
  expect(proxy.asked.length).toBeGreaterThan(0);
});
