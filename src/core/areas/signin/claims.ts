/**
 * `signin.claims`: does the broker token carry what the identity service needs? Three findings, all
 * from the decoded token (never verified, never printed):
 * - the federation mapping's rules (read with admin credentials) against the claims mod_auth_openidc
 *   passes on: Keystone only maps a rule whose every remote type is present, and answers "Could not map
 *   any federated user properties" when no rule maps; without admin credentials `sub`,
 *   `preferred_username` and `email`, which mappings usually name;
 * - the size of the `Authorization: Bearer` header (ingress proxies refuse headers over 8 KiB with 400);
 * - the subject token's audience against the exchanging client (Keycloak's standard exchange needs it).
 */
import { escapeLine } from '../../escape.js';
import { HttpError } from '../../net/http.js';
import {
  adminCredentialState,
  adminToken,
  readMapping,
  type Mapping,
  type MappingRemote,
  type MappingRule,
} from './admin.js';
import { StepError } from './advice.js';
import { jwtClaims } from '../../jwt/token.js';
import type { SigninSettings } from './settings.js';
import type { StepEnv } from './step.js';
import type { SigninFacts } from './facts.js';
import { COMMON_CLAIMS_TEXT, HEADER_SIZE, MAPPING, SUBJECT_AUDIENCE } from './messages/claims.js';

type Claims = Record<string, unknown>;
type Status = 'ok' | 'warn' | 'fail';

export interface Finding {
  status: Status;
  message: string;
  advice?: string;
  facts?: SigninFacts;
}

/** ingress-nginx (large_client_header_buffers 4 8k) and many proxies refuse a longer header line with 400. */
export const HEADER_LIMIT = 8 * 1024;
/** Claims a mapping usually names: checked when the mapping cannot be read. */
export const COMMON_CLAIMS = ['sub', 'preferred_username', 'email'] as const;

const norm = (text: string) => text.toUpperCase().replace(/-/g, '_');

/**
 * The claim a mapping's remote type stands for, or undefined when the type is not one of mod_auth_openidc's
 * claim forms (REMOTE_USER, say). Forms: `<prefix><claim>` (environment) and `HTTP_<PREFIX><CLAIM>`
 * (request header as the WSGI server names it: upper case, `-` as `_`). Without an explicit prefix both
 * mod_auth_openidc's default `OIDC_CLAIM_` and the `OIDC-` of Keystone's own examples are understood.
 */
export function claimOfType(
  type: string,
  prefix: SigninSettings['claimPrefix'],
): { name: string; header: boolean } | undefined {
  const prefixes = prefix.explicit ? [prefix.value] : [prefix.value, 'OIDC-'];
  let best: { name: string; header: boolean; length: number } | undefined;
  for (const p of prefixes) {
    const header = `HTTP_${norm(p)}`;
    if (type.startsWith(p) && type.length > p.length && (!best || p.length > best.length))
      best = { name: type.slice(p.length), header: false, length: p.length };
    if (norm(type).startsWith(header) && type.length > header.length && (!best || header.length > best.length)) {
      best = { name: type.slice(header.length).toLowerCase(), header: true, length: header.length };
    }
  }
  return best && { name: best.name, header: best.header };
}

/** The token's key for a claim name: exact, else the one that reads the same as a header (case, `-`/`_`). */
function keyOf(claims: Claims, name: string): string | undefined {
  if (name in claims) return name;
  return Object.keys(claims).find((k) => norm(k) === norm(name));
}

function valuesOf(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value))
    return value
      .filter((v) => v !== null && v !== undefined && v !== '')
      .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

/** Keystone's any_one_of / not_any_of: plain equality, or `re.search` with `regex: true`. */
function anyMatches(patterns: string[], values: string[], regex: boolean): boolean {
  return values.some((v) =>
    patterns.some((p) => {
      if (!regex) return p === v;
      try {
        return new RegExp(p).test(v);
      } catch {
        return false;
      }
    }),
  );
}

export interface RuleVerdict {
  /** 1-based, as an operator counts the rules of `openstack mapping show`. */
  rule: number;
  matches: boolean;
  /** Remote types whose claim the token lacks. */
  missing: { type: string; claim: string }[];
  /** Present claims whose value any_one_of / not_any_of refuses. */
  refused: { type: string; claim: string; condition: 'any_one_of' | 'not_any_of' }[];
  /** Remote types that are no claim form (REMOTE_USER, another prefix): assumed present. */
  unknown: string[];
  /** Claims the rule reads. */
  uses: string[];
}

export function judgeRule(
  rule: MappingRule,
  index: number,
  claims: Claims,
  prefix: SigninSettings['claimPrefix'],
): RuleVerdict {
  const verdict: RuleVerdict = { rule: index + 1, matches: true, missing: [], refused: [], unknown: [], uses: [] };
  const remotes: MappingRemote[] = Array.isArray(rule?.remote) ? rule.remote : [];
  for (const remote of remotes) {
    if (typeof remote?.type !== 'string') continue;
    const type = remote.type;
    const claim = claimOfType(type, prefix);
    if (!claim) {
      verdict.unknown.push(type);
      continue;
    }
    const key = keyOf(claims, claim.name);
    const values = key === undefined ? [] : valuesOf(claims[key]);
    const name = key ?? claim.name;
    if (!verdict.uses.includes(name)) verdict.uses.push(name);
    if (values.length === 0) {
      verdict.missing.push({ type, claim: name });
      continue;
    }
    const regex = remote.regex === true;
    const anyOf = strings(remote.any_one_of);
    const notAnyOf = strings(remote.not_any_of);
    if (anyOf && !anyMatches(anyOf, values, regex))
      verdict.refused.push({ type, claim: name, condition: 'any_one_of' });
    else if (!anyOf && notAnyOf && anyMatches(notAnyOf, values, regex))
      verdict.refused.push({ type, claim: name, condition: 'not_any_of' });
  }
  verdict.matches = verdict.missing.length === 0 && verdict.refused.length === 0;
  return verdict;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function whyNot(v: RuleVerdict): string {
  const parts = [
    ...v.missing.map((m) => `no ${m.claim} (${m.type})`),
    ...v.refused.map((r) => `${r.claim} fails ${r.condition} (${r.type})`),
  ];
  return `rule ${v.rule}: ${parts.join(', ')}`;
}

/** The mapping's rules against the broker token's claims. */
export function judgeMapping(
  mapping: Mapping,
  claims: Claims,
  s: Pick<SigninSettings, 'claimPrefix' | 'clientId' | 'idpId' | 'protocol'>,
): Finding {
  const id = escapeLine(mapping.id);
  const verdicts = mapping.rules.map((rule, i) => judgeRule(rule, i, claims, s.claimPrefix));
  const facts: SigninFacts = { mapping: mapping.id, claim_prefix: s.claimPrefix.value, rules: verdicts };
  if (verdicts.length === 0) {
    return {
      status: 'fail',
      message: MAPPING.noRules(id, s.idpId ?? '', s.protocol),
      advice: MAPPING.giveRules(id),
      facts,
    };
  }
  const types = unique(verdicts.flatMap((v) => v.unknown));
  if (verdicts.every((v) => v.uses.length === 0)) {
    return {
      status: 'warn',
      message: MAPPING.noPrefixedType(id, escapeLine(s.claimPrefix.value), escapeLine(types.join(', ') || 'none')),
      advice: MAPPING.setClaimPrefix,
      facts,
    };
  }
  const matching = verdicts.filter((v) => v.matches);
  if (matching.length > 0) {
    const first = matching[0];
    const assumed = first.unknown.length ? MAPPING.assumedPresent(escapeLine(first.unknown.join(', '))) : '';
    const rules =
      matching.length === 1 ? MAPPING.rule(first.rule) : MAPPING.rules(matching.map((v) => v.rule).join(', '));
    return {
      status: 'ok',
      message: MAPPING.matches(
        id,
        rules,
        verdicts.length,
        matching.length === 1,
        escapeLine(first.uses.join(', ') || 'none'),
        assumed,
      ),
      facts,
    };
  }
  const missing = unique(verdicts.flatMap((v) => v.missing.map((m) => m.claim)));
  const refused = unique(verdicts.flatMap((v) => v.refused.map((r) => r.claim)));
  const advice = [
    missing.length ? MAPPING.addClaims(missing.map((c) => `"${escapeLine(c)}"`).join(', '), s.clientId ?? '', id) : '',
    refused.length ? MAPPING.checkValues(refused.map((c) => `"${escapeLine(c)}"`).join(', '), id) : '',
  ].filter(Boolean);
  return {
    status: 'fail',
    message: MAPPING.noRuleMatches(
      id,
      missing.length,
      escapeLine(missing.join(', ')),
      escapeLine(verdicts.map(whyNot).join('; ')),
    ),
    advice: advice.join(' '),
    facts: { ...facts, missing },
  };
}

/** Without the mapping: the claims mappings usually name. Absent ones are only a suspicion, so `sub` alone decides a warn. */
export function judgeCommonClaims(claims: Claims, why: string): Finding {
  const present = COMMON_CLAIMS.filter((c) => valuesOf(claims[c]).length > 0);
  const absent = COMMON_CLAIMS.filter((c) => !present.includes(c));
  const facts: SigninFacts = { mapping_read: false, claims_present: present, claims_absent: absent };
  const note = COMMON_CLAIMS_TEXT.notRead(why);
  if (!present.includes('sub') || (!present.includes('preferred_username') && !present.includes('email'))) {
    return {
      status: 'warn',
      message: COMMON_CLAIMS_TEXT.lacks(absent, note),
      advice: COMMON_CLAIMS_TEXT.addUserClaims,
      facts,
    };
  }
  return {
    status: 'ok',
    message: COMMON_CLAIMS_TEXT.carries(present, absent, note),
    facts,
  };
}

/** A broker token in `Authorization: Bearer` over 8 KiB is refused by ingress proxies before it reaches the identity service. */
export function judgeHeaderSize(brokerToken: string, claims: Claims | undefined): Finding | undefined {
  const bytes = Buffer.byteLength(`Bearer ${brokerToken}`);
  if (bytes <= HEADER_LIMIT) return undefined;
  const largest = Object.entries(claims ?? {})
    .map(([name, value]) => ({ name, bytes: Buffer.byteLength(JSON.stringify(value) ?? '') }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3);
  const names = largest.map((c) => `${escapeLine(c.name)} ${c.bytes} B`).join(', ');
  return {
    status: 'fail',
    message: HEADER_SIZE.tooLarge(bytes, HEADER_LIMIT, names),
    advice: HEADER_SIZE.makeSmaller,
    facts: { authorization_bytes: bytes, limit: HEADER_LIMIT, largest_claims: largest },
  };
}

/** The realm's issuer: a subject token from it is the broker's own, the only kind the standard exchange takes. */
function realmIssuer(s: Pick<SigninSettings, 'brokerUrl' | 'realm'>): string | undefined {
  return s.brokerUrl && s.realm ? `${s.brokerUrl}/realms/${s.realm}` : undefined;
}

export interface AudienceFinding {
  client: string;
  aud: string[];
  azp?: string;
  /** Issued by the broker realm itself: the standard ("V2") exchange applies, and refuses it. */
  internal: boolean;
  message: string;
  advice: string;
}

/**
 * Before the exchange: Keycloak's standard token exchange ("V2") takes only the realm's own tokens, and
 * only when the exchanging client is in their `aud` ("Client is not within the token audience"). With
 * `subject_issuer` (legacy exchange of an external token) the rule does not apply.
 */
export function subjectAudience(
  subjectToken: string,
  s: Pick<SigninSettings, 'clientId' | 'subjectIssuer' | 'brokerUrl' | 'realm'>,
): AudienceFinding | undefined {
  const claims = jwtClaims(subjectToken);
  if (!claims || !s.clientId || s.subjectIssuer) return undefined;
  const aud = valuesOf(claims.aud);
  if (aud.includes(s.clientId)) return undefined;
  const azp = typeof claims.azp === 'string' ? claims.azp : undefined;
  const internal = typeof claims.iss === 'string' && claims.iss.replace(/\/+$/, '') === realmIssuer(s);
  const client = escapeLine(s.clientId);
  const had = SUBJECT_AUDIENCE.had(escapeLine(aud.join(',') || 'none'), azp ? escapeLine(azp) : undefined);
  return {
    client: s.clientId,
    aud,
    azp,
    internal,
    message: SUBJECT_AUDIENCE.excludesClient(had, client),
    advice: SUBJECT_AUDIENCE.addClient(client, azp ? escapeLine(azp) : undefined),
  };
}

export interface ClaimsInput {
  brokerToken: string;
  subjectToken?: string;
}

/** The whole check: the findings combined, the worst status first. */
export async function checkClaims(env: StepEnv, input: ClaimsInput): Promise<Finding> {
  const s = env.settings;
  const claims = jwtClaims(input.brokerToken);
  const findings: Finding[] = [];
  const size = judgeHeaderSize(input.brokerToken, claims);
  if (size) findings.push(size);
  if (!claims) {
    findings.push({ status: 'warn', message: COMMON_CLAIMS_TEXT.notJwt, advice: COMMON_CLAIMS_TEXT.issueJwt });
  } else {
    findings.push(await mappingFinding(env, claims));
  }
  const audience = input.subjectToken ? subjectAudience(input.subjectToken, s) : undefined;
  if (audience?.internal) findings.push({ status: 'warn', message: audience.message, advice: audience.advice });
  const rank: Record<Status, number> = { fail: 0, warn: 1, ok: 2 };
  findings.sort((a, b) => rank[a.status] - rank[b.status]);
  const status = findings[0].status;
  const facts: Record<string, unknown> = {
    authorization_bytes: Buffer.byteLength(`Bearer ${input.brokerToken}`),
    claims: claims ? Object.keys(claims) : [],
    ...Object.fromEntries(findings.flatMap((f) => Object.entries(f.facts ?? {}))),
    ...(audience
      ? {
          subject_audience: {
            client: audience.client,
            aud: audience.aud,
            azp: audience.azp,
            internal: audience.internal,
          },
        }
      : {}),
  };
  return {
    status,
    message: findings.map((f) => f.message).join(' '),
    advice:
      findings
        .map((f) => f.advice)
        .filter(Boolean)
        .join(' ') || undefined,
    facts,
  };
}

async function mappingFinding(env: StepEnv, claims: Claims): Promise<Finding> {
  const s = env.settings;
  const credentials = adminCredentialState(s.admin);
  if (credentials.kind === 'none') return judgeCommonClaims(claims, 'no admin credentials');
  if (credentials.kind === 'incomplete') {
    const found = judgeCommonClaims(claims, COMMON_CLAIMS_TEXT.adminIncomplete(credentials.lacking));
    return {
      ...found,
      status: 'warn',
      advice: [COMMON_CLAIMS_TEXT.setToReadMapping(credentials.lacking), found.advice].filter(Boolean).join(' '),
    };
  }
  if (!s.idpId) return judgeCommonClaims(claims, 'idp_id is not set');
  let mapping: Mapping;
  try {
    mapping = await readMapping(env, await adminToken(env));
  } catch (error) {
    if (!(error instanceof StepError || error instanceof HttpError)) throw error;
    const found = judgeCommonClaims(claims, COMMON_CLAIMS_TEXT.readingFailed(error.message.replace(/\.$/, '')));
    return {
      ...found,
      status: found.status === 'ok' ? 'warn' : found.status,
      advice: [error.advice, found.advice].filter(Boolean).join(' '),
      facts: { ...found.facts, ...(error instanceof StepError ? error.facts : {}) },
    };
  }
  return judgeMapping(mapping, claims, s);
}
