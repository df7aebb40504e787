/**
 * A Kubernetes service-account issuer published for keyless DNS credentials (route53 auth
 * `kubernetes`): where its documents live, kubeadm's in-cluster defaults, and what a usable key set
 * holds. Shared by the discovery checks and `cloudgate oidc`.
 */
import { asRecord, isRecord } from '../records.js';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
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

export const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

export function assessKeySet(doc: unknown): KeySetAssessment {
  if (!isRecord(doc)) {
    return { keys: [], signingKeys: 0, problems: ['it is not a JSON object with a "keys" array'] };
  }
  const keys = doc.keys;
  if (!Array.isArray(keys)) return { keys: [], signingKeys: 0, problems: ['it has no "keys" array'] };
  const problems: string[] = [];
  const summaries: KeySummary[] = [];
  let signingKeys = 0;
  keys.forEach((key: unknown, i) => {
    const k = asRecord(key) ?? {};
    const s = (name: string) => (typeof k[name] === 'string' ? k[name] : undefined);
    const summary: KeySummary = { kid: s('kid'), kty: s('kty'), alg: s('alg'), use: s('use') };
    summaries.push(Object.fromEntries(Object.entries(summary).filter(([, v]) => v !== undefined)));
    const missing = ['kid', 'kty', 'alg'].filter((name) => !s(name));
    if (PRIVATE_JWK_MEMBERS.some((m) => m in k))
      problems.push(`key ${i + 1} contains PRIVATE key material; publish only public keys and rotate this one`);
    if (missing.length)
      problems.push(`key ${i + 1}${summary.kid ? ` (${summary.kid})` : ''} lacks ${missing.join(', ')}`);
    else if (summary.use !== 'sig')
      problems.push(`key ${summary.kid} has use "${summary.use ?? '(none)'}" instead of "sig"`);
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
