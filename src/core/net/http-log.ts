import { escapeControl } from '../escape.js';
import { redact } from '../secrets.js';
import { TEXT_LIMIT } from '../bounded.js';

const SECRET_HEADERS = new Set([
  'authorization',
  'x-auth-token',
  'x-subject-token',
  'cookie',
  'set-cookie',
  'proxy-authorization',
]);
const SECRET_FIELDS =
  /^(client_secret|subject_token|access_token|refresh_token|id_token|token|password|secret|assertion|code|private_key)$/i;
const MASK = '[redacted]';

// Transport noise that says nothing about the sign-in or the service.
const QUIET_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'user-agent', 'accept']);

export function redactHeaders(headers: Record<string, string>): string[] {
  return Object.entries(headers)
    .filter(([name]) => !QUIET_HEADERS.has(name.toLowerCase()))
    .map(([name, value]) => {
      const lower = name.toLowerCase();
      if (!SECRET_HEADERS.has(lower)) return `${lower}: ${redact(value)}`;
      // Keep the scheme ("Bearer") so a reader sees what kind of credential went out.
      const scheme = /^(Bearer|Basic|Negotiate)\s/i.exec(value)?.[1];
      return `${lower}: ${scheme ? `${scheme} ` : ''}${MASK}`;
    });
}

/** Form or JSON body with every secret-looking field masked; other text passes through `redact`. */
export function redactBody(body: string, contentType: string | undefined): string {
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(body);
    for (const key of [...params.keys()]) if (SECRET_FIELDS.test(key)) params.set(key, MASK);
    return redact(decodeURIComponent(params.toString().replaceAll('+', ' ')));
  }
  const trimmed = body.trimStart();
  if (type.includes('json') || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return redact(JSON.stringify(maskJson(JSON.parse(body))));
    } catch {
      // Not JSON after all: fall through to the plain preview.
    }
  }
  return redact(body);
}

// `parent` catches Keystone's `{"token": {"id": "<token>"}}` without masking every `id`.
function maskJson(value: unknown, key = '', parent = ''): unknown {
  if (typeof value === 'string') return SECRET_FIELDS.test(key) || (key === 'id' && parent === 'token') ? MASK : value;
  if (Array.isArray(value)) return value.map((v) => maskJson(v, '', key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJson(v, k, key)]));
  }
  return value;
}

/**
 * The one writer of log lines (`--verbose`, progress on stderr): redacted, and every control character
 * of what servers and files said is shown escaped instead of acting on the terminal.
 */
export function lineWriter(stream: NodeJS.WritableStream): (line: string) => void {
  return (line) => {
    stream.write(escapeControl(redact(line)) + '\n');
  };
}

/**
 * A body shown in a log or a message: redacted first (a secret the server reflects is masked whole,
 * before anything can cut it in two), then one line, control characters escaped, and bounded.
 */
export function preview(text: string): string {
  const oneLine = escapeControl(redact(text).replace(/\s+/g, ' ').trim());
  return oneLine.length > TEXT_LIMIT ? `${oneLine.slice(0, TEXT_LIMIT)}… (${text.length} bytes)` : oneLine;
}
