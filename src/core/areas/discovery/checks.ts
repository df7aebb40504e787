/**
 * Doctor group `discovery`: is the cluster's OIDC issuer published the way keyless DNS credentials
 * (route53 auth kubernetes) need it: discovery document, key set, TLS, a token that verifies.
 */
import { stateKey } from '../../doctor/state-keys.js';
import type { CheckProvider, DoctorInput } from '../../doctor/input.js';
import type { Check, CheckContext, CheckResult } from '../../doctor/types.js';
import { configured, type Gate } from '../../doctor/gates.js';
import { HttpError, httpClientFor, type HttpResponse } from '../../net/http.js';
import { isInternalHost, issuerDifferences } from './issuer.js';
import { escapeLine } from '../../escape.js';
import { assessKeySet, PRIVATE_JWK_MEMBERS, discoveryUrl, expectedJwksUri, KUBERNETES_DISCOVERY_FIELDS } from '../../kube/service-account-issuer.js';
import { discoverySettings, type DiscoverySettings } from '../../config/discovery-settings.js';
import { tlsFacts, tlsResult } from './tls.js';
import { verifyServiceAccountToken } from './token.js';
import { stsCheck } from './sts.js';
import { apiserverFlagsCheck } from './apiserver-flags.js';
import { readOrMintToken } from './sa-token.js';
import { joinCapped, LIST_LIMIT } from '../../bounded.js';
import { isRecord, memberOf } from '../../records.js';

const GROUP = 'discovery';
const DOCUMENT = 'discovery.document';
/** The discovery document, left by discovery.document for the checks that need it. */
const DOCUMENT_VALUE = stateKey<Record<string, unknown>>('discovery.document');
const KEYSET = 'discovery.jwks';
/** The key set, left by discovery.jwks. */
const KEYSET_VALUE = stateKey<{ keys?: unknown[] }>('discovery.jwks');

export const RBAC_ADVICE =
  'By default the API server lets only service accounts read its discovery endpoints. Bind the ClusterRole ' +
  'system:service-account-issuer-discovery to the group system:unauthenticated ("cloudgate oidc --out DIR" writes ' +
  'discovery-rbac.yaml), or host the two files statically at the issuer URL.';

const JWKS_FLAG_ADVICE = (expected: string) =>
  `Set --service-account-jwks-uri=${expected} on every API server (kube-apiserver), or fix the statically hosted document.`;

interface Definition {
  id: string;
  title: string;
  needs?: string[];
  after?: string[];
  run(ctx: CheckContext, issuer: string): Promise<CheckResult>;
}

export const provideChecks: CheckProvider = async (input) => {
  const s = await discoverySettings(input);
  const definitions = discoveryDefinitions(input, s);
  const issuer = s.issuerUrl;
  // Keyless role assumption and the API server flags need no issuer URL to say something useful.
  const keyless = [stsCheck(input, s), apiserverFlagsCheck(input, s)];
  if (!issuer) {
    const where = '--issuer-url URL (or CLOUDGATE_ISSUER_URL, or discovery.issuer_url in --config)';
    const gate = configured({ issuer_url: issuer }, {
      message: 'No issuer URL given; needed only for route53 auth kubernetes.',
      text: `Give the public issuer URL with ${where}.`,
    });
    return definitions.map((d) => d.id === DOCUMENT && s.keylessSelected
      ? check(d, async () => ({ status: 'warn', message: 'The inventory selects route53 auth kubernetes, but no issuer URL was given to check.', advice: `Give the public issuer URL with ${where}.` }))
      : check(d, async () => ({ status: 'fail', message: 'Ran without an issuer URL.' }), gate)).concat(keyless);
  }
  return definitions.map((d) => check(d, (ctx) => d.run(ctx, issuer))).concat(keyless);
};

function check(d: Definition, run: (ctx: CheckContext) => Promise<CheckResult>, gate?: Gate): Check {
  return { id: d.id, group: GROUP, title: d.title, needs: d.needs, after: d.after, ...(gate ? { gate } : {}), run };
}

function discoveryDefinitions(input: DoctorInput, s: DiscoverySettings): Definition[] {
  const http = () => httpClientFor(input.network);
  const documentOf = (ctx: CheckContext) => ctx.state.get(DOCUMENT_VALUE)!;

  return [
    {
      id: DOCUMENT,
      title: 'OIDC discovery document (anonymous)',
      async run(ctx, issuer) {
        const url = discoveryUrl(issuer);
        if (!/^https:\/\//i.test(issuer)) {
          return {
            status: 'fail',
            message: `The issuer URL ${issuer} is not https://; the DNS provider's identity service only fetches https issuers.`,
            advice: 'Publish the discovery documents behind HTTPS and use that https:// URL as --service-account-issuer.',
          };
        }
        const fetched = await fetchAnonymous(url, ctx, http);
        if ('failure' in fetched) return fetched.failure;
        const { res: got, doc } = fetched;
        if (!isRecord(doc)) {
          return { status: 'fail', message: `${url} answered JSON that is not an object.`, advice: 'Serve the document the API server serves at /.well-known/openid-configuration.' };
        }
        const record = doc;
        const missing = KUBERNETES_DISCOVERY_FIELDS.filter((f) => record[f] === undefined);
        const details = { url, fields: Object.keys(record), contentType: got.headers['content-type'] };
        if (typeof record.issuer !== 'string' || typeof record.jwks_uri !== 'string') {
          return { status: 'fail', message: `${url} lacks ${['issuer', 'jwks_uri'].filter((f) => typeof record[f] !== 'string').join(' and ')}.`, advice: 'Serve the document the API server serves (kubectl get --raw /.well-known/openid-configuration).', details };
        }
        ctx.state.set(DOCUMENT_VALUE, record);
        if (missing.length) {
          return { status: 'warn', message: `${url} is served anonymously but lacks ${missing.join(', ')}.`, advice: 'Serve the document exactly as the API server produces it (kubectl get --raw /.well-known/openid-configuration).', details };
        }
        return { status: 'ok', message: `${url} is served anonymously (200, JSON, the Kubernetes field set).`, details };
      },
    },
    {
      id: 'discovery.issuer',
      title: 'issuer equals the issuer URL',
      needs: [DOCUMENT],
      async run(ctx, issuer) {
        const actual = String(documentOf(ctx).issuer);
        const differences = issuerDifferences(issuer, actual);
        if (differences.length === 0) return { status: 'ok', message: `issuer is ${issuer}, byte for byte.` };
        return {
          status: 'fail',
          message: `The document's issuer "${actual}" is not the issuer URL "${issuer}": ${differences.join('; ')}.`,
          advice:
            `Tokens carry iss exactly as --service-account-issuer says and the token service compares it byte for byte. ` +
            `Set --service-account-issuer=${issuer} (first in the list) on every API server, or, if "${actual}" is the real issuer, use exactly that everywhere (provider registration, trust policy, --issuer-url).`,
          details: { expected: issuer, actual, differences },
        };
      },
    },
    {
      id: 'discovery.jwks-uri',
      title: 'jwks_uri is the public key-set URL',
      needs: [DOCUMENT],
      async run(ctx, issuer) {
        const expected = expectedJwksUri(issuer);
        const actual = String(documentOf(ctx).jwks_uri);
        if (actual === expected) return { status: 'ok', message: `jwks_uri is ${expected}.` };
        const details = { expected, actual };
        let host: string | undefined;
        try {
          host = new URL(actual).hostname;
        } catch {
          return { status: 'fail', message: `jwks_uri "${actual}" is not a URL.`, advice: JWKS_FLAG_ADVICE(expected), details };
        }
        if (isInternalHost(host)) {
          return {
            status: 'fail',
            message: `jwks_uri points at ${actual}, an internal address the DNS provider cannot reach: --service-account-jwks-uri is probably unset.`,
            advice: JWKS_FLAG_ADVICE(expected),
            details,
          };
        }
        return { status: 'fail', message: `jwks_uri is ${actual}, not ${expected}.`, advice: JWKS_FLAG_ADVICE(expected), details };
      },
    },
    {
      id: KEYSET,
      title: 'Key set (anonymous, signing keys)',
      needs: [DOCUMENT],
      after: ['discovery.jwks-uri'],
      async run(ctx, issuer) {
        const published = String(documentOf(ctx).jwks_uri);
        const reachable = safeUrl(published) && !isInternalHost(new URL(published).hostname);
        const url = reachable ? published : expectedJwksUri(issuer);
        const fetched = await fetchAnonymous(url, ctx, http);
        if ('failure' in fetched) return fetched.failure;
        const { res: got, doc } = fetched;
        const contentType = (got.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        const assessment = assessKeySet(doc);
        const details = { url, contentType, keys: assessment.keys, ...(reachable ? {} : { note: `fetched ${url} because jwks_uri (${published}) is internal` }) };
        // Anyone can fetch this document: a private key in it lets anyone sign tokens the cloud trusts.
        const exposed = privateKeyMembers(doc);
        if (exposed.length) {
          return { status: 'fail', message: `The key set at ${url} publishes PRIVATE key material (${joinCapped(exposed, LIST_LIMIT, '; ')}): anyone can sign service-account tokens with it.`,
            advice: 'Publish only the public keys (kubectl get --raw /openid/v1/jwks serves them), then rotate the exposed key: its private half is public now.', details };
        }
        if (assessment.signingKeys === 0) {
          return { status: 'fail', message: `The key set at ${url} has no usable signing key: ${joinCapped(assessment.problems, LIST_LIMIT, '; ')}.`, advice: 'Serve the key set the API server serves (kubectl get --raw /openid/v1/jwks).', details };
        }
        ctx.state.set(KEYSET_VALUE, doc);
        const warnings = [...assessment.problems];
        if (contentType !== 'application/jwk-set+json' && contentType !== 'application/json') {
          warnings.push(`content type is "${contentType || '(none)'}" instead of application/jwk-set+json`);
        }
        const summary = `${assessment.signingKeys} signing key(s): ${joinCapped(assessment.keys.map((k) => `${k.kid} (${k.alg})`))}`;
        if (warnings.length) {
          return { status: 'warn', message: `The key set at ${url} has ${summary}, but ${joinCapped(warnings, LIST_LIMIT, '; ')}.`, advice: 'Serve it as the API server does: Content-Type application/jwk-set+json, public keys with use "sig".', details };
        }
        return { status: 'ok', message: `The key set at ${url} is served anonymously with ${summary}.`, details };
      },
    },
    {
      id: 'discovery.tls',
      title: 'TLS chain and thumbprint of the issuer',
      after: [DOCUMENT],
      async run(ctx, issuer) {
        if (!/^https:\/\//i.test(issuer)) return { status: 'skip', message: 'The issuer URL is not https://: there is no TLS to check.' };
        const urls = [issuer];
        const doc = ctx.state.get(DOCUMENT_VALUE);
        const jwks = typeof doc?.jwks_uri === 'string' && safeUrl(doc.jwks_uri) ? doc.jwks_uri : expectedJwksUri(issuer);
        if (new URL(jwks).host !== new URL(issuer).host && !isInternalHost(new URL(jwks).hostname) && jwks.startsWith('https:')) urls.push(jwks);
        const facts = await Promise.all(urls.map((u) => tlsFacts(u, input.network, ctx.signal)));
        return tlsResult(facts, input.network.insecure);
      },
    },
    {
      id: 'discovery.token',
      title: 'A service-account token verifies against the key set',
      needs: [KEYSET],
      async run(ctx, issuer) {
        const source = await tokenSource(s, input, ctx);
        if ('status' in source) return source;
        const verdict = await verifyServiceAccountToken(source.token, ctx.state.get(KEYSET_VALUE) ?? {}, {
          issuer,
          audiences: [issuer, s.stsAudience],
          optionalAudiences: [s.inClusterAudience],
        });
        const details = { source: source.from, ...verdict.facts };
        if (verdict.failures.length) {
          return {
            status: 'fail',
            message: `The token from ${source.from} would be refused: ${verdict.failures.join('; ')}.`,
            advice: `On every API server: --service-account-issuer=${issuer} (first), --service-account-jwks-uri=${expectedJwksUri(issuer)}, --api-audiences listing ${s.inClusterAudience}, ${issuer} and ${s.stsAudience}; then restart the API servers ("cloudgate oidc" prints these flags).`,
            details,
          };
        }
        if (verdict.warnings.length) {
          return { status: 'warn', message: `The token from ${source.from} verifies, but ${verdict.warnings.join('; ')}.`, advice: `Keep the in-cluster audience in --api-audiences so in-cluster clients keep working.`, details };
        }
        return { status: 'ok', message: `The token from ${source.from} verifies with key ${verdict.facts.kid}, iss is the issuer URL and aud holds ${issuer} and ${s.stsAudience}.`, details };
      },
    },
  ];
}

async function tokenSource(
  s: DiscoverySettings,
  input: DoctorInput,
  ctx: CheckContext,
): Promise<{ token: string; from: string } | CheckResult> {
  const source = await readOrMintToken(s, input, ctx);
  if ('unavailable' in source) return { status: 'skip', message: `No --token-file, and ${source.unavailable}`, reason: source.reason };
  if ('failed' in source) {
    return { status: 'skip', message: `No --token-file, and ${source.command} failed: ${source.failed}`, reason: { code: 'not-configured', text: 'Give --token-file FILE (a projected service-account token for the issuer).' } };
  }
  return source;
}

function safeUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** GET with no credentials at all, as the DNS provider's identity service does. */
/** GET without credentials, then the JSON body; any failure already phrased as a check result. */
async function fetchAnonymous(
  url: string,
  ctx: CheckContext,
  http: () => ReturnType<typeof httpClientFor>,
): Promise<{ res: HttpResponse; doc: unknown } | { failure: CheckResult }> {
  try {
    const res = await http().request({ url, signal: ctx.signal });
    const failure = statusFailure(url, res.status);
    return failure ? { failure } : { res, doc: res.json() };
  } catch (error) {
    return { failure: httpFailure(error) };
  }
}

function statusFailure(url: string, status: number): CheckResult | undefined {
  const res = { status };
  if (res.status === 401 || res.status === 403) {
    return { status: 'fail', message: `${url} answered ${res.status} to a request without credentials: it is not public.`, advice: RBAC_ADVICE, details: { url, status: res.status } };
  }
  if (res.status === 404) {
    return { status: 'fail', message: `${url} answered 404: nothing is published there.`, advice: 'Publish the discovery document and key set at the issuer URL; "cloudgate oidc --out DIR" writes both files.', details: { url, status: 404 } };
  }
  if (res.status !== 200) {
    return { status: 'fail', message: `${url} answered ${res.status} instead of 200.`, advice: 'Check the server or proxy in front of the issuer URL.', details: { url, status: res.status } };
  }
  return undefined;
}

function httpFailure(error: unknown): CheckResult {
  if (error instanceof HttpError) {
    const extra =
      error.kind === 'tls-unknown-ca'
        ? ' The DNS provider\'s identity service must trust this chain as well: use a publicly trusted certificate, or register the thumbprint of a private CA (see discovery.tls).'
        : '';
    return { status: 'fail', message: error.message, advice: error.advice + extra, details: { url: error.url, kind: error.kind } };
  }
  throw error;
}

/** `key 2 (kid): d, p, q`: the keys of a set that carry private members, and which (never their values). */
function privateKeyMembers(doc: unknown): string[] {
  const keys = memberOf(doc, 'keys');
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((key: unknown, i) => {
    if (!key || typeof key !== 'object') return [];
    const members = PRIVATE_JWK_MEMBERS.filter((m) => m in key);
    const kid = memberOf(key, 'kid');
    return members.length ? [`key ${i + 1}${typeof kid === 'string' ? ` (${escapeLine(kid.slice(0, 80))})` : ''}: ${members.join(', ')}`] : [];
  });
}
