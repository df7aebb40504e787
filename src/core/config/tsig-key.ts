/**
 * The TSIG key of the rfc2136 solver. `tsig-keygen NAME` prints a BIND key statement,
 * `key "NAME" { algorithm hmac-sha256; secret "BASE64"; };`, and operators give that file as the
 * secret (`tsig_secret_key: file:tsig.key`). The platform wants only the base64 secret, plus the key
 * name and algorithm in their own variables: a key file is therefore read for all three, and a key
 * name or algorithm that disagrees with the file is an error (the server would answer BADKEY).
 */
import { UsageError } from '../errors.js';
import { isJinja, isTagged } from '../inventory/ansible-tagged.js';
import type { Finding } from '../findings.js';

export const SECRET = 'cluster_issuer_acme_rfc2136_tsig_secret_key';
export const KEY_NAME = 'cluster_issuer_acme_rfc2136_tsig_key_name';
export const ALGORITHM = 'cluster_issuer_acme_rfc2136_tsig_algorithm';

export interface BindKey {
  name: string;
  /** The platform's name of the algorithm (HMACSHA256), or the file's own when the platform has none. */
  algorithm: string;
  secret: string;
  /** The file it was read from. */
  file: string;
}

const FROM_BIND: Record<string, string> = {
  'hmac-md5': 'HMACMD5',
  'hmac-md5.sig-alg.reg.int': 'HMACMD5',
  'hmac-sha1': 'HMACSHA1',
  'hmac-sha256': 'HMACSHA256',
  'hmac-sha512': 'HMACSHA512',
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isBase64(text: string): boolean {
  return text.length > 0 && BASE64.test(text);
}

/** Whether the text is a BIND `key` statement rather than a bare secret. */
export function looksLikeKeyStatement(text: string): boolean {
  return /^\s*key\s+\S+\s*\{/m.test(text);
}

/** Reads a `key "name" { algorithm ...; secret "..."; };` statement; throws UsageError naming the file. */
export function parseBindKey(text: string, file: string): BindKey {
  const statements = [...text.matchAll(/^\s*key\s+"?([^"\s{]+)"?\s*\{([^}]*)\}\s*;/gm)];
  if (statements.length !== 1) {
    throw new UsageError(
      `${file} holds ${statements.length === 0 ? 'no readable' : `${statements.length}`} BIND key statement(s); one is needed.`,
      'Give the file tsig-keygen printed for this key: key "NAME" { algorithm hmac-sha256; secret "BASE64"; };',
    );
  }
  const [, name, body] = statements[0];
  const algorithm = /\balgorithm\s+"?([\w.-]+)"?\s*;/.exec(body)?.[1]?.toLowerCase();
  const secret = /\bsecret\s+"([^"]*)"\s*;/.exec(body)?.[1]?.trim();
  if (!algorithm || secret === undefined) {
    throw new UsageError(
      `The key statement in ${file} lacks ${!algorithm ? 'its algorithm' : 'its secret'}.`,
      'Give the file tsig-keygen printed: key "NAME" { algorithm hmac-sha256; secret "BASE64"; };',
    );
  }
  if (!isBase64(secret)) {
    throw new UsageError(
      `The secret of key "${name}" in ${file} is not base64.`,
      'Generate a new key with tsig-keygen and configure it on the name server.',
    );
  }
  return { name: name.replace(/\.$/, ''), algorithm: FROM_BIND[algorithm] ?? algorithm, secret, file };
}

/**
 * The value to store for `file:PATH` given as the TSIG secret: the secret alone when the file is a key
 * statement, returned with the key it was taken from (for the findings and the plan).
 */
export function secretFromFile(text: string, file: string): { secret: string; key?: BindKey } {
  if (!looksLikeKeyStatement(text)) return { secret: text.trim() };
  const key = parseBindKey(text, file);
  return { secret: key.secret, key };
}

/** The key file, while the secret is still the one taken from it (an answer may have replaced it since). */
function keyOf(secret: unknown, key: BindKey | undefined): BindKey | undefined {
  return key && typeof secret === 'string' && secret.trim() === key.secret ? key : undefined;
}

const sameName = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/**
 * Takes the key name and algorithm from the key file `keyFile` (the one the answers' secret was read
 * from) when neither the answers nor the inventory give them (a value given is kept, and compared by
 * tsigFindings). Changes `set` in place.
 */
export function fillFromKeyFile(
  set: Record<string, unknown>,
  current: Record<string, unknown>,
  keyFile?: BindKey,
): void {
  const key = keyOf(set[SECRET], keyFile);
  if (!key) return;
  const given = (name: string) => set[name] ?? current[name];
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  if (blank(given(KEY_NAME))) set[KEY_NAME] = key.name;
  if (blank(given(ALGORITHM))) set[ALGORITHM] = key.algorithm;
}

/**
 * The secret must be base64 (not a key statement); the key file it was read from (`keyFile`, when it
 * was) must agree with the key name and algorithm.
 */
export function tsigFindings(values: Record<string, unknown>, keyFile?: BindKey): Finding[] {
  const secret = values[SECRET];
  if (typeof secret !== 'string' || isTagged(secret) || isJinja(secret) || secret.trim() === '') return [];
  const findings: Finding[] = [];
  const value = secret.trim();
  if (looksLikeKeyStatement(value)) {
    findings.push({
      rule: 'rfc2136-tsig-secret',
      severity: 'error',
      variable: SECRET,
      message: `${SECRET} holds a whole BIND key statement (key "..." { ... };), not the secret: the name server would reject every update.`,
      advice:
        'Give only the base64 text between the quotes after "secret", or in the setup answers "file:tsig.key": setup then takes the name, algorithm and secret from the file.',
    });
    return findings;
  }
  if (!isBase64(value)) {
    findings.push({
      rule: 'rfc2136-tsig-secret',
      severity: 'error',
      variable: SECRET,
      message: `${SECRET} is not base64, so it cannot be a TSIG secret.`,
      advice:
        'Copy the secret from the key file (tsig-keygen output) exactly, or give "file:tsig.key" in the setup answers.',
    });
  }
  const key = keyOf(value, keyFile);
  if (!key) return findings;
  findings.push({
    rule: 'rfc2136-tsig-key-file',
    severity: 'info',
    variable: SECRET,
    message: `Read the TSIG key "${key.name}" (${key.algorithm}) from ${key.file}: its secret goes to ${SECRET}, its name and algorithm are compared with ${KEY_NAME} and ${ALGORITHM}.`,
  });
  const name = typeof values[KEY_NAME] === 'string' ? values[KEY_NAME].trim() : undefined;
  if (name && !sameName(name, key.name)) {
    findings.push({
      rule: 'rfc2136-tsig-key-mismatch',
      severity: 'error',
      variable: KEY_NAME,
      message: `${KEY_NAME} is "${name}" but the key file ${key.file} names the key "${key.name}": the name server would answer BADKEY.`,
      advice: `Set ${KEY_NAME}: ${key.name} (or remove it to take the file's), or give the key file of "${name}".`,
    });
  }
  // Unset, the platform has no default (its own rule says so); set, it must be the file's.
  const algorithm = typeof values[ALGORITHM] === 'string' ? values[ALGORITHM].trim().toUpperCase() : undefined;
  if (algorithm !== undefined && algorithm !== key.algorithm.toUpperCase()) {
    findings.push({
      rule: 'rfc2136-tsig-key-mismatch',
      severity: 'error',
      variable: ALGORITHM,
      message: `${ALGORITHM} is ${algorithm} but the key file ${key.file} says ${key.algorithm}: the name server would answer BADKEY.`,
      advice: `Set ${ALGORITHM}: ${key.algorithm}${FROM_BIND_VALUES.has(key.algorithm) ? '' : ' — the platform supports only HMACMD5, HMACSHA1, HMACSHA256 and HMACSHA512: generate the key with one of those (tsig-keygen -a hmac-sha256)'}.`,
    });
  }
  return findings;
}

const FROM_BIND_VALUES = new Set(Object.values(FROM_BIND));
