/**
 * The shapes of values cloudgate reads from inventories, answers, flags and config files, each rule in
 * one place: domain and host names, host:port, URLs, the URL of a public service-account issuer.
 */
import { isIP, isIPv4 } from 'node:net';

/** A domain name: dot-separated labels of letters, digits and hyphens, ending in a label that starts with a letter. */
export const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/i;

// Underscores are tolerated: resolvers accept them, and some internal names carry them.
const HOST_LABEL = '[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = new RegExp(`^(?=.{1,253}$)${HOST_LABEL}(\\.${HOST_LABEL})*\\.?$`, 'i');

/** A host name (one label or several, a final "." allowed); not an IP address. */
export function isHostName(text: string): boolean {
  return HOST_NAME.test(text);
}

/** `scheme://...`: the text is meant as a URL (it may still not parse). */
export const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The URL, or undefined when the text is not one. */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

export interface HostPort {
  /** Lower case, without a final "." or IPv6 brackets. */
  host: string;
  port: number;
}

/** What is wrong with a host:port: the host, an IPv6 address without brackets, no port, or the port. */
export type HostPortProblem = 'host' | 'ipv6-brackets' | 'no-port' | 'port';

export type HostPortParse =
  ({ ok: true } & HostPort) | { ok: false; problem: HostPortProblem; host: string; port?: string; bracketed: boolean };

export interface HostPortOptions {
  /** The port when none is written; without it, a missing port is a problem. */
  defaultPort?: number;
  /** The host an empty one (`:9464`) stands for; without it, an empty host is a problem. */
  emptyHost?: string;
  /** The lowest port accepted (default 1; 0 lets the system choose one to listen on). */
  lowestPort?: number;
}

/**
 * `host:port`, `[IPv6]:port`, and `host` alone when a default port is given (an IPv6 address alone
 * too, as it then cannot be mistaken for one with a port). The host is a host name or an IP address.
 */
export function parseHostPort(value: string, options: HostPortOptions = {}): HostPortParse {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(value);
  let host: string;
  let port: string | undefined;
  const problem = (which: HostPortProblem): HostPortParse => ({
    ok: false,
    problem: which,
    host,
    port,
    bracketed: Boolean(bracketed),
  });
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2];
    if (isIP(host) !== 6) return problem('host');
  } else if (value.split(':').length > 2) {
    host = value;
    if (options.defaultPort !== undefined && isIP(value) === 6)
      return { ok: true, host: value, port: options.defaultPort };
    return problem('ipv6-brackets');
  } else {
    [host, port] = value.split(':');
    if (host === '' && options.emptyHost !== undefined) host = options.emptyHost;
    // No ':' here, so the host is an IPv4 address or a name (isIP would also try IPv6, slowly the first time).
    else if (!isIPv4(host) && !isHostName(host)) return problem('host');
    else if (!isIPv4(host)) host = host.replace(/\.$/, '').toLowerCase();
  }
  if (port === undefined && options.defaultPort !== undefined) return { ok: true, host, port: options.defaultPort };
  if (port === undefined || port === '') return problem('no-port');
  const n = Number(port);
  if (!/^\d{1,5}$/.test(port) || n < (options.lowestPort ?? 1) || n > 65535) return problem('port');
  return { ok: true, host, port: n };
}

/** What is wrong with a URL meant as a public service-account issuer (empty when fine). */
export function issuerUrlProblems(issuer: string): string[] {
  const url = parseUrl(issuer);
  if (!url) return [`"${issuer}" is not a URL; give the public issuer URL, e.g. https://oidc.example.com/cluster1.`];
  const problems: string[] = [];
  if (url.protocol !== 'https:')
    problems.push(
      `it uses ${url.protocol.replace(':', '')}://; the DNS provider's identity service only accepts https:// issuers.`,
    );
  if (url.search || url.hash) problems.push('it has a query or fragment; an issuer URL has neither.');
  if (url.username || url.password) problems.push('it carries user credentials; an issuer URL is public.');
  if (issuer.length > 1 && issuer.endsWith('/')) {
    problems.push('it ends with "/"; tokens carry the issuer byte for byte, and the usual form has no trailing slash.');
  }
  return problems;
}

/**
 * cert-manager's `util.ValidNameserver` (unchanged from v1.15.5 to v1.21.1): the name server with
 * surrounding space trimmed and port 53 added when none is written (IPv6 in brackets), or undefined
 * when cert-manager refuses it. Host and port are not checked further.
 */
export function validNameserver(value: string): string | undefined {
  const nameserver = value.trim();
  if (nameserver === '') return undefined;
  const split = splitHostPort(nameserver);
  let host: string;
  let port: string;
  if ('error' in split) {
    if (split.error !== 'missing port in address') return undefined;
    host = nameserver.replace(/^[[\]]+|[[\]]+$/g, '');
    port = '';
  } else ({ host, port } = split);
  if (host === '') return undefined;
  return host.includes(':') ? `[${host}]:${port || '53'}` : `${host}:${port || '53'}`;
}

/** Go's `net.SplitHostPort`. */
function splitHostPort(hostport: string): { host: string; port: string } | { error: string } {
  const i = hostport.lastIndexOf(':');
  if (i < 0) return { error: 'missing port in address' };
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === '[') {
    const end = hostport.indexOf(']');
    if (end < 0) return { error: "missing ']' in address" };
    if (end + 1 === hostport.length) return { error: 'missing port in address' };
    if (end + 1 !== i)
      return { error: hostport[end + 1] === ':' ? 'too many colons in address' : 'missing port in address' };
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(':')) return { error: 'too many colons in address' };
  }
  if (hostport.slice(j).includes('[')) return { error: "unexpected '[' in address" };
  if (hostport.slice(k).includes(']')) return { error: "unexpected ']' in address" };
  return { host, port: hostport.slice(i + 1) };
}
