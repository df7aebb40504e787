/**
 * How bytes travel. Without proxy variables: node:http(s) with keep-alive agents (built in, so the
 * CLI starts fast). With HTTPS_PROXY/HTTP_PROXY set: undici's EnvHttpProxyAgent (CONNECT tunnels,
 * NO_PROXY), loaded only then.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { contextTrusting } from './trust.js';
import { UNKNOWN_CA_CODES } from './http-errors.js';

export interface TlsSettings {
  rejectUnauthorized: boolean;
  /** PEM bundles trusted in addition to Node's default store. */
  extraCAs?: string[];
  /** A larger set to retry with, once, when a server's chain is not trusted by the first. */
  widerCAs?: () => string[] | undefined;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer> & { destroy(): void };
}

export interface Transport {
  send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal, timeoutMs: number): Promise<RawResponse>;
  close(): Promise<void>;
}

export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY);
}

export function nodeTransport(tls: TlsSettings): Transport {
  const httpsAgent = (cas: string[] | undefined) =>
    new HttpsAgent({ keepAlive: true, rejectUnauthorized: tls.rejectUnauthorized, ...(cas ? { secureContext: contextTrusting(cas) } : {}) });
  const httpAgent = new HttpAgent({ keepAlive: true });
  const httpsAgents = [httpsAgent(tls.extraCAs)];
  let widened = false;
  /** After an untrusted chain on `used`: whether a wider trust store is now in place to retry with. */
  const widenTrust = (used: HttpsAgent): boolean => {
    if (used !== httpsAgents[0]) return true; // a parallel request widened it already
    if (widened || !tls.rejectUnauthorized) return false;
    widened = true;
    const wider = tls.widerCAs?.();
    if (wider) httpsAgents.unshift(httpsAgent(wider));
    return wider !== undefined;
  };
  return {
    send(url, method, headers, body, signal) {
      const attempt = (retry: boolean) =>
        new Promise<RawResponse>((resolve, reject) => {
          const https = url.protocol === 'https:';
          const agent = https ? httpsAgents[0] : httpAgent;
          const options = { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal };
          const req = (https ? httpsRequest : httpRequest)(url, { ...options, agent }, (res) =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
          );
          req.on('error', (error: NodeJS.ErrnoException) => {
            // The server closed an idle kept-alive socket just as we reused it: nothing was processed, ask once more.
            if (retry && req.reusedSocket && error.code === 'ECONNRESET' && !signal.aborted) resolve(attempt(false));
            // The handshake failed before the request was sent, so asking again is safe.
            else if (retry && https && UNKNOWN_CA_CODES.has(error.code ?? '') && widenTrust(agent as HttpsAgent)) resolve(attempt(false));
            else reject(error);
          });
          req.end(body);
        });
      return attempt(true);
    },
    async close() {
      for (const agent of httpsAgents) agent.destroy();
      httpAgent.destroy();
    },
  };
}

export async function proxyTransport(tls: TlsSettings, timeoutMs: number): Promise<Transport> {
  const { EnvHttpProxyAgent, request } = await import('undici');
  // Through a proxy, the whole trust store from the start: undici has no hook to retry a handshake.
  const cas = tls.widerCAs?.() ?? tls.extraCAs;
  const tlsOptions = {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(cas ? { secureContext: contextTrusting(cas) } : {}),
    timeout: timeoutMs,
  };
  const agent = new EnvHttpProxyAgent({ connect: tlsOptions, requestTls: tlsOptions, proxyTls: tlsOptions, keepAliveTimeout: 10_000 });
  return {
    async send(url, method, headers, body, signal, perRequestTimeout) {
      const res = await request(url, {
        dispatcher: agent,
        method: method as 'GET',
        headers,
        body,
        signal,
        headersTimeout: perRequestTimeout,
        bodyTimeout: perRequestTimeout,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body as unknown as RawResponse['body'] };
    },
    close: () => agent.close(),
  };
}
