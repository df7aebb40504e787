/**
 * One registry of secret values for the whole process. Every path that prints (reports, JSON,
 * logs on stderr, error messages) passes its text through `redact`, so a secret registered once
 * can never be echoed, wherever it ends up.
 */
const MASK = '[redacted]';
const MIN_LENGTH = 4;
const known = new Set<string>();

export function registerSecret(value: unknown): void {
  if (typeof value !== 'string') return;
  const trimmed = value.trim();
  if (trimmed.length < MIN_LENGTH) return;
  known.add(trimmed);
  // A PEM private key may be echoed line by line. Only PEM is split: the lines of other multi-line
  // values (JSON from kubectl, say) are ordinary text that must stay readable.
  if (trimmed.includes('-----BEGIN')) {
    for (const line of trimmed.split(/\r?\n/)) {
      if (line.length >= 16 && !line.startsWith('-----')) known.add(line.trim());
    }
  }
  known.add(Buffer.from(trimmed).toString('base64'));
  known.add(encodeURIComponent(trimmed));
}

/** `scheme://user:password@host`: the whole userinfo of a URL is a credential. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;
/** A query parameter whose name says it carries a credential (`?access_token=`, `&X-Amz-Signature=`). */
const URL_SECRET_PARAM = /([?&;](?:access_token|id_token|refresh_token|token|auth|authorization|client_secret|secret|password|passwd|pass|pwd|api_key|apikey|api-key|key|sig|signature|code|session|sessionid|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential)=)[^&#\s"'<>\\]+/gi;

/** Credentials inside URLs, whether or not they were registered: the userinfo and credential-named query values. */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('@') && !text.includes('=')) return text;
  return text.replace(URL_USERINFO, `$1${MASK}@`).replace(URL_SECRET_PARAM, `$1${MASK}`);
}

export function redact(text: string): string {
  if (!text) return text;
  let out = redactUrlCredentials(text);
  if (known.size === 0) return out;
  // Longest first so a secret that contains another is masked whole.
  for (const secret of [...known].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  return out;
}

/** Deep-redacts a JSON-able value (used for `--json` and `details`). */
export function redactValue<T>(value: T): T {
  // The round trip keeps the value's JSON shape; only strings inside change (to the mask).
  return JSON.parse(redact(JSON.stringify(value))) as T;
}

/** Masks a value for display in a diff or review: keeps nothing of the secret but its presence. */
export function mask(value: string): string {
  return value ? '********' : '';
}

export function clearSecretsForTests(): void {
  known.clear();
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
}
