import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../../../src/core/net/transport.js';
import { startConnectProxy, type ConnectProxy } from '../../../servers/connect-proxy.js';

const servers: Server[] = [];
const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const proxies: ConnectProxy[] = [];
afterEach(() => {
  for (const p of proxies.splice(0)) p.close();
});

async function proxy(refuse?: number) {
  const p = await startConnectProxy({ refuse });
  proxies.push(p);
  return p;
}

/** GETs the URL `times` times over one transport (so kept-alive connections are reused). */
async function get(url: string, times = 1) {
  const transport = await createTransport({ rejectUnauthorized: true }, 3000);
  try {
    const answers = [];
    for (let i = 0; i < times; i++) {
      const res = await transport.send(new URL(url), 'GET', {}, undefined, AbortSignal.timeout(3000), 3000);
      let body = '';
      for await (const chunk of res.body) body += String(chunk);
      answers.push({ status: res.status, body });
      await new Promise((resolve) => setImmediate(resolve)); // the connection returns to the pool
    }
    return answers;
  } finally {
    await transport.close();
  }
}

describe('transport through a proxy', () => {
  it('tunnels http:// through HTTP_PROXY with the credentials of its URL, reusing the tunnel', async () => {
    const port = await listen(createServer((_req, res) => res.end('plain')));
    const p = await proxy();
    process.env.HTTP_PROXY = `http://ops:s%40fe@127.0.0.1:${p.port}`;
    process.env.NO_PROXY = '';
    expect(await get(`http://127.0.0.1:${port}/`, 2)).toEqual([
      { status: 200, body: 'plain' },
      { status: 200, body: 'plain' },
    ]);
    expect(p.asked).toEqual([
      { target: `127.0.0.1:${port}`, authorization: `Basic ${Buffer.from('ops:s@fe').toString('base64')}` },
    ]);
  });

  it('fails with the status of a proxy that refuses the tunnel, naming the proxy and not its credentials', async () => {
    const p = await proxy(407);
    process.env.HTTP_PROXY = `http://ops:secret@127.0.0.1:${p.port}`;
    process.env.NO_PROXY = '';
    const error = await get('http://127.0.0.1:9/').then(
      () => new Error('no error'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toContain(`127.0.0.1:${p.port}`);
    expect(error.message).toContain('407');
    expect(error.message).not.toContain('secret');
  });
});
