/**
 * How bytes travel: Node's own http and https agents, keep-alive. With HTTPS_PROXY / HTTP_PROXY set
 * (lower-case names first; NO_PROXY honoured), each connection is a CONNECT tunnel through the proxy,
 * with TLS to the server inside it; the proxy itself may be https://. These are the rules undici's
 * EnvHttpProxyAgent applied before; undici cost every command that makes a request ~90 ms and ~45 MB
 * (loading it, and V8 compiling its WebAssembly HTTP parser).
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequestArgs, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, TLSSocket, type SecureContext } from 'node:tls';
import { codeOf } from '../errors.js';
import { UNKNOWN_CA_CODES, type Trust } from './trust.js';

export interface TlsSettings {
  rejectUnauthorized: boolean;
  /** A CA file's trust (net/trust.ts); absent = Node's default store. */
  trust?: Trust;
}

/** One store for the agents: `secureContext` absent = Node's default store. */
interface AgentTls {
  rejectUnauthorized: boolean;
  secureContext?: SecureContext;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer> & { destroy(): void };
}

/**
 * How far a request got, so that a timeout can say which step stalled: resolving the host name,
 * connecting, the TLS handshake, waiting for the answer, or reading its body. Unset while the request
 * waits for a connection of its agent.
 */
export type RequestStage = 'resolve' | 'connect' | 'tls' | 'answer' | 'body';
export interface RequestProgress {
  stage?: RequestStage;
}

export interface Transport {
  send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    timeoutMs: number,
    progress?: RequestProgress,
  ): Promise<RawResponse>;
  close(): Promise<void>;
}

/** Methods that may be sent again when the connection closed before any answer. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const CLOSED_UNANSWERED = new Set(['ECONNRESET', 'EPIPE']);
const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy a request to `url` goes through, from the environment; undefined for a direct connection. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY;
  const proxy = url.protocol === 'https:' ? (env.https_proxy ?? env.HTTPS_PROXY ?? httpProxy) : httpProxy;
  if (!proxy || bypassesProxy(url, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  const parsed = URL.canParse(proxy) ? new URL(proxy) : undefined;
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return parsed;
  // Not quoted: a proxy setting may carry a password.
  const name = url.protocol === 'https:' && (env.https_proxy ?? env.HTTPS_PROXY) ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  throw Object.assign(
    new Error(
      `The proxy setting ${name} (or its lower-case name) is not an http:// or https:// URL such as http://proxy.example:3128`,
    ),
    { code: 'ERR_PROXY_URL' },
  );
}

/** NO_PROXY: `*`, or host names (a leading `.` or `*.` allowed) that also cover their subdomains, optionally with `:port`. */
function bypassesProxy(url: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || DEFAULT_PORT[url.protocol];
  return noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .some((entry) => {
      const [, name = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? [];
      const bare = name.replace(/^\*?\./, '').toLowerCase();
      return (!entryPort || Number(entryPort) === port) && (host === bare || host.endsWith(`.${bare}`));
    });
}

/** https.request's options; `secureContext` is passed on to tls.connect. */
type TlsRequestOptions = RequestOptions & { secureContext?: SecureContext };

/** A CONNECT tunnel to host:port through the proxy, within `timeoutMs`. */
function openTunnel(proxy: URL, host: string, port: number, tls: AgentTls, timeoutMs: number): Promise<Duplex> {
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const credentials = proxy.username
    ? `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`
    : undefined;
  const options: TlsRequestOptions = {
    host: proxy.hostname.replace(/^\[|\]$/g, ''),
    port: Number(proxy.port) || DEFAULT_PORT[proxy.protocol],
    method: 'CONNECT',
    path: target,
    headers: {
      host: target,
      ...(credentials ? { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` } : {}),
    },
    agent: false,
    timeout: timeoutMs,
    rejectUnauthorized: tls.rejectUnauthorized,
    secureContext: tls.secureContext,
  };
  return new Promise((resolve, reject) => {
    const req = proxy.protocol === 'https:' ? httpsRequest(options) : httpRequest(options);
    req.once('connect', (res: IncomingMessage, socket: Socket) => {
      // The tunnel is now a connection like any other: the deadlines of the requests over it apply.
      socket.setTimeout(0);
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(
        Object.assign(
          new Error(
            `The proxy ${proxy.host} refused the tunnel to ${target}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim(),
          ),
          { code: 'ERR_PROXY_TUNNEL' },
        ),
      );
    });
    req.once('timeout', () =>
      req.destroy(
        Object.assign(new Error(`The proxy ${proxy.host} did not open a tunnel to ${target} in time.`), {
          code: 'ETIMEDOUT',
        }),
      ),
    );
    req.once('error', reject);
    req.end();
  });
}

/** Keep-alive agents: one direct, and one per proxy, whose connections are tunnels through it. */
function agentsFor(tls: AgentTls, timeoutMs: number) {
  const options = { keepAlive: true, rejectUnauthorized: tls.rejectUnauthorized, secureContext: tls.secureContext };
  const direct = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent(options) };
  const proxied = new Map<string, HttpAgent>();
  return {
    agentFor(url: URL): HttpAgent {
      const proxy = proxyFor(url);
      if (!proxy) return direct[url.protocol as 'http:' | 'https:']; // the client sends http: and https: URLs only
      const key = `${url.protocol} ${proxy.href}`;
      let agent = proxied.get(key);
      if (!agent) {
        agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent({ keepAlive: true });
        const secure = url.protocol === 'https:';
        agent.createConnection = (
          connection: ClientRequestArgs | RequestOptions,
          callback?: (error: Error | null, stream: Duplex) => void,
        ) => {
          const host = String(connection.host);
          const port = Number(connection.port) || DEFAULT_PORT[url.protocol];
          // The agent has worked out the SNI name (none for an IP address), as for a direct connection.
          const servername = ('servername' in connection ? connection.servername : undefined) || undefined;
          openTunnel(proxy, host, port, tls, timeoutMs).then(
            (socket) =>
              callback?.(
                null,
                secure
                  ? tlsConnect({
                      socket,
                      host,
                      servername,
                      rejectUnauthorized: tls.rejectUnauthorized,
                      secureContext: tls.secureContext,
                    })
                  : socket,
              ),
            // Node's type asks for a stream even with an error; Node ignores it then.
            (error: Error) => callback?.(error, undefined as unknown as Duplex),
          );
          return undefined;
        };
        proxied.set(key, agent);
      }
      return agent;
    },
    close() {
      for (const agent of [...Object.values(direct), ...proxied.values()]) agent.destroy();
    },
  };
}

export async function createTransport(tls: TlsSettings, timeoutMs: number): Promise<Transport> {
  const narrow = agentsFor({ rejectUnauthorized: tls.rejectUnauthorized, secureContext: tls.trust?.narrow }, timeoutMs);
  let wide: ReturnType<typeof agentsFor> | undefined;
  const wideAgents = () =>
    (wide ??= agentsFor({ rejectUnauthorized: tls.rejectUnauthorized, secureContext: tls.trust?.wide() }, timeoutMs));
  // Hosts whose chain only the whole store trusts: their later requests go there at once.
  const needWide = new Set<string>();
  const send = (
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    perRequestTimeout: number,
    progress: RequestProgress,
  ) =>
    new Promise<RawResponse>((resolve, reject) => {
      progress.stage = undefined;
      const options: RequestOptions = {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: (needWide.has(url.host) ? wideAgents() : narrow).agentFor(url),
        signal,
        // No byte for this long (waiting for the answer, or within its body): the request fails.
        timeout: perRequestTimeout,
      };
      const req = url.protocol === 'https:' ? httpsRequest(url, options) : httpRequest(url, options);
      req.once('socket', (socket) => followConnection(socket, req.reusedSocket, url, progress));
      req.once('response', (res) => {
        progress.stage = 'body';
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      req.once('timeout', () =>
        req.destroy(Object.assign(new Error(`No data within ${perRequestTimeout / 1000} s.`), { code: 'ETIMEDOUT' })),
      );
      req.once('error', reject);
      req.end(body);
    });
  return {
    async send(url, method, headers, body, signal, perRequestTimeout, progress = {}) {
      try {
        return await send(url, method, headers, body, signal, perRequestTimeout, progress);
      } catch (error) {
        const code = codeOf(error) ?? '';
        if (signal.aborted) throw error;
        // The CA file alone did not trust the chain: the whole store may. Nothing was sent: the
        // handshake failed before the request, so any method may go again.
        if (tls.trust && tls.rejectUnauthorized && UNKNOWN_CA_CODES.has(code) && !needWide.has(url.host)) {
          needWide.add(url.host);
          return send(url, method, headers, body, signal, perRequestTimeout, progress);
        }
        // A server may close an idle kept-alive connection just as it is reused: ask once more.
        if (!IDEMPOTENT.has(method) || !CLOSED_UNANSWERED.has(code)) throw error;
        return send(url, method, headers, body, signal, perRequestTimeout, progress);
      }
    },
    close: async () => {
      narrow.close();
      wide?.close();
    },
  };
}

/**
 * Moves `progress` along a request's connection. A kept-alive one is ready for the request at once; a
 * new one resolves and connects (unless it came connected, through a proxy's tunnel), then for https
 * shakes hands.
 */
function followConnection(socket: Socket, reused: boolean, url: URL, progress: RequestProgress): void {
  const secure = url.protocol === 'https:';
  // The peer's certificate is known once the handshake is done (an empty object before it).
  if (reused || (socket instanceof TLSSocket && Object.keys(socket.getPeerCertificate()).length > 0)) {
    progress.stage = 'answer';
    return;
  }
  if (secure) socket.once('secureConnect', () => (progress.stage = 'answer'));
  if (!socket.connecting) {
    progress.stage = secure ? 'tls' : 'answer';
    return;
  }
  const named = isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0;
  progress.stage = named ? 'resolve' : 'connect';
  if (named) socket.once('lookup', () => (progress.stage = 'connect'));
  socket.once('connect', () => (progress.stage = secure ? 'tls' : 'answer'));
}
