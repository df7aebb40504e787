import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useIdentityServers } from '../helpers/identity-servers.js';

// The built binary loads its HTTP client lazily; through a proxy it must still reach the servers.
const servers = useIdentityServers();
const targets: string[] = [];
const proxy = createServer();
proxy.on('connect', (req: IncomingMessage, socket: Socket) => {
  targets.push(req.url ?? '');
  const [host, port] = (req.url ?? '').split(':');
  const upstream = connect(Number(port), host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.pipe(socket).pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});

beforeAll(() => new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve)));
afterAll(() => {
  proxy.closeAllConnections();
  proxy.close();
});

it('doctor --only signin goes through HTTPS_PROXY', async () => {
  const env = { ...servers.spec.env(), OS_PROJECT_NAME: 'demo', HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, NO_PROXY: '' };
  const result = await runCli(['doctor', '--only', 'signin', '--json'], { env });
  expect(result.code).toBe(0);
  expect(targets.length).toBeGreaterThan(0);
});
