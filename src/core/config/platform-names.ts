/**
 * The two naming profiles of the inventory. cloudgate works in the neutral names internally; an
 * inventory written with the platform's own names (`openstack_helm_ingress_*`, `venafi`, `route53`, ...)
 * is translated when read and translated back when written. docs/platform.md lists the pairs.
 */
import { UsageError } from '../errors.js';
import { NAMING_PROFILES, type NamingProfile } from '../render/names.js';
import { VARIABLES, variable } from './variables.js';

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

/** Which profile an inventory's keys use; `undefined` when they say nothing (only shared names). Mixed: an error. */
export function detectProfile(keys: string[], source: string): NamingProfile | undefined {
  const platform = keys.filter((k) => PLATFORM_ONLY.has(k));
  const neutral = keys.filter((k) => NEUTRAL_ONLY.has(k));
  if (platform.length > 0 && neutral.length > 0) {
    throw new UsageError(`${source} mixes the platform's variable names (${platform[0]}) with the neutral ones (${neutral[0]}).`,
      `Use one set: rename ${neutral[0]} to ${platformName(neutral[0])}, or ${platform[0]} to ${TO_NEUTRAL.get(platform[0])}.`);
  }
  if (platform.length > 0) return 'platform';
  if (neutral.length > 0) return 'spec';
  return undefined;
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
    const platform = PLATFORM_WORDS[word.toLowerCase()]!;
    return word[0] === word[0]!.toUpperCase() ? platform[0]!.toUpperCase() + platform.slice(1) : platform;
  });
}

/**
 * The naming profile of an inventory: `--names` when given (it must match what the inventory uses),
 * else what its keys say, else the neutral names. Mixing both in one inventory is an error.
 */
export function resolveProfile(asked: unknown, keys: string[], source: string): NamingProfile {
  if (asked !== undefined && !NAMING_PROFILES.includes(asked as NamingProfile)) {
    throw new UsageError(`--names must be one of ${NAMING_PROFILES.join(', ')}, not "${String(asked)}".`);
  }
  const detected = detectProfile(keys, source);
  if (asked !== undefined && detected !== undefined && asked !== detected) {
    throw new UsageError(`--names ${String(asked)} was given, but ${source} uses the ${detected === 'platform' ? "platform's" : 'neutral'} variable names.`,
      `Drop --names (it is detected from the inventory) or give --names ${detected}.`);
  }
  return (asked as NamingProfile | undefined) ?? detected ?? 'spec';
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
}

/** Values as cloudgate works on them (neutral names), and the profile the inventory spells them in. */
export function neutralView(values: Record<string, unknown>, source: string, asked?: unknown): NamesView {
  const profile = resolveProfile(asked, Object.keys(values), source);
  const stated = asked !== undefined || detectProfile(Object.keys(values), source) !== undefined;
  return { profile, values: profile === 'platform' ? toNeutral(values) : values, stated };
}

/** What the review says about the names in use. */
export function profileLine(profile: NamingProfile): string {
  return profile === 'platform'
    ? "Variable names: the platform's own (openstack_helm_ingress_*, venafi, azuredns, route53, cloudflare, godaddy, infoblox)."
    : 'Variable names: the neutral ones (cloud_helm_ingress_*, commercialca, clouddnsa, clouddnsb, dnsc, dnsd, dnse).';
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
