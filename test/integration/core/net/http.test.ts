import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, HttpError, isLoopback, type HttpClient } from '../../../../src/core/net/http.js';
import { trustStore } from '../../../../src/core/net/trust.js';
import { clearSecretsForTests, registerSecret } from '../../../../src/core/secrets.js';
import { withExtraCaCerts } from '../../../helpers/extra-ca-certs.js';
import { createTestCA, type TestCA } from '../../../helpers/pki.js';
import { waitUntil } from '../../../helpers/wait.js';
import { startConnectProxy, type ConnectProxy } from '../../../servers/connect-proxy.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const DAY = 86_400_000;
let ca: TestCA;
const servers: (Server | NetServer)[] = [];
const clients: HttpClient[] = [];

async function listen(server: Server | NetServer): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function collect(handler: Handler) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  };
}

async function https(handler: Handler, cert = ca.issue(['127.0.0.1', 'localhost'])) {
  const server = createHttpsServer({ cert: cert.cert, key: cert.key }, collect(handler));
  let connections = 0;
  let refused = 0;
  server.on('secureConnection', () => connections++);
  server.on('tlsClientError', () => refused++);
  const port = await listen(server);
  return { url: `https://127.0.0.1:${port}`, port, connections: () => connections, refusedHandshakes: () => refused };
}

function client(options: Partial<Parameters<typeof createHttpClient>[0]> = {}) {
  const c = createHttpClient({ timeoutMs: 5000, trust: trustStore(ca.file), ...options });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

beforeAll(() => {
  ca = createTestCA();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  clearSecretsForTests();
});

afterAll(async () => {
  for (const s of servers) {
    if ('closeAllConnections' in s) s.closeAllConnections();
    s.close();
  }
});

describe('createHttpClient against real servers', () => {
  it('verifies TLS with --ca-file and returns status, lower-case headers and JSON', async () => {
    const server = await https((req, res, body) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Subject-Token': 'tok' });
      res.end(JSON.stringify({ method: req.method, body, auth: req.headers['x-auth-token'] }));
    });
    const res = await client().request({
      method: 'POST',
      url: `${server.url}/v3/x`,
      body: 'hello',
      headers: { 'X-Auth-Token': 'abc' },
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-subject-token']).toBe('tok');
    expect(res.json()).toEqual({ method: 'POST', body: 'hello', auth: 'abc' });
    expect(res.url).toBe(`${server.url}/v3/x`);
  });

  it('reuses one connection for sequential requests (keep-alive)', async () => {
    const server = await https((_req, res) => res.end('{}'));
    const c = client();
    for (let i = 0; i < 5; i++) await c.request({ url: `${server.url}/${i}` });
    expect(server.connections()).toBe(1);
  });

  it('asks once more when the server drops a reused kept-alive connection unanswered', async () => {
    const served = new WeakMap<object, number>();
    const server = await https((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n === 2) req.socket.destroy();
      else res.end('{"ok":true}');
    });
    const c = client();
    await c.request({ url: server.url });
    expect((await c.request({ url: server.url })).json()).toEqual({ ok: true });
    expect(server.connections()).toBe(2);
  });

  it('rejects a certificate from an unknown CA, and accepts it with --insecure', async () => {
    const server = await https((_req, res) => res.end('{}'));
    const error = await failure(client({ trust: trustStore(undefined) }).request({ url: server.url }));
    expect(error.kind).toBe('tls-unknown-ca');
    expect(error.advice).toContain('--ca-file');
    const res = await client({ trust: trustStore(undefined), insecure: true }).request({ url: server.url });
    expect(res.status).toBe(200);
  });

  it('trusts NODE_EXTRA_CA_CERTS in addition to --ca-file', async () => {
    const other = createTestCA('other CA');
    const server = await https((_req, res) => res.end('{}'), other.issue(['127.0.0.1']));
    const byCaFile = await https((_req, res) => res.end('{}'));
    await withExtraCaCerts(other.file, async () => {
      expect((await client().request({ url: server.url })).status).toBe(200);
      expect((await client().request({ url: byCaFile.url })).status).toBe(200);
    });
    expect((await failure(client().request({ url: server.url }))).kind).toBe('tls-unknown-ca');
  });

  it('sends a POST once when only the whole store trusts the chain, and goes there at once the next time', async () => {
    const other = createTestCA('other CA');
    const bodies: string[] = [];
    const server = await https(
      (_req, res, body) => {
        bodies.push(body);
        res.end('{}');
      },
      other.issue(['127.0.0.1']),
    );
    await withExtraCaCerts(other.file, async () => {
      const c = client();
      expect((await c.request({ url: server.url, method: 'POST', body: 'grant=1' })).status).toBe(200);
      expect((await c.request({ url: `${server.url}/again`, method: 'POST', body: 'grant=2' })).status).toBe(200);
    });
    expect(bodies).toEqual(['grant=1', 'grant=2']);
    // The CA file alone refused the chain once; the second request did not try it again.
    expect(server.refusedHandshakes()).toBe(1);
  });
  it('reports an unreadable CA file naming it', async () => {
    const error = await failure(
      client({ trust: trustStore('/nonexistent/ca.pem') }).request({ url: 'https://127.0.0.1:1/' }),
    );
    expect(error.message).toContain('/nonexistent/ca.pem');
  });

  it('reports an expired certificate', async () => {
    const expired = ca.issue(['127.0.0.1'], {
      notBefore: new Date(Date.now() - 10 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const server = await https((_req, res) => res.end('{}'), expired);
    const error = await failure(client().request({ url: server.url }));
    expect(error.kind).toBe('tls-expired');
    expect(error.message).toMatch(/expired/);
  });

  it('reports a host-name mismatch', async () => {
    const server = await https((_req, res) => res.end('{}'), ca.issue(['other.example']));
    const error = await failure(client().request({ url: server.url }));
    expect(error.kind).toBe('tls-hostname');
    expect(error.message).toContain('127.0.0.1');
  });

  it('reports a refused connection', async () => {
    const probe = createHttpServer();
    const port = await listen(probe);
    await new Promise((r) => probe.close(r));
    const error = await failure(client().request({ url: `https://127.0.0.1:${port}/` }));
    expect(error.kind).toBe('refused');
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it('says when an https:// URL reaches a plain-http port', async () => {
    const plain = createHttpServer((_req, res) => res.end('{}'));
    servers.push(plain);
    const port = await listen(plain);
    const error = await failure(client().request({ url: `https://127.0.0.1:${port}/` }));
    expect(error.kind).toBe('tls-other');
    expect(error.message).toMatch(/does not speak TLS on that port/);
  });

  it('reports a name that does not resolve', async () => {
    const error = await failure(client().request({ url: 'https://no-such-host.invalid/' }));
    expect(error.kind).toBe('dns');
    expect(error.message).toContain('no-such-host.invalid');
  });

  it('times out a server that never answers, and honours the caller signal', async () => {
    let received = 0;
    const server = await https(() => void received++);
    const error = await failure(client().request({ url: server.url, timeoutMs: 200 }));
    expect(error.kind).toBe('timeout');
    const controller = new AbortController();
    const pending = client().request({ url: server.url, signal: controller.signal });
    // Cancelled while the server holds the request.
    await waitUntil('the second request to reach the server', () => received === 2);
    controller.abort();
    expect((await failure(pending)).kind).toBe('timeout');
  });

  it('names the step that stalled: the TLS handshake, the answer, or its body', async () => {
    // Accepts the connection and says nothing: the TLS handshake never completes.
    const silent = createNetServer((socket) => socket.on('error', () => undefined));
    const silentPort = await listen(silent);
    let error = await failure(client().request({ url: `https://127.0.0.1:${silentPort}/`, timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/accepted the connection but did not complete the TLS handshake within 0\.3 s/);
    expect(error.advice).toContain('serves TLS');

    const holding = await https(() => undefined);
    error = await failure(client().request({ url: holding.url, timeoutMs: 300 }));
    expect(error.message).toMatch(/^No answer from 127\.0\.0\.1:\d+ within 0\.3 s: the request was sent/);

    const halfway = await https((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    error = await failure(client().request({ url: halfway.url, timeoutMs: 300 }));
    expect(error.message).toMatch(/began its answer but did not finish it within 0\.3 s/);

    // Stopped by its caller (a check whose time ran out): the same step, without the request's own time.
    // Aborted once the silent server holds the connection: the handshake has begun and will not finish.
    const controller = new AbortController();
    silent.once('connection', () => setImmediate(() => controller.abort()));
    error = await failure(client().request({ url: `https://127.0.0.1:${silentPort}/`, signal: controller.signal }));
    expect(error.message).toMatch(/did not complete the TLS handshake before the check's time ran out/);
  });

  it('reports a redirect with its Location instead of following it', async () => {
    let hits = 0;
    const server = await https((req, res) => {
      hits++;
      res.writeHead(302, { Location: '/login' }).end();
    });
    const error = await failure(client().request({ url: `${server.url}/api` }));
    expect(error.kind).toBe('redirect');
    expect(error.message).toContain(`${server.url}/login`);
    expect(hits).toBe(1);
  });

  it('caps the body size', async () => {
    const server = await https((_req, res) => res.end('x'.repeat(50_000)));
    const error = await failure(client({ maxBodyBytes: 10_000 }).request({ url: server.url }));
    expect(error.kind).toBe('too-large');
  });

  it('explains an HTML page and a non-JSON body', async () => {
    const server = await https((req, res) => {
      if (req.url === '/html')
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><title>Sign in</title></html>');
      else res.writeHead(502).end('Bad Gateway');
    });
    const html = await client().request({ url: `${server.url}/html` });
    const htmlError = (() => {
      try {
        html.json();
      } catch (e) {
        return e as HttpError;
      }
    })();
    expect(htmlError?.kind).toBe('html');
    expect(htmlError?.message).toContain('Sign in');
    const text = await client().request({ url: `${server.url}/text` });
    const textError = (() => {
      try {
        text.json();
      } catch (e) {
        return e as HttpError;
      }
    })();
    expect(textError?.kind).toBe('not-json');
    expect(textError?.message).toContain('502');
  });

  it('refuses credentials over plain http to a remote host, allows loopback and --allow-http', async () => {
    const error = await failure(client().request({ url: 'http://identity.example/v3', credentials: true }));
    expect(error.kind).toBe('insecure-http');
    expect(error.advice).toContain('--allow-http');
    const plain = createHttpServer(collect((_req, res) => res.end('{}')));
    const port = await listen(plain);
    expect((await client().request({ url: `http://127.0.0.1:${port}/`, credentials: true })).status).toBe(200);
    const allowed = client({ allowHttp: true }).request({ url: 'http://no-such-host.invalid/', credentials: true });
    expect((await failure(allowed)).kind).toBe('dns');
  });

  it('logs request and response lines with tokens and secret fields redacted', async () => {
    const server = await https((_req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json', 'X-Subject-Token': 'SUBJECT-TOKEN-VALUE' });
      res.end(JSON.stringify({ error: 'invalid_client', access_token: 'ACCESS-TOKEN-VALUE' }));
    });
    const lines: string[] = [];
    await client({ log: (l) => lines.push(l) }).request({
      method: 'POST',
      url: `${server.url}/token`,
      headers: { Authorization: 'Bearer BEARER-VALUE', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=x&client_id=cg&client_secret=CLIENT-SECRET-VALUE&subject_token=SUBJECT-VALUE',
    });
    const text = lines.join('\n');
    expect(text).toContain(`→ POST ${server.url}/token`);
    expect(text).toMatch(/← 401 \(\d+ ms\)/);
    expect(text).toContain('authorization: Bearer [redacted]');
    expect(text).toContain('client_id=cg');
    expect(text).toContain('invalid_client');
    for (const secret of [
      'SUBJECT-TOKEN-VALUE',
      'ACCESS-TOKEN-VALUE',
      'BEARER-VALUE',
      'CLIENT-SECRET-VALUE',
      'SUBJECT-VALUE',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('redacts registered secrets that appear in URLs and messages', async () => {
    registerSecret('query-secret-value');
    const lines: string[] = [];
    const error = await failure(
      client({ log: (l) => lines.push(l) }).request({
        url: 'http://remote.example/?k=query-secret-value',
        credentials: true,
      }),
    );
    expect(error.kind).toBe('insecure-http');
    expect(lines.join('\n')).not.toContain('query-secret-value');
  });
});

describe('proxy support', () => {
  const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  let proxy: ConnectProxy | undefined;
  afterEach(() => proxy?.close());

  it('tunnels through HTTPS_PROXY and bypasses it for NO_PROXY hosts', async () => {
    const server = await https((_req, res) => res.end('{"ok":true}'));
    proxy = await startConnectProxy();
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = '';
    expect((await client().request({ url: server.url })).json()).toEqual({ ok: true });
    expect(proxy.asked.map((a) => a.target)).toEqual([`127.0.0.1:${server.port}`]);
    process.env.NO_PROXY = '127.0.0.1';
    await client().request({ url: server.url });
    expect(proxy.asked).toHaveLength(1);
  });

  it('through the tunnel too, a timeout names the TLS handshake that stalled behind it', async () => {
    const silent = createNetServer((socket) => socket.on('error', () => undefined));
    const port = await listen(silent);
    proxy = await startConnectProxy();
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = '';
    const error = await failure(client().request({ url: `https://127.0.0.1:${port}/`, timeoutMs: 300 }));
    expect(proxy.asked.map((a) => a.target)).toEqual([`127.0.0.1:${port}`]);
    expect(error.message).toMatch(/accepted the connection but did not complete the TLS handshake within 0\.3 s/);
  });
});

describe('isLoopback', () => {
  it('knows loopback names and addresses', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'api.localhost'])
      expect(isLoopback(h)).toBe(true);
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com'])
      expect(isLoopback(h)).toBe(false);
  });
});
