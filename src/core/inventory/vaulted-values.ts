/**
 * Vaulted inventory values around the checks and the write. The checks see plaintext where a vault
 * password opens a value (and skip, with an info "not checked (vaulted)", what stays vaulted); the
 * write sees envelopes: with a password, every secret variable is written as `!vault`, and a value
 * that did not change keeps its envelope byte for byte.
 */
import { isTagged, isVaulted, type AnsibleTagged } from './ansible-tagged.js';
import type { Finding } from '../findings.js';
import { registerSecret } from '../secrets.js';
import { isSet } from '../config/validate.js';
import type { VaultKeyring } from './vault-options.js';
import { VARIABLES } from '../config/variables.js';
import { rowOf } from '../config/neutral-names.js';
import { messageOf } from '../errors.js';

const PASSWORD_OPTIONS = '--vault-password-file FILE, --vault-id LABEL@FILE or ANSIBLE_VAULT_PASSWORD_FILE';

export interface OpenedValues {
  /** The values with every vaulted value a password opens replaced by its plaintext. */
  values: Record<string, unknown>;
  /** Names whose value stays vaulted (no password, or none opens it): their checks are skipped. */
  unchecked: Set<string>;
  /** The envelope of each value that was opened. */
  envelopes: Map<string, AnsibleTagged>;
  findings: Finding[];
}

/**
 * Opens the vaulted top-level values cloudgate reads (its variables, in either spelling) with the
 * keyring; plaintexts are registered as secrets. A vaulted value of any other variable (a database
 * password of another role) is never decrypted, nor reported: it stays the envelope it is, which is
 * also how it is written back. Decrypting costs a PBKDF2 of 10,000 rounds per value: an inventory
 * with thousands of them would make every run (every exporter scrape cycle) pay for values it never reads.
 */
export function openVaulted(values: Record<string, unknown>, keyring: VaultKeyring | undefined): OpenedValues {
  const opened: OpenedValues = { values: { ...values }, unchecked: new Set(), envelopes: new Map(), findings: [] };
  for (const [name, value] of Object.entries(values)) {
    if (!isVaulted(value) || !rowOf(name)) continue;
    if (!keyring) {
      opened.unchecked.add(name);
      opened.findings.push({
        rule: 'vaulted',
        severity: 'info',
        variable: name,
        message: `${name}: not checked (vaulted).`,
        advice: `Give the vault password (${PASSWORD_OPTIONS}) to check it.`,
      });
      continue;
    }
    try {
      opened.values[name] = keyring.open(value.text);
      opened.envelopes.set(name, value);
    } catch (error) {
      opened.unchecked.add(name);
      opened.findings.push({
        rule: 'vault-decrypt',
        severity: 'error',
        variable: name,
        message: `${name} is vaulted and cannot be decrypted: ${messageOf(error)}.`,
        advice: `Give the vault password it was encrypted with (${PASSWORD_OPTIONS}); check it with: ansible-vault view, or ansible-vault decrypt --output -.`,
      });
    }
  }
  return opened;
}

/** Drops the problems found in values that could not be read because they stay vaulted (info findings stay). */
export function withoutUnchecked(findings: Finding[], unchecked: Set<string>): Finding[] {
  return findings.filter((f) => !f.variable || !unchecked.has(f.variable));
}

export interface SealInput {
  /** The variables the plan sets, as plaintext. */
  set: Record<string, unknown>;
  /** Every value of the file after the change, as plaintext where known. */
  merged: Record<string, unknown>;
  /** The current file's values, opened. */
  current: OpenedValues;
}

/**
 * What to write instead of `set` when a vault password is given: every set secret variable (and every
 * value that was vaulted) as a new `!vault` value (an `!unsafe` one too: it stays literal), an unchanged one as its old envelope, and the plain
 * secrets already in the file sealed too, so that no plaintext secret stays in a file written with a password.
 */
export function sealValues(
  { set, merged, current }: SealInput,
  keyring: VaultKeyring,
): { set: Record<string, unknown>; sealed: string[] } {
  const out: Record<string, unknown> = { ...set };
  const sealed: string[] = [];
  for (const [name, value] of Object.entries(merged)) {
    const mustSeal = rowOf(name)?.secret === true || current.envelopes.has(name);
    const text = plainTextOf(value);
    if (!mustSeal || text === undefined || !isSet(text)) continue;
    const envelope = current.envelopes.get(name);
    if (envelope && current.values[name] === text) {
      if (name in out) out[name] = envelope;
      continue;
    }
    registerSecret(text); // a vaulted value is secret, whatever its variable; its plaintext is masked in the diff
    out[name] = keyring.seal(text);
    sealed.push(name);
  }
  return { set: out, sealed };
}

/**
 * The plain text of a value that can be sealed: a string, or the literal text of an `!unsafe` value
 * (vaulting keeps it literal: Ansible never templates a vaulted value). Undefined for anything else.
 */
export function plainTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isTagged(value) && value.tag === '!unsafe') return value.text;
  return undefined;
}

/** The sealed variables that were plain text in the inventory. */
export function plainSecretsSealed(sealed: string[], current: OpenedValues): string[] {
  return sealed.filter(
    (name) => isSet(plainTextOf(current.values[name])) && !current.envelopes.has(name) && !current.unchecked.has(name),
  );
}

/** Findings about the write: what is sealed, or the plain secrets written beside vaulted values. */
export function vaultWriteFindings(
  sealed: string[],
  keyring: VaultKeyring | undefined,
  set: Record<string, unknown>,
  current: OpenedValues,
): Finding[] {
  if (keyring) {
    if (sealed.length === 0) return [];
    const label = keyring.writer.label === 'default' ? '' : ` (vault id ${keyring.writer.label})`;
    const wasPlain = plainSecretsSealed(sealed, current);
    const unsafe = sealed.filter((name) => isTagged(name in set ? set[name] : current.values[name]));
    return [
      { rule: 'vault-write', severity: 'info', message: `Written vaulted${label}: ${sealed.join(', ')}.` },
      ...unsafe.map((name): Finding => ({
        rule: 'vault-unsafe',
        severity: 'info',
        variable: name,
        message: `${name} is !unsafe: it is written vaulted and stays literal (Ansible never templates a vaulted value).`,
      })),
      ...(wasPlain.length
        ? [
            {
              rule: 'vault-plain-backup',
              severity: 'warning' as const,
              variable: wasPlain[0],
              message: `${wasPlain.join(', ')} ${wasPlain.length > 1 ? 'were' : 'was'} plain text in the inventory: the backup of its previous version is written with ${wasPlain.length > 1 ? 'them' : 'it'} vaulted too, but older copies (earlier .bak files, other copies) still hold ${wasPlain.length > 1 ? 'them' : 'it'} unencrypted.`,
              advice:
                'Delete older backups of the inventory (shred -u FILE), and change the secret if the old file was ever shared.',
            },
          ]
        : []),
    ];
  }
  const keepsVault = current.unchecked.size > 0 || current.envelopes.size > 0;
  const plain = VARIABLES.filter((row) => row.secret && isSet(plainTextOf(set[row.name]))).map((row) => row.name);
  if (!keepsVault || plain.length === 0) return [];
  return [
    {
      rule: 'vault-not-used',
      severity: 'warning',
      variable: plain[0],
      message: `The inventory keeps values in Ansible Vault, but ${plain.join(', ')} would be written as plain text.`,
      advice: `Give the vault password (${PASSWORD_OPTIONS}) to write them vaulted.`,
    },
  ];
}
