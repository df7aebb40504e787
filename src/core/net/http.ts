/**
 * The one HTTP client every live check shares: per-request timeouts, the caller's abort signal,
 * TLS verified (custom CA trusted beside the system roots), HTTPS_PROXY/NO_PROXY, keep-alive reuse,
 * capped bodies, redirects reported instead of followed, and redacted `--verbose` lines.
 */
import { serviceKey, type RunServices } from '../doctor/services.js';
import { HttpError, classifyError, safeHost } from './http-errors.js';
import { preview, redactBody, redactHeaders } from './http-log.js';
import {
  createTransport,
  type RawResponse,
  type RequestProgress,
  type TlsSettings,
  type Transport,
} from './transport.js';
import { CaFileError, trustOf, type TrustStore } from './trust.js';
import { redact } from '../secrets.js';
import { messageOf } from '../errors.js';

export { HttpError, type HttpErrorKind } from './http-errors.js';

export interface HttpClientOptions {
  timeoutMs: number;
  /** What the client trusts: the run's store (Node's default store when it holds no CA file). */
  trust?: TrustStore;
  insecure?: boolean;
  allowHttp?: boolean;
  /** Verbose lines, already redacted. */
  log?: (line: string) => void;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface HttpRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The request carries a token or secret: refused over http:// unless loopback or allowHttp. */
  credentials?: boolean;
  timeoutMs?: number;
  /** The check's ctx.signal. */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  url: string;
  durationMs: number;
  /** Throws HttpError kind 'not-json' or 'html' with a plain message. */
  json<T = unknown>(): T;
}

export interface HttpClient {
  request(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The secure contexts of a client's trust store (Node's default store without a CA file). */
function contextsOf(trust: TrustStore | undefined): TlsSettings['trust'] {
  try {
    return trust?.contexts();
  } catch (error) {
    if (error instanceof CaFileError) throw new HttpError('tls-other', error.path, error.message, error.advice);
    // An OpenSSL error of createSecureContext (a damaged certificate in the file) names no path.
    throw new HttpError(
      'tls-other',
      trust?.caFile ?? '',
      `The CA file ${trust?.caFile ?? ''} cannot be used: ${messageOf(error)}`,
      "Check the CA file's certificates.",
    );
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let setupError: HttpError | undefined;
  let tls: TlsSettings = { rejectUnauthorized: !options.insecure };
  try {
    tls = { ...tls, trust: contextsOf(options.trust) };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    setupError = error;
  }
  let transport: Promise<Transport> | undefined;
  const connect = () => (transport ??= createTransport(tls, options.timeoutMs));
  const log = options.log;

  async function request(req: HttpRequest): Promise<HttpResponse> {
    if (setupError) throw setupError;
    const method = (req.method ?? 'GET').toUpperCase();
    const target = parseUrl(req.url);
    if (req.credentials && target.protocol === 'http:' && !options.allowHttp && !isLoopback(target.hostname)) {
      throw new HttpError(
        'insecure-http',
        req.url,
        `Refused to send credentials to ${req.url} over plain http://: anyone on the path could read them.`,
        'Use the https:// address of the service, or pass --allow-http if this network is trusted.',
      );
    }
    const timeoutMs = req.timeoutMs ?? options.timeoutMs;
    const headers: Record<string, string> = {
      'user-agent': 'cloudgate',
      accept: 'application/json',
      ...lowerKeys(req.headers ?? {}),
    };
    log?.(`→ ${method} ${redact(req.url)}`);
    if (log) for (const line of redactHeaders(headers)) log(`    ${line}`);
    if (log && req.body) log(`    ${preview(redactBody(req.body, headers['content-type']))}`);

    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal;
    const started = performance.now();
    const progress: RequestProgress = {};
    try {
      const res = await (await connect()).send(target, method, headers, req.body, signal, timeoutMs, progress);
      const responseHeaders = flattenHeaders(res.headers);
      const body = await readCapped(res.body, maxBody, req.url);
      // The connection returns to the pool just after the body ends; yielding once lets the next request reuse it.
      await new Promise((resolve) => setImmediate(resolve));
      const durationMs = Math.round(performance.now() - started);
      log?.(`← ${res.status} (${durationMs} ms) ${method} ${redact(req.url)}`);
      if (log) for (const line of redactHeaders(responseHeaders)) log(`    ${line}`);
      if (log && body && res.status >= 300) log(`    ${preview(redactBody(body, responseHeaders['content-type']))}`);
      if (REDIRECTS.has(res.status)) throw redirectError(req.url, res.status, responseHeaders.location);
      return makeResponse(res.status, responseHeaders, body, req.url, durationMs);
    } catch (error) {
      const stopped = timer.signal.aborted ? 'own' : req.signal?.aborted ? 'caller' : undefined;
      const failure = classifyError(error, req.url, { timeoutMs, stopped, stage: progress.stage });
      log?.(`✗ ${method} ${redact(req.url)}: ${redact(failure.message)}`);
      throw failure;
    } finally {
      clearTimeout(timeout);
    }
  }

  return {
    request,
    async close() {
      const open = transport;
      transport = undefined;
      await (await open)?.close();
    },
  };
}

const HTTP = serviceKey<HttpClient>('HTTP client');

/** The run's one HTTP client: every check of a run reuses its connections, and the run closes it. */
export function httpOf(services: RunServices): HttpClient {
  const { network } = services;
  return services.own(HTTP, () =>
    createHttpClient({
      timeoutMs: network.timeoutMs,
      trust: trustOf(services),
      insecure: network.insecure,
      allowHttp: network.allowHttp,
      log: network.verbose ? network.log : undefined,
    }),
  );
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HttpError(
      'network',
      url,
      `"${url}" is not a valid URL.`,
      'Give a full address such as https://host.example/path.',
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new HttpError('network', url, `"${url}" is not an http(s) URL.`, 'Give an https:// address.');
  }
  return parsed;
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readCapped(body: RawResponse['body'], maxBytes: number, url: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new HttpError(
        'too-large',
        url,
        `The answer from ${safeHost(url)} is larger than ${Math.round(maxBytes / 1024)} KiB; stopped reading.`,
        'The URL probably points at the wrong service (a download or a web page); check it.',
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function redirectError(url: string, status: number, location: string | undefined): HttpError {
  const where = location ? new URL(location, url).toString() : '(no Location header)';
  return new HttpError(
    'redirect',
    url,
    `${safeHost(url)} answered ${status}, a redirect to ${redact(where)}; cloudgate does not follow redirects.`,
    location
      ? `Configure the final address directly (${redact(where)}). A redirect often means http:// instead of https://, a missing or extra path segment, or a login page in front of the API.`
      : 'Check the URL; the server redirects without saying where.',
    status,
  );
}

function makeResponse(
  status: number,
  headers: Record<string, string>,
  body: string,
  url: string,
  durationMs: number,
): HttpResponse {
  return {
    status,
    headers,
    body,
    url,
    durationMs,
    json<T>(): T {
      const type = headers['content-type'] ?? '';
      const start = body.trimStart();
      if (/text\/html|application\/xhtml/i.test(type) || /^<(!doctype|html|head|body)/i.test(start)) {
        const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
        throw new HttpError(
          'html',
          url,
          `${safeHost(url)} answered ${status} with an HTML page${title ? ` ("${redact(title)}")` : ''} instead of JSON.`,
          'The URL probably reaches a web page, a proxy or a login page instead of the API; check the address and any proxy in between.',
          status,
        );
      }
      try {
        // The shape the caller names (unknown by default); nothing checks it here.
        return JSON.parse(body) as T;
      } catch {
        throw new HttpError(
          'not-json',
          url,
          `${safeHost(url)} answered ${status} with a body that is not JSON${body ? `: ${redact(preview(body).slice(0, 120))}` : ' (empty body)'}.`,
          'Check that the URL points at the API itself, not at a proxy or another service.',
          status,
        );
      }
    },
  };
}
