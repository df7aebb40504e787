/** What every provider check of `acme.dns-credentials` shares: its inputs, credentials, endpoints and answers. */
import { randomBytes } from 'node:crypto';
import type { CheckResult } from '../../../doctor/types.js';
import type { DoctorInput } from '../../../doctor/input.js';
import type { RunServices } from '../../../doctor/services.js';
import { setting } from '../../../config/settings.js';
import type { HttpClient, HttpResponse } from '../../../net/http.js';
import { isJinja, isTagged } from '../../../inventory/ansible-tagged.js';
import { escapeLine } from '../../../escape.js';
import { redact, registerSecret } from '../../../secrets.js';
import { variable } from '../../../config/variables.js';
import { PROVIDER } from '../messages/providers.js';

/** The record `--probe-update` adds and removes: one TXT record under the zone, never anything else. */
export const PROBE_LABEL = '_cloudgate-probe';

export interface ProviderRun {
  values: Record<string, unknown>;
  input: DoctorInput;
  http: HttpClient;
  signal: AbortSignal;
  /** `--probe-update`: add and remove one TXT record. Without it nothing is written. */
  probeUpdate: boolean;
  /** The name whose zone receives the challenges (the wildcard domain, or --domain); unset when neither is given. */
  domain?: string;
  services: RunServices;
}

/**
 * What --verbose and --json show of acme.dns-credentials (`details` in --json): the provider, what its
 * API said, and the record --probe-update wrote and removed. Never a credential.
 */
export interface DnsFacts {
  provider: string;
  auth?: string;
  region?: string;
  /** route53: the caller's identity and zone. */
  arn?: string;
  account?: string;
  hostedZoneId?: string;
  /** azuredns. */
  tenant?: string;
  clientId?: string;
  subscription?: string;
  resourceGroup?: string;
  recordSets?: unknown;
  nameServers?: unknown;
  error?: unknown;
  /** infoblox. */
  host?: string;
  view?: string;
  user?: string;
  views?: string[];
  /** rfc2136. */
  nameserver?: string;
  keyName?: string;
  algorithm?: string;
  rcode?: string;
  tsigError?: string;
  tried?: string[];
  /** The zone found and the provider's answer. */
  zone?: string;
  zoneId?: string;
  domain?: string;
  domainStatus?: string;
  tokenStatus?: string;
  note?: string;
  status?: number;
  code?: string;
  action?: string;
  errorCodes?: number[];
  /** The TXT record --probe-update added and removed. */
  probe?: string;
}

/** A credential the check cannot use, with why (unset, vaulted, templated). */
export class Unusable extends Error {}

/**
 * A value of the inventory, or its override in CLOUDGATE_<NAME> (CLOUDGATE_<NAME>_FILE, or the config's
 * `acme:` section) when the inventory's is vaulted or templated; the override may use the name's neutral
 * alias too. Secrets are registered before use.
 */
export function credential(
  run: ProviderRun,
  name: string,
  options: { secret?: boolean; optional?: boolean } = {},
): string {
  const alias = variable(name)?.alias;
  const override =
    setting(run.input, 'acme', name, { secret: options.secret }) ??
    (alias ? setting(run.input, 'acme', alias, { secret: options.secret }) : undefined);
  const raw = run.values[name];
  let value: string | undefined;
  if (override !== undefined && override !== '') value = override.trim();
  else if (
    (isTagged(raw) && raw.tag === '!vault') ||
    (typeof raw === 'string' && raw.trimStart().startsWith('$ANSIBLE_VAULT;'))
  ) {
    throw new Unusable(PROVIDER.vaulted(name));
  } else if (isJinja(raw)) {
    throw new Unusable(PROVIDER.templated(name, escapeLine(String(raw)).slice(0, 60)));
  } else if (isTagged(raw)) value = raw.text.trim();
  else if (typeof raw === 'string' || typeof raw === 'number') value = String(raw).trim();
  if (options.secret) registerSecret(value);
  if (!value) {
    if (options.optional) return '';
    throw new Unusable(PROVIDER.unset(name));
  }
  return value;
}

/** CLOUDGATE_<PROVIDER>_ENDPOINT (tests, private clouds) or the provider's public API, without a trailing slash. */
export function endpoint(run: ProviderRun, variable: string, fallback: string): string {
  const value = run.input.env[variable]?.trim();
  return (value || fallback).replace(/\/+$/, '');
}

/** Server text (error bodies, names) shortened, redacted and made safe to print on one line. */
export function foreign(text: unknown, max = 200): string {
  const line = escapeLine(redact(String(text ?? '')).trim());
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The domain and each parent down to two labels: where a challenge's zone may start. */
export function zoneCandidates(domain: string): string[] {
  const labels = domain.replace(/^\*\./, '').replace(/\.$/, '').toLowerCase().split('.').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out.length ? out : labels.length ? [labels.join('.')] : [];
}

/** A fresh value for the probe record, so that removing it can never touch a record someone else made. */
export function probeValue(): string {
  return `cloudgate-probe-${randomBytes(6).toString('hex')}`;
}

export function fail(message: string, advice: string, facts?: DnsFacts): CheckResult<DnsFacts> {
  return { status: 'fail', message, advice, ...(facts ? { facts } : {}) };
}

/** "the provider answered 500: <body>" for answers no rule explains. */
export function unexpected(what: string, res: HttpResponse, advice: string, facts: DnsFacts): CheckResult<DnsFacts> {
  return fail(PROVIDER.unexpected(what, res.status, res.body ? foreign(res.body, 160) : undefined), advice, {
    ...facts,
    status: res.status,
  });
}

/** Parses JSON without throwing: undefined for a body that is not JSON. */
export function jsonOf<T>(res: HttpResponse): T | undefined {
  try {
    // The shape the provider documents, as the caller names it. Nothing checks it: callers read it with
    // `?.` and escape what they quote (foreign()).
    return JSON.parse(res.body) as T;
  } catch {
    return undefined;
  }
}

export function probeNote(run: ProviderRun): string {
  return run.probeUpdate ? '' : PROVIDER.nothingWritten;
}
