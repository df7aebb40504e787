/**
 * How bytes travel. Without proxy variables: node:http(s) with keep-alive agents (built in, so the
 * CLI starts fast). With HTTPS_PROXY/HTTP_PROXY set: undici's EnvHttpProxyAgent (CONNECT tunnels,
 * NO_PROXY), loaded only then.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';

export interface TlsSettings {
  rejectUnauthorized: boolean;
  /** PEM bundles trusted in addition to the system roots. */
  extraCAs?: string[];
}

/**
 * The default context (system roots and the start-up NODE_EXTRA_CA_CERTS, loaded natively) plus the
 * extra CAs. Passing `ca: [...rootCertificates, file]` instead costs ~150 ms parsing every root in JS.
 */
function secureContextWith(extraCAs: string[]): SecureContext {
  const context = createSecureContext();
  const native = (context as unknown as { context: { addCACert(pem: string): void } }).context;
  for (const pem of extraCAs) native.addCACert(pem);
  return context;
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
  const agents = {
    'https:': new HttpsAgent({
      keepAlive: true,
      rejectUnauthorized: tls.rejectUnauthorized,
      ...(tls.extraCAs ? { secureContext: secureContextWith(tls.extraCAs) } : {}),
    }),
    'http:': new HttpAgent({ keepAlive: true }),
  };
  return {
    send(url, method, headers, body, signal) {
      const attempt = (retry: boolean) =>
        new Promise<RawResponse>((resolve, reject) => {
          const https = url.protocol === 'https:';
          const options = { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal };
          const req = (https ? httpsRequest : httpRequest)(url, { ...options, agent: https ? agents['https:'] : agents['http:'] }, (res) =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
          );
          req.on('error', (error: NodeJS.ErrnoException) => {
            // The server closed an idle kept-alive socket just as we reused it: nothing was processed, ask once more.
            if (retry && req.reusedSocket && error.code === 'ECONNRESET' && !signal.aborted) resolve(attempt(false));
            else reject(error);
          });
          req.end(body);
        });
      return attempt(true);
    },
    async close() {
      agents['https:'].destroy();
      agents['http:'].destroy();
    },
  };
}

export async function proxyTransport(tls: TlsSettings, timeoutMs: number): Promise<Transport> {
  const { EnvHttpProxyAgent, request } = await import('undici');
  const tlsOptions = {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.extraCAs ? { secureContext: secureContextWith(tls.extraCAs) } : {}),
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
