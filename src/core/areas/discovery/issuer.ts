/**
 * Pure rules about a Kubernetes service-account issuer published for keyless DNS credentials
 * (the issuer published for clouddnsb auth `clusteroidc`).
 */
import { isIP } from 'node:net';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
export const DEFAULT_STS_AUDIENCE = 'sts.amazonaws.com';
export const DEFAULT_CERTMGR_NAMESPACE = 'cert-manager';
export const DEFAULT_SERVICE_ACCOUNT = 'certmgr-clouddnsb';
/** kubeadm's defaults: the issuer and audience tokens carry before a public issuer is configured. */
export const IN_CLUSTER_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const IN_CLUSTER_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

/** The fields Kubernetes serves in its discovery document. */
export const KUBERNETES_DISCOVERY_FIELDS = [
  'issuer',
  'jwks_uri',
  'response_types_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
] as const;

export function discoveryUrl(issuer: string): string {
  return issuer.replace(/\/+$/, '') + DISCOVERY_PATH;
}

export function expectedJwksUri(issuer: string): string {
  return issuer.replace(/\/+$/, '') + JWKS_PATH;
}

/** `oidc.example.com/cluster1`: the provider's name in IAM and the prefix of its condition keys. */
export function issuerHostPath(issuer: string): string {
  return issuer.replace(/^https:\/\//i, '').replace(/\/+$/, '');
}

/** What is wrong with a URL meant as a public issuer (empty when fine). */
export function issuerUrlProblems(issuer: string): string[] {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return [`"${issuer}" is not a URL; give the public issuer URL, e.g. https://oidc.example.com/cluster1.`];
  }
  const problems: string[] = [];
  if (url.protocol !== 'https:') problems.push(`it uses ${url.protocol.replace(':', '')}://; the DNS provider's identity service only accepts https:// issuers.`);
  if (url.search || url.hash) problems.push('it has a query or fragment; an issuer URL has neither.');
  if (url.username || url.password) problems.push('it carries user credentials; an issuer URL is public.');
  if (issuer.length > 1 && issuer.endsWith('/')) {
    problems.push('it ends with "/"; tokens carry the issuer byte for byte, and the usual form has no trailing slash.');
  }
  return problems;
}

/** Every way `actual` differs from `expected`, in the operator's words; empty when byte-for-byte equal. */
export function issuerDifferences(expected: string, actual: string): string[] {
  if (expected === actual) return [];
  const diffs: string[] = [];
  const trim = (s: string) => s.replace(/\/+$/, '');
  if (trim(expected) === trim(actual)) {
    diffs.push(actual.endsWith('/') ? 'the document has a trailing slash the URL lacks' : 'the URL has a trailing slash the document lacks');
    return diffs;
  }
  let e: URL | undefined;
  let a: URL | undefined;
  try {
    e = new URL(expected);
    a = new URL(actual);
  } catch {
    return ['they are different strings'];
  }
  if (e.protocol !== a.protocol) diffs.push(`scheme ${a.protocol.replace(':', '')} instead of ${e.protocol.replace(':', '')}`);
  if (e.port !== a.port) diffs.push(`port ${a.port || '(default)'} instead of ${e.port || '(default)'}`);
  if (e.hostname !== a.hostname) {
    diffs.push(`host ${a.hostname} instead of ${e.hostname}`);
  }
  const [ep, ap] = [trim(e.pathname), trim(a.pathname)];
  if (ep !== ap) diffs.push(ep.toLowerCase() === ap.toLowerCase() ? 'the path differs in letter case' : `path "${ap || '/'}" instead of "${ep || '/'}"`);
  if (diffs.length && expected.endsWith('/') !== actual.endsWith('/')) diffs.push('a trailing slash differs as well');
  // new URL() lower-cases the host: a difference only in case is invisible above.
  if (diffs.length === 0) diffs.push(expected.toLowerCase() === actual.toLowerCase() ? 'they differ in letter case' : 'they are different strings');
  return diffs;
}

/** A host only reachable inside the cluster or a private network. */
export function isInternalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(h) === 4) {
    const [a, b] = h.split('.').map(Number);
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (isIP(h) === 6) return h === '::1' || /^f[cd]/.test(h) || h.startsWith('fe80');
  return (
    h === 'localhost' ||
    !h.includes('.') ||
    /\.(svc|cluster\.local|local|internal|localdomain|lan)$/.test(h) ||
    h.startsWith('kubernetes.default')
  );
}

export interface KeySummary {
  kid?: string;
  kty?: string;
  alg?: string;
  use?: string;
}

export interface KeySetAssessment {
  keys: KeySummary[];
  /** Keys with kid, kty, alg and `use: sig`. */
  signingKeys: number;
  problems: string[];
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

export function assessKeySet(doc: unknown): KeySetAssessment {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    return { keys: [], signingKeys: 0, problems: ['it is not a JSON object with a "keys" array'] };
  }
  const keys = (doc as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) return { keys: [], signingKeys: 0, problems: ['it has no "keys" array'] };
  const problems: string[] = [];
  const summaries: KeySummary[] = [];
  let signingKeys = 0;
  keys.forEach((key: unknown, i) => {
    const k = (key && typeof key === 'object' ? key : {}) as Record<string, unknown>;
    const s = (name: string) => (typeof k[name] === 'string' ? (k[name] as string) : undefined);
    const summary: KeySummary = { kid: s('kid'), kty: s('kty'), alg: s('alg'), use: s('use') };
    summaries.push(Object.fromEntries(Object.entries(summary).filter(([, v]) => v !== undefined)));
    const missing = ['kid', 'kty', 'alg'].filter((name) => !s(name));
    if (PRIVATE_JWK_MEMBERS.some((m) => m in k)) problems.push(`key ${i + 1} contains PRIVATE key material; publish only public keys and rotate this one`);
    if (missing.length) problems.push(`key ${i + 1}${summary.kid ? ` (${summary.kid})` : ''} lacks ${missing.join(', ')}`);
    else if (summary.use !== 'sig') problems.push(`key ${summary.kid} has use "${summary.use ?? '(none)'}" instead of "sig"`);
    else signingKeys++;
  });
  if (keys.length === 0) problems.push('the "keys" array is empty');
  return { keys: summaries, signingKeys, problems };
}

/** The signing algorithms a key set offers, for `id_token_signing_alg_values_supported`. */
export function keySetAlgorithms(assessment: KeySetAssessment): string[] {
  const algs = [...new Set(assessment.keys.map((k) => k.alg).filter((a): a is string => Boolean(a)))];
  return algs.length ? algs.sort() : ['RS256'];
}
