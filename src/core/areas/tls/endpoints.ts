/**
 * Which API endpoints the `tls` group connects to: its `endpoints` setting (`--endpoint` flags, the
 * --config section `tls: { endpoints: [...] }`), the host names the inventory itself names, and (at
 * run time) the service catalog of the sign-in chain.
 */
import { isIP } from 'node:net';
import { isHostName, parseHostPort, parseUrl, URL_SCHEME } from '../../config/formats.js';
import { UsageError } from '../../errors.js';
import { memberOf } from '../../records.js';
import { describeOrigin, type ListItem } from '../../config/setting-schema.js';

export type EndpointSource = 'flag' | 'config' | 'inventory' | 'catalog';

export interface Endpoint {
  host: string;
  port: number;
  source: EndpointSource;
  /** Where it came from, for messages: "--endpoint", "config tls.endpoints", the variable name, a catalog service. */
  origin: string;
  /** Connect to this address instead of resolving the host (`HOST[:PORT]@ADDRESS`, like curl --resolve). */
  address?: string;
}

/**
 * `host`, `host:port`, `[v6]:port`, or a URL (`https://host[:port]/path`), optionally followed by
 * `@ADDRESS` to connect to that address (an ingress IP before DNS points at it); undefined when not one.
 */
export function parseEndpoint(text: string): { host: string; port: number; address?: string } | undefined {
  const [value = '', address, ...more] = text.trim().split('@');
  if (more.length || address === '') return undefined;
  if (address !== undefined) {
    const target = address.replace(/^\[|\]$/g, '');
    const parsed = hostAndPort(value);
    return parsed && (isIP(target) || isHostName(target)) ? { ...parsed, address: target } : undefined;
  }
  return hostAndPort(value);
}

function hostAndPort(value: string): { host: string; port: number } | undefined {
  if (!value) return undefined;
  if (URL_SCHEME.test(value)) {
    const url = parseUrl(value);
    if (!url?.hostname) return undefined;
    const port = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
  }
  const parsed = parseHostPort(value, { defaultPort: 443 });
  return parsed.ok ? { host: parsed.host, port: parsed.port } : undefined;
}

/** `tls.<host>`, with `:<port>` when the port is not 443. */
export function endpointId(e: { host: string; port: number }): string {
  return e.port === 443 ? `tls.${e.host}` : `tls.${e.host}:${e.port}`;
}

/**
 * The endpoints the settings give (`--endpoint`, CLOUDGATE_ENDPOINTS, `tls: { endpoints: [...] }` of
 * --config; setting-specs/), each checked here and refused by where it came from: a bad value is a
 * usage error naming the flag, the variable or the config key.
 */
export function endpointsFromSettings(items: readonly ListItem[], configPath = 'the config file'): Endpoint[] {
  return items.flatMap((item) => {
    // A flag may list several, comma-separated (as --only does).
    const values =
      item.origin.kind === 'flag'
        ? item.value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : [item.value];
    return values.map((value): Endpoint => {
      const parsed = parseEndpoint(value);
      if (item.origin.kind === 'config file') {
        if (!parsed) {
          throw new UsageError(
            `In ${configPath}, ${item.origin.where} (${JSON.stringify(value)}) is not HOST[:PORT] or an https:// URL.`,
            'Give host names such as identity.example.com or compute.example.com:8774.',
          );
        }
        return { ...parsed, source: 'config', origin: `${configPath} tls.endpoints` };
      }
      if (!parsed) {
        const where = item.origin.kind === 'flag' ? '--endpoint' : describeOrigin(item.origin);
        throw new UsageError(
          `${where} "${value}" is not HOST[:PORT][@ADDRESS].`,
          'Give a host name or address, optionally with a port and an address to connect to: ' +
            '--endpoint identity.example.com, --endpoint compute.example.com:8774, --endpoint identity.example.com@10.0.0.5.',
        );
      }
      return {
        ...parsed,
        source: 'flag',
        origin: item.origin.kind === 'flag' ? '--endpoint' : describeOrigin(item.origin),
      };
    });
  });
}

/**
 * Host names the inventory names itself: variables ending in `_host` whose value is a host name
 * (the real platform's `openstack_helm_endpoints_<service>_api_host`, `keycloak_host`, ...).
 * A wildcard domain names no host, so it adds none.
 */
export function endpointsFromInventory(values: Record<string, unknown>): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (!name.endsWith('_host') || typeof value !== 'string' || value.includes('{{')) continue;
    const parsed = parseEndpoint(value);
    if (parsed) out.push({ ...parsed, source: 'inventory', origin: name });
  }
  return out;
}

/** https endpoints of the scoped token's catalog (public and internal interfaces alike). */
export function endpointsFromCatalog(catalog: unknown): Endpoint[] {
  if (!Array.isArray(catalog)) return [];
  const out: Endpoint[] = [];
  for (const service of catalog) {
    const endpoints = memberOf(service, 'endpoints');
    for (const endpoint of Array.isArray(endpoints) ? endpoints : []) {
      const url = memberOf(endpoint, 'url');
      if (typeof url !== 'string' || !url.startsWith('https://')) continue;
      const parsed = parseEndpoint(url);
      const label = String(memberOf(service, 'type') ?? memberOf(service, 'name') ?? 'service');
      if (parsed)
        out.push({
          ...parsed,
          source: 'catalog',
          origin: `catalog ${label} (${String(memberOf(endpoint, 'interface') ?? '')})`,
        });
    }
  }
  return unique(out);
}

/** First occurrence wins (flags before config before inventory). */
export function unique(endpoints: Endpoint[]): Endpoint[] {
  const seen = new Set<string>();
  return endpoints.filter((e) => {
    const key = endpointId(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
