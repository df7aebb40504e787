import type { RequestStage } from './transport.js';
import { UNKNOWN_CA_CODES } from './trust.js';

/** Why a request failed, in the words an operator needs: what, why, and what to do. */
import { codeOf } from '../errors.js';
import { memberOf } from '../records.js';

export type HttpErrorKind =
  | 'timeout'
  | 'refused'
  | 'dns'
  | 'tls-unknown-ca'
  | 'tls-expired'
  | 'tls-hostname'
  | 'tls-other'
  | 'redirect'
  | 'too-large'
  | 'insecure-http'
  | 'not-json'
  | 'html'
  | 'network';

export class HttpError extends Error {
  constructor(
    readonly kind: HttpErrorKind,
    readonly url: string,
    message: string,
    readonly advice: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const CA_ADVICE =
  'Pass the CA that signed this server certificate with --ca-file PEM (or OS_CACERT / NODE_EXTRA_CA_CERTS); ' +
  'use --insecure only to diagnose, never to trust the result.';

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = codeOf(e);
    if (code !== undefined) codes.push(code);
    e = memberOf(e, 'cause');
  }
  return codes;
}

function messagesOf(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e instanceof Error && e.message) parts.push(e.message);
    e = memberOf(e, 'cause');
  }
  return parts.join(': ');
}

export interface RequestEnd {
  timeoutMs: number;
  /** Who stopped the request: its own timeout, or its caller (the check's time ran out, or Ctrl+C). */
  stopped?: 'own' | 'caller';
  /** How far the request got (transport.ts): a timeout names the step that stalled. */
  stage?: RequestStage;
}

const REACHABLE =
  'Check that the address is right and reachable from here (firewall, proxy: HTTPS_PROXY/NO_PROXY), or raise --timeout.';

/** The advice for a server that accepted the connection and left the TLS handshake unanswered. */
export function stalledHandshakeAdvice(where = 'this port'): string {
  return `Check that ${where} serves TLS (a plain-HTTP port, or a load balancer with no backend behind it, leaves the handshake unanswered), or raise --timeout if the server is only slow.`;
}

/** The message and advice of a request that ran out of time at `stage`. */
function stalled(host: string, stage: RequestStage | undefined, within: string): { message: string; advice: string } {
  switch (stage) {
    case 'resolve':
      return {
        message: `The host name of ${host} did not resolve ${within}: the DNS servers did not answer.`,
        advice:
          'Check the DNS servers this machine uses (/etc/resolv.conf) and that they answer for that name, or raise --timeout.',
      };
    case 'connect':
      return {
        message: `${host} did not accept a connection ${within}: nothing answered (a firewall that drops, or a wrong address).`,
        advice: REACHABLE,
      };
    case 'tls':
      return {
        message: `${host} accepted the connection but did not complete the TLS handshake ${within}.`,
        advice: stalledHandshakeAdvice(),
      };
    case 'answer':
      return {
        message: `No answer from ${host} ${within}: the request was sent, the server did not reply.`,
        advice:
          'The service is slow or stuck (or its load balancer waits on it): check its logs and health, or raise --timeout.',
      };
    case 'body':
      return {
        message: `${host} began its answer but did not finish it ${within}.`,
        advice:
          'The service, or a proxy on the way, stalls in the middle of its answer: check its logs, or raise --timeout.',
      };
    default:
      return { message: `No answer from ${host} ${within}.`, advice: REACHABLE };
  }
}

/** Turns a transport error (node:http, node:net, node:tls) into an HttpError with plain advice. */
export function classifyError(error: unknown, url: string, end: RequestEnd): HttpError {
  if (error instanceof HttpError) return error;
  const codes = codesOf(error);
  const has = (...c: string[]) => codes.some((code) => c.includes(code));
  const host = safeHost(url);
  if (end.stopped || has('ETIMEDOUT')) {
    const within = end.stopped === 'caller' ? "before the check's time ran out" : `within ${end.timeoutMs / 1000} s`;
    const { message, advice } = stalled(host, end.stage, within);
    return new HttpError('timeout', url, message, advice);
  }
  if (has('ECONNREFUSED')) {
    return new HttpError(
      'refused',
      url,
      `Connection refused by ${host}: nothing listens on that port.`,
      'Check the URL and port, and that the service is running.',
    );
  }
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL')) {
    return new HttpError(
      'dns',
      url,
      `The host name ${host} does not resolve (DNS).`,
      'Check the host name for typos and that this machine uses the right DNS servers.',
    );
  }
  if (has('CERT_HAS_EXPIRED')) {
    return new HttpError(
      'tls-expired',
      url,
      `The TLS certificate of ${host} has expired.`,
      'Renew the server certificate (cert-manager: check the Certificate resource and its issuer).',
    );
  }
  if (has('CERT_NOT_YET_VALID')) {
    return new HttpError(
      'tls-expired',
      url,
      `The TLS certificate of ${host} is not valid yet.`,
      'Check the clock of this machine and of the issuer.',
    );
  }
  if (has('ERR_TLS_CERT_ALTNAME_INVALID')) {
    return new HttpError(
      'tls-hostname',
      url,
      `The TLS certificate of ${host} does not cover that host name: ${messagesOf(error).replace(/^.*?(Host|IP)/, '$1')}`,
      'Use the host name the certificate was issued for, or reissue the certificate with this name in its subject alternative names.',
    );
  }
  if (url.startsWith('https:') && /wrong version number|packet length/i.test(messagesOf(error))) {
    return new HttpError(
      'tls-other',
      url,
      `TLS with ${host} failed: the server does not speak TLS on that port.`,
      'Use http:// for a plain-text port, or the TLS port of the server.',
    );
  }
  if (has(...UNKNOWN_CA_CODES)) {
    return new HttpError(
      'tls-unknown-ca',
      url,
      `The TLS certificate of ${host} is signed by an unknown certificate authority.`,
      CA_ADVICE,
    );
  }
  if (codes.some((c) => c.startsWith('ERR_SSL') || c.startsWith('ERR_TLS') || c.includes('CERT'))) {
    return new HttpError(
      'tls-other',
      url,
      `TLS with ${host} failed: ${messagesOf(error)}.`,
      'Check that the URL is https on a TLS port and that the server certificate is valid.',
    );
  }
  return new HttpError(
    'network',
    url,
    `Request to ${host} failed: ${messagesOf(error) || String(error)}.`,
    'Check network access to the server (proxy settings HTTPS_PROXY/NO_PROXY included).',
  );
}

export function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
