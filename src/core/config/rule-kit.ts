/** What every rule of the certificate variables shares: the finding shape, what counts as set, and a value known only at deploy time. */
import type { Finding, Severity } from '../findings.js';

export const finding = (
  rule: string,
  severity: Severity,
  variable: string | undefined,
  message: string,
  advice?: string,
): Finding => ({ rule, severity, ...(variable ? { variable } : {}), message, ...(advice ? { advice } : {}) });

/** Whether a value counts as set (YAML `~`, empty strings and empty maps count as unset; a date or a set counts as set). */
export function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (isPlainMap(value)) return Object.keys(value).length > 0;
  return true;
}

/** A scalar as the rules read it: text trimmed, a number as written; anything else undefined. */
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

export const isPlainMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Stands for a value known only when Ansible runs (vaulted, or a Jinja expression): set, never checked. */
class NotChecked {}
export const NOT_CHECKED = new NotChecked();

/** The variable the platform passes unchanged into a base64 field of the issuer (cert-manager's `caBundle`). */
export const BASE64_BUNDLE = 'cluster_issuer_venafi_tpp_ca_bundle';

/** The TPP bundle written as the issuer wants it: base64 of a PEM bundle. */
export function isEncodedBundle(name: string, value: string): boolean {
  if (name !== BASE64_BUNDLE || !/^[A-Za-z0-9+/\s]+=*\s*$/.test(value)) return false;
  return Buffer.from(value.replace(/\s/g, ''), 'base64').toString('latin1').includes('-----BEGIN CERTIFICATE-----');
}
