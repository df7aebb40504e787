/** The rules of one value's type and form (text, boolean, enum, email, URL, domain, host:port, PEM). */
import { isIP } from 'node:net';
import { DOMAIN, parseUrl, validNameserver } from './formats.js';
import type { Finding } from '../findings.js';
import { ANNOTATION_PREFIX, VARIABLES, type Variable } from './variables.js';
import { NOT_CHECKED, finding, isEncodedBundle, isPlainMap, isSet, str } from './rule-kit.js';
import { providerFormatRule, trailingDotRule } from './format-rules.js';

type Values = Record<string, unknown>;

export function typeRules(values: Values): Finding[] {
  const out: Finding[] = [];
  for (const row of VARIABLES) {
    const value = values[row.name];
    if (!isSet(value) || value === NOT_CHECKED) continue;
    const shown = row.secret ? 'The value' : `"${String(value)}"`;
    const kind = yamlKind(value);
    const wanted =
      row.type === 'bool' ? 'boolean' : row.type === 'map' ? 'mapping' : row.type === 'int' ? 'number' : 'text';
    if (
      !['text', 'number', 'boolean', 'list', 'mapping'].includes(kind) ||
      (row.type === 'enum' && kind !== 'text') ||
      (row.type === 'map' && kind !== 'mapping')
    ) {
      out.push(
        finding(
          'invalid-type',
          'error',
          row.name,
          `${row.name} must be ${row.type === 'enum' ? `one of: ${row.values!.join(', ')}` : `a ${wanted === 'text' ? describeType(row) : wanted}`}, not a YAML ${kind}.`,
          kind === 'date' || kind === 'number' ? 'Quote the value if it is meant as text.' : undefined,
        ),
      );
      continue;
    }
    switch (row.type) {
      case 'int':
        if (!Number.isInteger(value))
          out.push(
            finding(
              'invalid-type',
              'error',
              row.name,
              `${row.name} must be a whole number, not ${shown}.`,
              'Write it without quotes, e.g. 600.',
            ),
          );
        break;
      case 'bool':
        if (typeof value === 'string' && /^(true|false|yes|no)$/i.test(value.trim())) {
          out.push(
            finding(
              'bool-quoted',
              'warning',
              row.name,
              `${row.name} is the string "${value}", not a boolean.`,
              `Write it without quotes: ${row.name}: ${/^(true|yes)$/i.test(value.trim())}`,
            ),
          );
        } else if (typeof value !== 'boolean') {
          out.push(finding('invalid-type', 'error', row.name, `${row.name} must be true or false, not ${shown}.`));
        }
        break;
      case 'map':
        if (typeof value !== 'object' || Array.isArray(value)) {
          out.push(
            finding(
              'invalid-type',
              'error',
              row.name,
              `${row.name} must be a mapping of annotation names to values.`,
              `Example:\n  ${row.name}:\n    ${ANNOTATION_PREFIX}/subject-organizations: Example Org`,
            ),
          );
        }
        break;
      case 'enum':
        if (str(value) === undefined || !row.values!.some((v) => v.toLowerCase() === str(value)!.toLowerCase())) {
          out.push(
            finding(
              enumRule(row),
              'error',
              row.name,
              `${row.name} is ${shown}, which is not one of: ${row.values!.join(', ')}.`,
              `Choose one of: ${row.values!.map((v) => (row.valueHelp?.[v] ? `${v} (${row.valueHelp[v]})` : v)).join('; ')}.`,
            ),
          );
        } else if (row.name !== 'cluster_issuer_acme_rfc2136_tsig_algorithm' && !row.values!.includes(str(value)!)) {
          out.push(
            finding(
              enumRule(row),
              'error',
              row.name,
              `${row.name} is ${shown}; the values are lower case.`,
              `Write ${row.name}: ${str(value)!.toLowerCase()}`,
            ),
          );
        }
        break;
      default:
        if (typeof value === 'object' || typeof value === 'boolean') {
          out.push(
            finding(
              'invalid-type',
              'error',
              row.name,
              `${row.name} must be a single ${describeType(row)}, not a ${Array.isArray(value) ? 'list' : typeof value === 'boolean' ? 'boolean' : 'mapping'}.`,
              typeof value === 'boolean' ? 'Quote the value if it is meant as text.' : undefined,
            ),
          );
        } else {
          out.push(...formatRule(row, String(value).trim()));
        }
    }
  }
  return out;
}

/** The YAML type of a value as read (1.1 schema): dates, sets and binary data are types of their own. */
function yamlKind(value: unknown): string {
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'list';
  if (isPlainMap(value)) return 'mapping';
  if (value instanceof Date) return 'date';
  if (value instanceof Set) return 'set';
  if (value instanceof Map) return 'ordered mapping';
  if (value instanceof Uint8Array) return 'binary value';
  return 'value of another type';
}

function enumRule(row: Variable): string {
  const rules: Record<string, string> = {
    cluster_issuer_type: 'issuer-type',
    cluster_issuer_acme_solver: 'acme-solver',
    cluster_issuer_acme_route53_auth: 'route53-auth',
    cluster_issuer_acme_rfc2136_tsig_algorithm: 'rfc2136-tsig-algorithm',
  };
  return rules[row.name] ?? 'invalid-value';
}

function describeType(row: Variable): string {
  const names: Record<string, string | undefined> = {
    domain: 'domain name',
    email: 'email address',
    url: 'URL',
    hostport: 'host:port',
    'pem-certificate': 'PEM certificate',
    'pem-key': 'PEM private key',
  };
  return names[row.type] ?? 'text value';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Characters no address holds (controls, DEL, C1, bidi and zero-width ones): a terminal or a log would obey them. */
const NOT_IN_ADDRESS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;

function emailRule(name: string, value: string): Finding[] {
  const bad = NOT_IN_ADDRESS.exec(value);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return [
      finding(
        'invalid-email',
        'error',
        name,
        `${name} holds the control character U+${code} (at position ${bad.index + 1}), which no email address holds.`,
        'Type the address again (a copy and paste may carry an escape sequence), e.g. certificates@example.com.',
      ),
    ];
  }
  return EMAIL.test(value)
    ? []
    : [
        finding(
          'invalid-email',
          'error',
          name,
          `${name} is "${value}", which is not an email address.`,
          'Use an address such as certificates@example.com.',
        ),
      ];
}

/** What is wrong with the form of one value (email, url, domain, host:port, PEM): the one set of format rules. */
export function formatRule(row: Variable, value: string): Finding[] {
  switch (row.type) {
    case 'domain':
      return domainRule(row.name, value);
    case 'email':
      return emailRule(row.name, value);
    case 'url':
      return urlRule(row.name, value);
    case 'hostport':
      return hostPortRule(row.name, value);
    case 'pem-certificate':
      return value.includes('-----BEGIN CERTIFICATE-----') || isEncodedBundle(row.name, value)
        ? []
        : [
            finding(
              'pem-format',
              'error',
              row.name,
              `${row.name} does not contain a PEM certificate (no "-----BEGIN CERTIFICATE-----" line).`,
              'Paste the certificate(s) as a YAML block (`|`), or give "file:PATH" in the answers file.',
            ),
          ];
    case 'pem-key':
      return /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)
        ? []
        : [
            finding(
              'pem-format',
              'error',
              row.name,
              `${row.name} does not contain a PEM private key (no "-----BEGIN ... PRIVATE KEY-----" line).`,
              'Paste the key as a YAML block (`|`), or give "file:PATH" in the answers file.',
            ),
          ];
    default:
      return providerFormatRule(row.name, value);
  }
}

function domainRule(name: string, value: string): Finding[] {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return [
      finding(
        'wildcard-domain',
        'error',
        name,
        `${name} is "${value}", a URL; it must be a bare domain.`,
        `Write ${name}: ${value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[/:].*$/, '')}`,
      ),
    ];
  }
  if (value.startsWith('*.')) {
    const bare = value.slice(2).replace(/\.$/, '');
    return [
      finding(
        'wildcard-domain',
        'error',
        name,
        `${name} is "${value}"; give the domain without "*.".`,
        `Write ${name}: ${bare} (the certificate is issued for *.${bare}).`,
      ),
    ];
  }
  if (!DOMAIN.test(value.replace(/\.$/, ''))) {
    return [
      finding(
        'wildcard-domain',
        'error',
        name,
        `${name} is "${value}", which is not a valid domain name.`,
        'Use letters, digits and hyphens in dot-separated labels, e.g. cloud.example.com.',
      ),
    ];
  }
  return trailingDotRule(name, value);
}

function urlRule(name: string, value: string): Finding[] {
  const url = parseUrl(value);
  if (!url) {
    return [
      finding(
        'invalid-url',
        'error',
        name,
        `${name} is "${value}", which is not a URL.`,
        'Give the full address, e.g. https://host.example.com/path.',
      ),
    ];
  }
  if (url.protocol !== 'https:') {
    return [
      finding(
        name === 'cluster_issuer_acme_server' ? 'acme-server-https' : 'url-https',
        'error',
        name,
        `${name} is "${value}"; it must be an https:// URL.`,
        `Use https://${url.host}${url.pathname === '/' ? '' : url.pathname}`,
      ),
    ];
  }
  return [];
}

/**
 * The rfc2136 name server, as cert-manager's webhook judges it (its `ValidNameserver`, v1.15.5 to
 * v1.21.1): `host:port`, `[IPv6]:port`, or a host alone (cert-manager adds port 53 when it solves).
 * Refused, as cert-manager refuses them: an IPv6 address without brackets, no host (`:53`), stray brackets.
 */
export function hostPortRule(name: string, value: string): Finding[] {
  const bad = (message: string, advice: string) => [finding('rfc2136-nameserver', 'error', name, message, advice)];
  const valid = validNameserver(value);
  if (valid !== undefined) {
    // Accepted, but a port that is no port number fails every update when cert-manager dials it.
    const port = /:([^:\]]*)$/.exec(valid)?.[1] ?? '';
    return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535
      ? []
      : bad(
          `${name} has port "${port}": cert-manager accepts it, but it is not a port between 1 and 65535, so every update fails when cert-manager dials it.`,
          'DNS servers usually listen on port 53.',
        );
  }
  const v = value.trim();
  if (v.split(':').length > 2 && !v.startsWith('[')) {
    const head = v.replace(/:(\d+)$/, '');
    const [address, port] = isIP(v) === 6 || isIP(head) !== 6 ? [v, '53'] : [head, v.slice(head.length + 1)];
    return bad(
      `${name} is "${value}": cert-manager refuses an IPv6 address without brackets ("nameserver must be set in the form host:port where host is an IPv4 address, an enclosed IPv6 address or a hostname").`,
      `Write [${address}]:${port} (brackets, then the port).`,
    );
  }
  return bad(
    `${name} is "${value}", which cert-manager refuses: the form is host:port, [IPv6]:port, or a host alone (port 53).`,
    'Use host:port, e.g. ns1.example.com:53.',
  );
}
