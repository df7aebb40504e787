/**
 * One registry of secret values for the whole process. Every path that prints (reports, JSON,
 * logs on stderr, error messages) passes its text through `redact`, so a secret registered once
 * can never be echoed, wherever it ends up.
 */
import { escapeControl, escapeLine, stringifyJson } from './escape.js';

const MASK = '[redacted]';
const MIN_LENGTH = 4;
const known = new Set<string>();

export function registerSecret(value: unknown): void {
  if (typeof value !== 'string') return;
  const trimmed = value.trim();
  if (trimmed.length < MIN_LENGTH) return;
  for (const form of encodings(trimmed)) known.add(form);
  // A PEM private key may be echoed line by line. Only PEM is split: the lines of other multi-line
  // values (JSON from kubectl, say) are ordinary text that must stay readable.
  if (trimmed.includes('-----BEGIN')) {
    for (const line of trimmed.split(/\r?\n/)) {
      if (line.length >= 16 && !line.startsWith('-----')) known.add(line.trim());
    }
  }
  sorted = undefined;
}

/**
 * The secret as it may appear in what is printed: itself, and as JSON, a form body, a URL and base64
 * carry it (a server that reflects a request quotes it in its own encoding), and as the terminal escapes
 * show a control character in it. Each is masked on its own.
 */
function encodings(secret: string): Set<string> {
  return new Set(
    [
      secret,
      JSON.stringify(secret).slice(1, -1),
      stringifyJson(secret).slice(1, -1),
      escapeControl(secret),
      escapeLine(secret),
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
      new URLSearchParams({ v: secret }).toString().slice(2),
      encodeURI(secret),
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
    ].filter((form) => form.length >= MIN_LENGTH),
  );
}

/** The registered values, longest first, so that a secret that contains another is masked whole. */
let sorted: string[] | undefined;
function byLength(): string[] {
  sorted ??= [...known].sort((a, b) => b.length - a.length);
  return sorted;
}

/**
 * A PEM private key, of any kind (PKCS#8, RSA, EC, OpenSSH, encrypted), masked by its content whether
 * or not it was registered (a key under a variable name cloudgate does not know): from its BEGIN line
 * to its END line, or to where its base64 stops when the text was cut. Also in JSON, where its line
 * breaks are the two characters \n.
 */
const PRIVATE_KEY =
  /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END ([A-Z0-9]+ )*PRIVATE KEY-----|[A-Za-z0-9+/=\s:,.\\-]*)/g;

/** Whether `text` holds (the start of) a PEM private key. */
export function holdsPrivateKey(text: string): boolean {
  return text.includes('PRIVATE KEY-----') && /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/.test(text);
}

/** The length a leading part of a secret must have to be masked on its own (a secret cut short by a server, or in a log). */
const PREFIX = 12;

/** Masks every run of `text` that starts like `secret` (at least PREFIX characters of it): a secret cut short. */
function maskPrefixes(text: string, secret: string): string {
  const head = secret.slice(0, PREFIX);
  let at = text.indexOf(head);
  if (at === -1) return text;
  let out = '';
  let from = 0;
  while (at !== -1) {
    let n = PREFIX;
    while (n < secret.length && text[at + n] === secret[n]) n++;
    out += text.slice(from, at) + MASK;
    from = at + n;
    at = text.indexOf(head, from);
  }
  return out + text.slice(from);
}

/** `scheme://user:password@host`: the whole userinfo of a URL is a credential. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;
/** A query parameter whose name says it carries a credential (`?access_token=`, `&X-Amz-Signature=`). */
const URL_SECRET_PARAM =
  /([?&;](?:access_token|id_token|refresh_token|token|auth|authorization|client_secret|secret|password|passwd|pass|pwd|api_key|apikey|api-key|key|sig|signature|code|session|sessionid|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential)=)[^&#\s"'<>\\]+/gi;

/** Credentials inside URLs, whether or not they were registered: the userinfo and credential-named query values. */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('@') && !text.includes('=')) return text;
  return text.replace(URL_USERINFO, `$1${MASK}@`).replace(URL_SECRET_PARAM, `$1${MASK}`);
}

/**
 * The text with every secret masked: credentials in URLs, PEM private keys by their content, and every
 * registered secret in each of its encodings, also cut short (its first characters). Redact first,
 * then cut: a text cut before this could hold a part of a secret that is no longer recognised.
 */
export function redact(text: string): string {
  if (!text) return text;
  let out = redactUrlCredentials(text);
  if (holdsPrivateKey(out)) out = out.replace(PRIVATE_KEY, MASK);
  if (known.size === 0) return out;
  // Whole secrets first (in every encoding), then what is left of one cut short.
  for (const secret of byLength()) if (out.includes(secret)) out = out.split(secret).join(MASK);
  for (const secret of byLength()) if (secret.length >= 2 * PREFIX) out = maskPrefixes(out, secret);
  return out;
}

/**
 * Deep-redacts a JSON-able value (used for `--json` and `details`): each string (and key) is redacted
 * as itself, not as JSON text, where a secret holding `"` or `\` would be spelled differently.
 */
export function redactValue<T>(value: T): T {
  // redactDeep keeps the value's shape (a string stays a string, a list a list): it is the T that went in.
  return redactDeep(value) as T;
}

function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') {
    // As JSON would see it: toJSON (a Date), own enumerable keys.
    const plain =
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
        ? (value as { toJSON: () => unknown }).toJSON()
        : value;
    if (plain !== value) return redactDeep(plain);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v)]));
  }
  return value;
}

/** Masks a value for display in a diff or review: keeps nothing of the secret but its presence. */
export function mask(value: string): string {
  return value ? '********' : '';
}

export function clearSecretsForTests(): void {
  known.clear();
  sorted = undefined;
}

/**
 * For a long-running process (`cloudgate serve`): how many secrets are registered now, so that the
 * ones a finished run registered (its tokens) can be forgotten once nothing of that run is printed
 * any more. Without this the registry, and the cost of every redaction, grows with each run.
 */
export function secretsMark(): number {
  return known.size;
}

/** Forgets the secrets registered after `mark` (a value of `secretsMark()`). */
export function forgetSecretsSince(mark: number): void {
  let index = 0;
  for (const secret of [...known]) if (index++ >= mark) known.delete(secret);
  sorted = undefined;
}
