/**
 * The two naming profiles of the inventory. cloudgate works in the neutral names internally; an
 * inventory written with the platform's own names (`openstack_helm_ingress_*`, `venafi`, `route53`, ...)
 * is translated when read and translated back when written. docs/platform.md lists the pairs.
 */
import { UsageError } from '../errors.js';
import type { NamingProfile } from '../render/names.js';
import { VARIABLES } from './variables.js';

/** Neutral word → the platform's word, in variable names and in the values of the choosing variables. */
const NAME_WORDS: [RegExp, string][] = [
  [/^cloud_helm_ingress_/, 'openstack_helm_ingress_'],
  [/^platform_ingress_annotations$/, 'atmosphere_ingress_annotations'],
  [/_commercialca_/, '_venafi_'],
  [/_clouddnsa_/, '_azuredns_'],
  [/_clouddnsb_/, '_route53_'],
  [/_dnsc_/, '_cloudflare_'],
  [/_dnsd_/, '_godaddy_'],
  [/_dnse_/, '_infoblox_'],
];

const VALUE_WORDS: Record<string, Record<string, string>> = {
  cluster_issuer_type: { commercialca: 'venafi' },
  cluster_issuer_acme_solver: { clouddnsa: 'azuredns', clouddnsb: 'route53', dnsc: 'cloudflare', dnsd: 'godaddy', dnse: 'infoblox' },
  cluster_issuer_acme_clouddnsb_auth: { clusteroidc: 'kubernetes' },
  cluster_issuer_acme_clouddnsb_secret_name: { 'certmgr-issuer-clouddnsb-credentials': 'cert-manager-issuer-route53-credentials' },
  cluster_issuer_acme_clouddnsb_service_account_name: { 'certmgr-clouddnsb': 'cert-manager-route53' },
};

/** The platform's name of a neutral variable name (the table's second name column). */
export function platformName(neutral: string): string {
  return NAME_WORDS.reduce((name, [from, to]) => name.replace(from, to), neutral);
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

/** A message written with neutral variable names, as the operator's inventory spells them. */
export function respell(text: string, profile: NamingProfile): string {
  if (profile !== 'platform') return text;
  return NEUTRAL_BY_LENGTH.reduce((out, name) => out.split(name).join(platformName(name)), text);
}
