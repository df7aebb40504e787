/**
 * How bytes travel: undici's EnvHttpProxyAgent, which is a plain keep-alive agent unless
 * HTTPS_PROXY/HTTP_PROXY are set, and then tunnels through the proxy (NO_PROXY honoured). Loaded on
 * the first request, so commands that make none do not pay for it.
 */
import type { SecureContext } from 'node:tls';

export interface TlsSettings {
  rejectUnauthorized: boolean;
  /** Trust beyond Node's default store (net/trust.ts); absent = the default store. */
  secureContext?: SecureContext;
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

/** Methods that may be sent again when the connection closed before any answer. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const CLOSED_UNANSWERED = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

export async function createTransport(tls: TlsSettings, timeoutMs: number): Promise<Transport> {
  // undici is CommonJS: its exports are the default export of the bundled chunk.
  const { EnvHttpProxyAgent, request } = (await import('undici')).default;
  const tlsOptions = { rejectUnauthorized: tls.rejectUnauthorized, secureContext: tls.secureContext, timeout: timeoutMs };
  const agent = new EnvHttpProxyAgent({ connect: tlsOptions, requestTls: tlsOptions, proxyTls: tlsOptions, keepAliveTimeout: 10_000 });
  const send: Transport['send'] = async (url, method, headers, body, signal, perRequestTimeout) => {
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
  };
  return {
    async send(url, method, headers, body, signal, perRequestTimeout) {
      try {
        return await send(url, method, headers, body, signal, perRequestTimeout);
      } catch (error) {
        // A server may close an idle kept-alive connection just as it is reused: ask once more.
        const code = (error as { code?: string }).code ?? '';
        if (!IDEMPOTENT.has(method) || !CLOSED_UNANSWERED.has(code) || signal.aborted) throw error;
        return send(url, method, headers, body, signal, perRequestTimeout);
      }
    },
    close: () => agent.close(),
  };
}
