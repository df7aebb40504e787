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
import {
  assessKeySet,
  PRIVATE_JWK_MEMBERS,
  discoveryUrl,
  expectedJwksUri,
  KUBERNETES_DISCOVERY_FIELDS,
} from '../../kube/service-account-issuer.js';
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
import { DISCOVERY_DOCUMENT, FETCH, ISSUER, JWKS_URI, KEY_SET, TOKEN } from './messages/document.js';

const GROUP = 'discovery';
/** The discovery document, handed on by discovery.document. */
const DOCUMENT = factKey<Record<string, unknown>>(GROUP, 'the discovery document');
/** The key set, handed on by discovery.jwks. */
const KEYSET = factKey<{ keys?: unknown[] }>(GROUP, 'the key set');

type Definition = CheckMeta &
  Omit<RunnableCheck, 'run' | keyof CheckMeta> & { run(ctx: CheckContext, issuer: string): Promise<RunResult<object>> };

export const provideChecks: CheckProvider = async (input) => {
  const s = await discoverySettings(input);
  const issuer = s.issuerUrl;
  // Keyless role assumption and the API server flags need no issuer URL to say something useful.
  const keyless = [stsCheck(input, s), apiserverFlagsCheck(input, s)];
  const definitions = discoveryDefinitions(input, s, issuer ?? '');
  if (issuer)
    return [...definitions.map(({ run, ...d }): Check => ({ ...d, run: (ctx) => run(ctx, issuer) })), ...keyless];
  // No issuer URL: nothing of the document can be checked. A keyless inventory makes that worth a warning.
  const gate = notConfigured(CLOSED.noIssuerUrl.message, CLOSED.noIssuerUrl.text);
  const closed = (d: Definition): Check => ({
    id: d.id,
    group: d.group,
    title: d.title,
    gate,
    ...(d.provides ? { provides: d.provides } : {}),
  });
  return definitions
    .map((d): Check =>
      d.id === 'discovery.document' && s.keylessSelected
        ? {
            id: d.id,
            group: d.group,
            title: d.title,
            provides: d.provides,
            run: async () => ({ status: 'warn', ...KEYLESS_WITHOUT_ISSUER }),
          }
        : closed(d),
    )
    .concat(keyless);
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
            message: DISCOVERY_DOCUMENT.notHttps(issuer),
            advice: DISCOVERY_DOCUMENT.publishHttps,
          };
        }
        const fetched = await fetchAnonymous(url, ctx);
        if ('failure' in fetched) return fetched.failure;
        const { res: got, doc } = fetched;
        if (!isRecord(doc)) {
          return {
            status: 'fail',
            message: DISCOVERY_DOCUMENT.notObject(url),
            advice: DISCOVERY_DOCUMENT.serveApiServers,
          };
        }
        const record = doc;
        const missing = KUBERNETES_DISCOVERY_FIELDS.filter((f) => record[f] === undefined);
        const facts: FetchFacts = { url, fields: Object.keys(record), contentType: got.headers['content-type'] };
        if (typeof record.issuer !== 'string' || typeof record.jwks_uri !== 'string') {
          const lacking = ['issuer', 'jwks_uri'].filter((f) => typeof record[f] !== 'string').join(' and ');
          return {
            status: 'fail',
            message: DISCOVERY_DOCUMENT.lacks(url, lacking),
            advice: DISCOVERY_DOCUMENT.serveWhatApiServerServes,
            facts,
          };
        }
        ctx.facts.set(DOCUMENT, record);
        if (missing.length) {
          return {
            status: 'warn',
            message: DISCOVERY_DOCUMENT.lacksFields(url, missing),
            advice: DISCOVERY_DOCUMENT.serveExactly,
            facts,
          };
        }
        return { status: 'ok', message: DISCOVERY_DOCUMENT.served(url), facts };
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
        if (differences.length === 0) return { status: 'ok', message: ISSUER.same(issuer) };
        return {
          status: 'fail',
          message: ISSUER.differs(actual, issuer, differences),
          advice: ISSUER.useOneIssuer(issuer, actual),
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
        if (actual === expected) return { status: 'ok', message: JWKS_URI.expected(expected) };
        const facts = { expected, actual };
        let host: string | undefined;
        try {
          host = new URL(actual).hostname;
        } catch {
          return { status: 'fail', message: JWKS_URI.notUrl(actual), advice: JWKS_FLAG_ADVICE(expected), facts };
        }
        if (isInternalHost(host)) {
          return {
            status: 'fail',
            message: JWKS_URI.internal(actual),
            advice: JWKS_FLAG_ADVICE(expected),
            facts,
          };
        }
        return { status: 'fail', message: JWKS_URI.other(actual, expected), advice: JWKS_FLAG_ADVICE(expected), facts };
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
        const facts: KeySetFacts = {
          url,
          contentType,
          keys: assessment.keys,
          ...(reachable ? {} : { note: KEY_SET.fetchedInstead(url, published) }),
        };
        // Anyone can fetch this document: a private key in it lets anyone sign tokens the cloud trusts.
        const exposed = privateKeyMembers(doc);
        if (exposed.length) {
          return {
            status: 'fail',
            message: KEY_SET.privateMaterial(url, joinCapped(exposed, LIST_LIMIT, '; ')),
            advice: KEY_SET.publishPublicAndRotate,
            facts,
          };
        }
        if (assessment.signingKeys === 0) {
          return {
            status: 'fail',
            message: KEY_SET.noSigningKey(url, joinCapped(assessment.problems, LIST_LIMIT, '; ')),
            advice: KEY_SET.serveApiServers,
            facts,
          };
        }
        ctx.facts.set(KEYSET, doc);
        const warnings = [...assessment.problems];
        if (contentType !== 'application/jwk-set+json' && contentType !== 'application/json') {
          warnings.push(KEY_SET.contentType(contentType));
        }
        const summary = KEY_SET.signingKeys(
          assessment.signingKeys,
          joinCapped(assessment.keys.map((k) => `${k.kid} (${k.alg})`)),
        );
        if (warnings.length) {
          return {
            status: 'warn',
            message: KEY_SET.butWarnings(url, summary, joinCapped(warnings, LIST_LIMIT, '; ')),
            advice: KEY_SET.serveAsApiServer,
            facts,
          };
        }
        return { status: 'ok', message: KEY_SET.served(url, summary), facts };
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
        const jwks =
          typeof doc?.jwks_uri === 'string' && safeUrl(doc.jwks_uri) ? doc.jwks_uri : expectedJwksUri(issuer);
        const other =
          new URL(jwks).host !== new URL(issuer).host &&
          !isInternalHost(new URL(jwks).hostname) &&
          jwks.startsWith('https:');
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
          return {
            unavailable: 'not-configured',
            message: TOKEN.noTokenFromCommand(source.command, source.failed),
            text: TOKEN.giveTokenFile,
          };
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
            message: TOKEN.refused(source.from, verdict.failures),
            advice: TOKEN.setApiServerFlags(issuer, s.inClusterAudience, s.stsAudience),
            facts,
          };
        }
        if (verdict.warnings.length) {
          return {
            status: 'warn',
            message: TOKEN.verifiesBut(source.from, verdict.warnings),
            advice: TOKEN.keepInClusterAudience,
            facts,
          };
        }
        return { status: 'ok', message: TOKEN.verifies(source.from, verdict.facts.kid, issuer, s.stsAudience), facts };
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
async function fetchAnonymous(
  url: string,
  ctx: CheckContext,
): Promise<{ res: HttpResponse; doc: unknown } | { failure: CheckResult<FetchFacts> }> {
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
    return {
      status: 'fail',
      message: FETCH.notPublic(url, res.status),
      advice: RBAC_ADVICE,
      facts: { url, status: res.status },
    };
  }
  if (res.status === 404) {
    return {
      status: 'fail',
      message: FETCH.nothingPublished(url),
      advice: FETCH.publishBoth,
      facts: { url, status: 404 },
    };
  }
  if (res.status !== 200) {
    return {
      status: 'fail',
      message: FETCH.notOk(url, res.status),
      advice: FETCH.checkProxy,
      facts: { url, status: res.status },
    };
  }
  return undefined;
}

function httpFailure(error: unknown): CheckResult<FetchFacts> {
  if (error instanceof HttpError) {
    const extra = error.kind === 'tls-unknown-ca' ? FETCH.trustTheChainToo : '';
    return {
      status: 'fail',
      message: error.message,
      advice: error.advice + extra,
      facts: { url: error.url, kind: error.kind },
    };
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
    return members.length
      ? [`key ${i + 1}${typeof kid === 'string' ? ` (${escapeLine(kid.slice(0, 80))})` : ''}: ${members.join(', ')}`]
      : [];
  });
}
