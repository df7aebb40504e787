/**
 * Doctor group `discovery`: is the cluster's OIDC issuer published the way keyless DNS credentials
 * (route53 auth kubernetes) need it: discovery document, key set, TLS, a token that verifies.
 */
import { factKey } from '../../doctor/facts.js';
import type { CheckProvider } from '../../doctor/area.js';
import type { DoctorInput } from '../../doctor/input.js';
import type { Check, CheckContext, CheckMeta, CheckResult, RunnableCheck, RunResult } from '../../doctor/types.js';
import { appliesWhen, notConfigured } from '../../doctor/gates.js';
import { HttpError, httpOf, type HttpResponse } from '../../net/http.js';
import { isInternalHost, issuerDifferences } from './issuer.js';
import { escapeLine } from '../../escape.js';
import { assessKeySet, PRIVATE_JWK_MEMBERS, discoveryUrl, expectedJwksUri, KUBERNETES_DISCOVERY_FIELDS } from '../../kube/service-account-issuer.js';
import { discoverySettings, type DiscoverySettings } from '../../config/discovery-settings.js';
import { tlsFacts, tlsResult } from './tls.js';
import { verifyServiceAccountToken } from './token.js';
import { stsCheck } from './sts.js';
import { apiserverFlagsCheck } from './apiserver-flags.js';
import { readOrMintToken, tokenGate } from './sa-token.js';
import { joinCapped, LIST_LIMIT } from '../../bounded.js';
import { isRecord, memberOf } from '../../records.js';
import type { FetchFacts, IssuerFacts, KeySetFacts, TokenCheckFacts } from './facts.js';
import { CLOSED, JWKS_FLAG_ADVICE, KEYLESS_WITHOUT_ISSUER, RBAC_ADVICE, TITLES } from './messages.js';

const GROUP = 'discovery';
/** The discovery document, handed on by discovery.document. */
const DOCUMENT = factKey<Record<string, unknown>>(GROUP, 'the discovery document');
/** The key set, handed on by discovery.jwks. */
const KEYSET = factKey<{ keys?: unknown[] }>(GROUP, 'the key set');


type Definition = CheckMeta & Omit<RunnableCheck, 'run' | keyof CheckMeta> & { run(ctx: CheckContext, issuer: string): Promise<RunResult<object>> };

export const provideChecks: CheckProvider = async (input) => {
  const s = await discoverySettings(input);
  const issuer = s.issuerUrl;
  // Keyless role assumption and the API server flags need no issuer URL to say something useful.
  const keyless = [stsCheck(input, s), apiserverFlagsCheck(input, s)];
  const definitions = discoveryDefinitions(input, s, issuer ?? '');
  if (issuer) return [...definitions.map(({ run, ...d }): Check => ({ ...d, run: (ctx) => run(ctx, issuer) })), ...keyless];
  // No issuer URL: nothing of the document can be checked. A keyless inventory makes that worth a warning.
  const gate = notConfigured(CLOSED.noIssuerUrl.message, CLOSED.noIssuerUrl.text);
  const closed = (d: Definition): Check => ({ id: d.id, group: d.group, title: d.title, gate, ...(d.provides ? { provides: d.provides } : {}) });
  return definitions.map((d): Check => d.id === 'discovery.document' && s.keylessSelected
    ? {
        id: d.id, group: d.group, title: d.title, provides: d.provides,
        run: async () => ({ status: 'warn', ...KEYLESS_WITHOUT_ISSUER }),
      }
    : closed(d)).concat(keyless);
};

function discoveryDefinitions(input: DoctorInput, s: DiscoverySettings, issuerUrl: string): Definition[] {
  const https = /^https:\/\//i.test(issuerUrl);
  return [
    {
      id: 'discovery.document',
      group: GROUP,
      title: TITLES.document,
      provides: [DOCUMENT],
      async run(ctx, issuer): Promise<CheckResult<FetchFacts>> {
        const url = discoveryUrl(issuer);
        if (!https) {
          return {
            status: 'fail',
            message: `The issuer URL ${issuer} is not https://; the DNS provider's identity service only fetches https issuers.`,
            advice: 'Publish the discovery documents behind HTTPS and use that https:// URL as --service-account-issuer.',
          };
        }
        const fetched = await fetchAnonymous(url, ctx);
        if ('failure' in fetched) return fetched.failure;
        const { res: got, doc } = fetched;
        if (!isRecord(doc)) {
          return { status: 'fail', message: `${url} answered JSON that is not an object.`, advice: 'Serve the document the API server serves at /.well-known/openid-configuration.' };
        }
        const record = doc;
        const missing = KUBERNETES_DISCOVERY_FIELDS.filter((f) => record[f] === undefined);
        const facts: FetchFacts = { url, fields: Object.keys(record), contentType: got.headers['content-type'] };
        if (typeof record.issuer !== 'string' || typeof record.jwks_uri !== 'string') {
          const lacking = ['issuer', 'jwks_uri'].filter((f) => typeof record[f] !== 'string').join(' and ');
          return { status: 'fail', message: `${url} lacks ${lacking}.`, advice: 'Serve the document the API server serves (kubectl get --raw /.well-known/openid-configuration).', facts };
        }
        ctx.facts.set(DOCUMENT, record);
        if (missing.length) {
          return {
            status: 'warn',
            message: `${url} is served anonymously but lacks ${missing.join(', ')}.`,
            advice: 'Serve the document exactly as the API server produces it (kubectl get --raw /.well-known/openid-configuration).',
            facts,
          };
        }
        return { status: 'ok', message: `${url} is served anonymously (200, JSON, the Kubernetes field set).`, facts };
      },
    },
    {
      id: 'discovery.issuer',
      group: GROUP,
      title: TITLES.issuer,
      needs: [DOCUMENT],
      async run(ctx, issuer): Promise<CheckResult<IssuerFacts>> {
        const actual = String(ctx.facts.need(DOCUMENT).issuer);
        const differences = issuerDifferences(issuer, actual);
        if (differences.length === 0) return { status: 'ok', message: `issuer is ${issuer}, byte for byte.` };
        return {
          status: 'fail',
          message: `The document's issuer "${actual}" is not the issuer URL "${issuer}": ${differences.join('; ')}.`,
          advice:
            `Tokens carry iss exactly as --service-account-issuer says and the token service compares it byte for byte. ` +
            `Set --service-account-issuer=${issuer} (first in the list) on every API server, or, if "${actual}" is the real issuer, ` +
            'use exactly that everywhere (provider registration, trust policy, --issuer-url).',
          facts: { expected: issuer, actual, differences },
        };
      },
    },
    {
      id: 'discovery.jwks-uri',
      group: GROUP,
      title: TITLES.jwksUri,
      needs: [DOCUMENT],
      async run(ctx, issuer): Promise<CheckResult<IssuerFacts>> {
        const expected = expectedJwksUri(issuer);
        const actual = String(ctx.facts.need(DOCUMENT).jwks_uri);
        if (actual === expected) return { status: 'ok', message: `jwks_uri is ${expected}.` };
        const facts = { expected, actual };
        let host: string | undefined;
        try {
          host = new URL(actual).hostname;
        } catch {
          return { status: 'fail', message: `jwks_uri "${actual}" is not a URL.`, advice: JWKS_FLAG_ADVICE(expected), facts };
        }
        if (isInternalHost(host)) {
          return {
            status: 'fail',
            message: `jwks_uri points at ${actual}, an internal address the DNS provider cannot reach: --service-account-jwks-uri is probably unset.`,
            advice: JWKS_FLAG_ADVICE(expected),
            facts,
          };
        }
        return { status: 'fail', message: `jwks_uri is ${actual}, not ${expected}.`, advice: JWKS_FLAG_ADVICE(expected), facts };
      },
    },
    {
      id: 'discovery.jwks',
      group: GROUP,
      title: TITLES.keySet,
      needs: [DOCUMENT],
      provides: [KEYSET],
      after: ['discovery.jwks-uri'],
      async run(ctx, issuer): Promise<CheckResult<KeySetFacts | FetchFacts>> {
        const published = String(ctx.facts.need(DOCUMENT).jwks_uri);
        const reachable = safeUrl(published) && !isInternalHost(new URL(published).hostname);
        const url = reachable ? published : expectedJwksUri(issuer);
        const fetched = await fetchAnonymous(url, ctx);
        if ('failure' in fetched) return fetched.failure;
        const { res: got, doc } = fetched;
        const contentType = (got.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        const assessment = assessKeySet(doc);
        const facts: KeySetFacts = { url, contentType, keys: assessment.keys, ...(reachable ? {} : { note: `fetched ${url} because jwks_uri (${published}) is internal` }) };
        // Anyone can fetch this document: a private key in it lets anyone sign tokens the cloud trusts.
        const exposed = privateKeyMembers(doc);
        if (exposed.length) {
          return {
            status: 'fail',
            message: `The key set at ${url} publishes PRIVATE key material (${joinCapped(exposed, LIST_LIMIT, '; ')}): anyone can sign service-account tokens with it.`,
            advice: 'Publish only the public keys (kubectl get --raw /openid/v1/jwks serves them), then rotate the exposed key: its private half is public now.',
            facts,
          };
        }
        if (assessment.signingKeys === 0) {
          return {
            status: 'fail',
            message: `The key set at ${url} has no usable signing key: ${joinCapped(assessment.problems, LIST_LIMIT, '; ')}.`,
            advice: 'Serve the key set the API server serves (kubectl get --raw /openid/v1/jwks).',
            facts,
          };
        }
        ctx.facts.set(KEYSET, doc);
        const warnings = [...assessment.problems];
        if (contentType !== 'application/jwk-set+json' && contentType !== 'application/json') {
          warnings.push(`content type is "${contentType || '(none)'}" instead of application/jwk-set+json`);
        }
        const summary = `${assessment.signingKeys} signing key(s): ${joinCapped(assessment.keys.map((k) => `${k.kid} (${k.alg})`))}`;
        if (warnings.length) {
          return {
            status: 'warn',
            message: `The key set at ${url} has ${summary}, but ${joinCapped(warnings, LIST_LIMIT, '; ')}.`,
            advice: 'Serve it as the API server does: Content-Type application/jwk-set+json, public keys with use "sig".',
            facts,
          };
        }
        return { status: 'ok', message: `The key set at ${url} is served anonymously with ${summary}.`, facts };
      },
    },
    {
      id: 'discovery.tls',
      group: GROUP,
      title: TITLES.tls,
      gate: appliesWhen(https, CLOSED.notHttps),
      uses: [DOCUMENT],
      async run(ctx, issuer) {
        const urls = [issuer];
        const doc = ctx.facts.get(DOCUMENT);
        const jwks = typeof doc?.jwks_uri === 'string' && safeUrl(doc.jwks_uri) ? doc.jwks_uri : expectedJwksUri(issuer);
        const other = new URL(jwks).host !== new URL(issuer).host && !isInternalHost(new URL(jwks).hostname) && jwks.startsWith('https:');
        if (other) urls.push(jwks);
        const facts = await Promise.all(urls.map((u) => tlsFacts(u, ctx.services, ctx.signal)));
        return tlsResult(facts, ctx.services.network.insecure);
      },
    },
    {
      id: 'discovery.token',
      group: GROUP,
      title: TITLES.token,
      needs: [KEYSET],
      gate: tokenGate(s, input),
      async run(ctx, issuer): Promise<RunResult<TokenCheckFacts>> {
        const source = await readOrMintToken(s, input, ctx);
        if ('status' in source) return source;
        if ('failed' in source) {
          const text = 'Give --token-file FILE (a projected service-account token for the issuer).';
          return { unavailable: 'not-configured', message: `No --token-file, and ${source.command} failed: ${source.failed}`, text };
        }
        const verdict = await verifyServiceAccountToken(source.token, ctx.facts.need(KEYSET), {
          issuer,
          audiences: [issuer, s.stsAudience],
          optionalAudiences: [s.inClusterAudience],
          now: ctx.services.clock.now().getTime(),
        });
        const facts = { source: source.from, ...verdict.facts };
        if (verdict.failures.length) {
          return {
            status: 'fail',
            message: `The token from ${source.from} would be refused: ${verdict.failures.join('; ')}.`,
            advice:
              `On every API server: --service-account-issuer=${issuer} (first), --service-account-jwks-uri=${expectedJwksUri(issuer)}, ` +
              `--api-audiences listing ${s.inClusterAudience}, ${issuer} and ${s.stsAudience}; then restart the API servers ("cloudgate oidc" prints these flags).`,
            facts,
          };
        }
        if (verdict.warnings.length) {
          return {
            status: 'warn',
            message: `The token from ${source.from} verifies, but ${verdict.warnings.join('; ')}.`,
            advice: 'Keep the in-cluster audience in --api-audiences so in-cluster clients keep working.',
            facts,
          };
        }
        const holds = `iss is the issuer URL and aud holds ${issuer} and ${s.stsAudience}`;
        return { status: 'ok', message: `The token from ${source.from} verifies with key ${verdict.facts.kid}, ${holds}.`, facts };
      },
    },
  ];
}

function safeUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** GET without credentials (as the DNS provider's identity service does), then the JSON body; a failure phrased as a check result. */
async function fetchAnonymous(url: string, ctx: CheckContext): Promise<{ res: HttpResponse; doc: unknown } | { failure: CheckResult<FetchFacts> }> {
  try {
    const res = await httpOf(ctx.services).request({ url, signal: ctx.signal });
    const failure = statusFailure(url, res.status);
    return failure ? { failure } : { res, doc: res.json() };
  } catch (error) {
    return { failure: httpFailure(error) };
  }
}

function statusFailure(url: string, status: number): CheckResult<FetchFacts> | undefined {
  const res = { status };
  if (res.status === 401 || res.status === 403) {
    return { status: 'fail', message: `${url} answered ${res.status} to a request without credentials: it is not public.`, advice: RBAC_ADVICE, facts: { url, status: res.status } };
  }
  if (res.status === 404) {
    return { status: 'fail', message: `${url} answered 404: nothing is published there.`, advice: 'Publish the discovery document and key set at the issuer URL; "cloudgate oidc --out DIR" writes both files.', facts: { url, status: 404 } };
  }
  if (res.status !== 200) {
    return { status: 'fail', message: `${url} answered ${res.status} instead of 200.`, advice: 'Check the server or proxy in front of the issuer URL.', facts: { url, status: res.status } };
  }
  return undefined;
}

function httpFailure(error: unknown): CheckResult<FetchFacts> {
  if (error instanceof HttpError) {
    const extra =
      error.kind === 'tls-unknown-ca'
        ? ' The DNS provider\'s identity service must trust this chain as well: use a publicly trusted certificate, or register the thumbprint of a private CA (see discovery.tls).'
        : '';
    return { status: 'fail', message: error.message, advice: error.advice + extra, facts: { url: error.url, kind: error.kind } };
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
