/**
 * The two naming profiles of the inventory. cloudgate works in the neutral names internally; an
 * inventory written with the platform's own names (`openstack_helm_ingress_*`, `venafi`, `route53`, ...)
 * is translated when read and translated back when written. docs/platform.md lists the pairs.
 */
import { UsageError } from '../errors.js';
import { NAMING_PROFILES, type NamingProfile } from '../render/names.js';
import { VARIABLES, variable } from './variables.js';
import { isOneOf } from '../records.js';

/** Neutral value → the platform's, for the variables whose values carry the naming words. */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  cluster_issuer_type: { commercialca: 'venafi' },
  cluster_issuer_acme_solver: { clouddnsa: 'azuredns', clouddnsb: 'route53', dnsc: 'cloudflare', dnsd: 'godaddy', dnse: 'infoblox' },
  cluster_issuer_acme_clouddnsb_auth: { clusteroidc: 'kubernetes' },
};

/** The platform's name of a neutral variable name (the table's `platformName` column). */
export function platformName(neutral: string): string {
  return variable(neutral)?.platformName ?? neutral;
}

const TO_NEUTRAL = new Map(VARIABLES.map((row) => [platformName(row.name), row.name]));
const PLATFORM_ONLY = new Set([...TO_NEUTRAL.keys()].filter((name) => !TO_NEUTRAL.has(name) || TO_NEUTRAL.get(name) !== name));
const NEUTRAL_ONLY = new Set(VARIABLES.map((row) => row.name).filter((name) => platformName(name) !== name));

/**
 * Which names an inventory's keys use; `undefined` when they say nothing (only names both share). Keys
 * of both: the side with more of them, the platform's on a tie (what the real deployment reads); the
 * keys of the other side are then findings (namingFindings), the file is not switched wholesale.
 */
export function detectProfile(keys: string[], _source?: string, values?: Record<string, unknown>): NamingProfile | undefined {
  const words = values ? Object.entries(VALUE_WORDS).map(([name, pairs]) => {
    const v = values[name] ?? values[platformName(name)];
    return typeof v !== 'string' ? undefined : Object.values(pairs).includes(v) ? 'platform' : v in pairs ? 'spec' : undefined;
  }) : [];
  const platform = keys.filter((k) => PLATFORM_ONLY.has(k)).length + words.filter((w) => w === 'platform').length;
  const neutral = keys.filter((k) => NEUTRAL_ONLY.has(k)).length + words.filter((w) => w === 'spec').length;
  if (platform === 0 && neutral === 0) return undefined;
  return platform >= neutral ? 'platform' : 'spec';
}

/** The product each neutral word stands for, shown beside it (`clouddnsb (Route 53)`). */
export const PRODUCTS: Record<string, string> = {
  certmgr: 'cert-manager', commercialca: 'Venafi', clouddnsa: 'Azure DNS', clouddnsb: 'Route 53',
  dnsc: 'Cloudflare', dnsd: 'GoDaddy', dnse: 'Infoblox', clusteroidc: 'Kubernetes service-account tokens',
};

/** A neutral word with its product: `clouddnsb (Route 53)`. */
export function withProduct(word: string): string {
  return PRODUCTS[word] ? `${word} (${PRODUCTS[word]})` : word;
}

export interface NamingFinding {
  rule: 'naming';
  severity: 'error';
  variable: string;
  message: string;
  advice: string;
}

/**
 * What an inventory written for one set of names holds in the other: a variable the deployment does not
 * read (it is ignored, and its setting lost), or a choosing value in the other words (the role has no
 * task for it and stops). `foreign`: those choosing variables, by their neutral names.
 */
export function namingFindings(values: Record<string, unknown>, profile: NamingProfile): { findings: NamingFinding[]; foreign: Set<string>; ignored: Set<string> } {
  const findings: NamingFinding[] = [];
  const foreign = new Set<string>();
  const ignored = new Set<string>();
  const reads = profile === 'platform' ? "the platform's own names" : 'the neutral names';
  for (const key of Object.keys(values)) {
    const other = profile === 'platform' ? (NEUTRAL_ONLY.has(key) ? platformName(key) : undefined) : (PLATFORM_ONLY.has(key) ? TO_NEUTRAL.get(key) : undefined);
    if (!other) continue;
    ignored.add(key);
    findings.push({
      rule: 'naming', severity: 'error', variable: key,
      message: `The deployment reads ${reads}: it does not read ${key}${profile === 'platform' ? ", cloudgate's neutral name" : ", the platform's name"}; its name is ${other}. The value is ignored.`,
      advice: key in values && other in values ? `Remove ${key} (${other} is set too).` : `Rename ${key} to ${other}.`,
    });
  }
  for (const [neutral, pairs] of Object.entries(VALUE_WORDS)) {
    const key = profile === 'platform' ? platformName(neutral) : neutral;
    const v = values[key];
    if (typeof v !== 'string') continue;
    const wrong = profile === 'platform' ? (v in pairs ? pairs[v] : undefined) : Object.entries(pairs).find(([, p]) => p === v)?.[0];
    if (!wrong) continue;
    foreign.add(neutral);
    const word = profile === 'platform' ? withProduct(v) : v;
    findings.push({
      rule: 'naming', severity: 'error', variable: key,
      message: `${key} is "${v}", ${profile === 'platform' ? `cloudgate's neutral word ${word}` : "the platform's word"}: the deployment reads ${reads} and does not know that word (no task for it, or the role's check refuses it), so it stops there.`,
      advice: `Write ${key}: ${wrong}`,
    });
  }
  return { findings, foreign, ignored };
}

/** Values keyed by the platform's names → the same values keyed by the neutral names. */
export function toNeutral(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const name = TO_NEUTRAL.get(key) ?? key;
    out[name] = translateValue(name, value, 'toNeutral');
  }
  return out;
}

/** Neutral names → the platform's names (for writing an inventory that uses them). */
export function toPlatform(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) out[platformName(key)] = translateValue(key, value, 'toPlatform');
  return out;
}

/** A neutral name as the inventory spells it under a profile (for messages and removals). */
export function spelled(neutral: string, profile: NamingProfile): string {
  return profile === 'platform' ? platformName(neutral) : neutral;
}

function translateValue(neutralName: string, value: unknown, direction: 'toNeutral' | 'toPlatform'): unknown {
  const words = VALUE_WORDS[neutralName];
  if (!words || typeof value !== 'string') return value;
  if (direction === 'toPlatform') return words[value] ?? value;
  const back = Object.entries(words).find(([, platform]) => platform === value);
  return back ? back[0] : value;
}

const NEUTRAL_BY_LENGTH = [...NEUTRAL_ONLY].sort((a, b) => b.length - a.length);

/**
 * The platform's word for each neutral word that is not a variable name: the values of the choosing
 * variables (`dnsc` → `cloudflare`, `clusteroidc` → `kubernetes`) and the words of object names
 * (`certmgr-issuer-clouddnsb-credentials` → `cert-manager-issuer-route53-credentials`).
 */
const PLATFORM_WORDS: Record<string, string> = {
  certmgr: 'cert-manager', commercialca: 'venafi', clouddnsa: 'azuredns', clouddnsb: 'route53',
  dnsc: 'cloudflare', dnsd: 'godaddy', dnse: 'infoblox', clusteroidc: 'kubernetes',
};
// A whole word: not inside a variable name (`_`) or a longer word; any case ("Commercialca auth").
const PLATFORM_WORD = new RegExp(`(?<![A-Za-z0-9_])(${Object.keys(PLATFORM_WORDS).join('|')})(?![A-Za-z0-9_])`, 'gi');

/** A text written in the neutral words (variable names, their values, object names), as the operator's inventory spells them. */
export function respell(text: string, profile: NamingProfile): string {
  if (profile !== 'platform') return text;
  const names = NEUTRAL_BY_LENGTH.reduce((out, name) => out.split(name).join(platformName(name)), text);
  return names.replace(PLATFORM_WORD, (word) => {
    const platform = PLATFORM_WORDS[word.toLowerCase()];
    return word[0] === word[0].toUpperCase() ? platform[0].toUpperCase() + platform.slice(1) : platform;
  });
}

/**
 * The names the deployment reads: `--names` when given (an inventory written mostly in the other names
 * is then a usage error), else what the inventory's keys say, else the neutral names. Keys of the other
 * set in an inventory are findings (namingFindings), not an error here.
 */
export function resolveProfile(asked: unknown, keys: string[], source: string, values?: Record<string, unknown>): NamingProfile {
  if (asked !== undefined && !isOneOf(NAMING_PROFILES, asked)) {
    throw new UsageError(`--names must be one of ${NAMING_PROFILES.join(', ')}, not "${String(asked)}".`);
  }
  const detected = detectProfile(keys, source, values);
  if (asked !== undefined && detected !== undefined && asked !== detected) {
    throw new UsageError(`--names ${String(asked)} was given, but ${source} is written in the ${detected === 'platform' ? "platform's" : "neutral"} variable names.`,
      `Drop --names (it is detected from the inventory) or give --names ${detected}.`);
  }
  return asked ?? detected ?? 'spec';
}

/** An inventory's values as cloudgate works on them, and the names it spells them in. */
export interface NamesView {
  /** Keyed by the neutral names. */
  values: Record<string, unknown>;
  profile: NamingProfile;
  /**
   * Whether the names are known (given with --names, or told by a key only one set has). False: the
   * inventory uses only names both sets share (an http01, rfc2136, ca or self-signed inventory), and
   * `profile` is the neutral default; the objects it makes may carry either set's names.
   */
  stated: boolean;
  /** Variables of the other set of names, and choosing values in its words (namingFindings). */
  naming: NamingFinding[];
  /** Choosing variables (neutral names) whose value is in the other set's words: the role has no task for it. */
  foreign: Set<string>;
}

/**
 * Values as cloudgate works on them (neutral names), and the profile the deployment reads. Variables of
 * the other set are left out (the deployment ignores them) and reported in `naming`.
 */
export function neutralView(values: Record<string, unknown>, source: string, asked?: unknown): NamesView {
  const profile = resolveProfile(asked, Object.keys(values), source, values);
  const stated = asked !== undefined || detectProfile(Object.keys(values), source, values) !== undefined;
  const { findings, foreign, ignored } = namingFindings(values, profile);
  const read = Object.fromEntries(Object.entries(values).filter(([k]) => !ignored.has(k)));
  return { profile, values: profile === 'platform' ? toNeutral(read) : read, stated, naming: findings, foreign };
}

/** What the review says about the names in use. */
export function profileLine(profile: NamingProfile): string {
  return profile === 'platform'
    ? "Variable names: the platform's own (openstack_helm_ingress_*, venafi, azuredns, route53, cloudflare, godaddy, infoblox)."
    : `Variable names: the neutral ones (cloud_helm_ingress_*, ${withProduct('clouddnsb')}, ...), not the platform's own.`;
}

/** A finding written with neutral names, as the operator's inventory spells them. */
export function respellFinding<T extends { message: string; advice?: string; variable?: string }>(finding: T, profile: NamingProfile): T {
  if (profile !== 'platform') return finding;
  return {
    ...finding,
    message: respell(finding.message, profile),
    ...(finding.advice !== undefined ? { advice: respell(finding.advice, profile) } : {}),
    ...(finding.variable !== undefined ? { variable: respell(finding.variable, profile) } : {}),
  };
}

/**
 * A value of a neutral variable as the platform writes it (`commercialca` → `venafi`, ...); the neutral
 * default of a name the role gives (`certmgr-issuer-ca`) is the platform's default (`cert-manager-issuer-ca`).
 */
export function platformValue(neutralName: string, value: unknown): unknown {
  const row = variable(neutralName);
  if (row?.platformDefault !== undefined && value === row.default) return row.platformDefault;
  return translateValue(neutralName, value, 'toPlatform');
}

/** The neutral name of a platform variable name (other names unchanged). */
export function neutralName(name: string): string {
  return TO_NEUTRAL.get(name) ?? name;
}
