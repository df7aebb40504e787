/**
 * ACME server preflight: the directory is reachable, is a JSON object with the URLs
 * an ACME client needs, and `newNonce` hands out a `Replay-Nonce`.
 */
import type { CheckResult } from '../../doctor/types.js';
import { HttpError, type HttpClient } from '../../net/http.js';
import { asRecord, isRecord } from '../../records.js';

export const PUBLIC_ACME_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
/** cert-manager cannot issue without these. */
const REQUIRED = ['newNonce', 'newAccount', 'newOrder'] as const;
/** Part of every RFC 8555 directory; their absence breaks revocation and key rollover only. */
const EXPECTED = ['revokeCert', 'keyChange'] as const;

/** What --verbose and --json show: the directory asked and the entries it lists. */
export type DirectoryFacts = { url: string; status?: number; kind?: string; termsOfService?: unknown }
  & Partial<Record<(typeof REQUIRED)[number] | (typeof EXPECTED)[number], unknown>>;

export interface DirectoryTarget {
  url: string;
  /** The inventory sets cluster_issuer_acme_private_ca: true. */
  privateCa: boolean;
  /** Whether --ca-file / OS_CACERT was given. */
  caFileGiven: boolean;
  /** The URL came from cluster_issuer_acme_server (false: the public default). */
  configured: boolean;
}

export async function checkDirectory(client: HttpClient, target: DirectoryTarget, signal?: AbortSignal): Promise<CheckResult<DirectoryFacts>> {
  const { url } = target;
  const origin = target.configured ? 'cluster_issuer_acme_server' : 'the public ACME CA used when cluster_issuer_acme_server is unset';
  let directory: Record<string, unknown>;
  try {
    const res = await client.request({ url, signal, headers: { accept: 'application/json' } });
    if (res.status !== 200) {
      return {
        status: 'fail',
        message: `The ACME directory ${url} answered ${res.status}, not 200.`,
        advice: `Check ${origin}: it must be the directory URL itself (often ending in /directory).`,
        facts: { url, status: res.status },
      };
    }
    const parsed = res.json();
    if (!isRecord(parsed)) {
      return { status: 'fail', message: `The ACME directory ${url} is JSON but not an object.`, advice: `Check ${origin}.`, facts: { url } };
    }
    directory = parsed;
  } catch (error) {
    return fromHttpError(error, target, origin);
  }

  const urls = (names: readonly string[]) => names.filter((n) => !isHttpUrl(directory[n]));
  const missing = urls(REQUIRED);
  const facts: DirectoryFacts = { url, ...pick(directory, [...REQUIRED, ...EXPECTED]) };
  const meta = asRecord(directory.meta) ?? {};
  if (meta.termsOfService) facts.termsOfService = meta.termsOfService;
  if (missing.length) {
    return {
      status: 'fail',
      message: `The ACME directory ${url} lacks ${missing.join(', ')}${missing.includes('newOrder') ? ' (cert-manager rejects a directory without newOrder)' : ''}.`,
      advice: `This is not an ACME (RFC 8555) directory: check ${origin} points at the directory URL, not the server's home page.`,
      facts,
    };
  }

  let nonce: string | undefined;
  try {
    const res = await client.request({ method: 'HEAD', url: String(directory.newNonce), signal });
    nonce = res.headers['replay-nonce'];
  } catch (error) {
    const failure = fromHttpError(error, target, origin);
    return { ...failure, message: `newNonce (${String(directory.newNonce)}): ${failure.message}`, facts };
  }
  if (!nonce) {
    return {
      status: 'fail',
      message: `HEAD ${String(directory.newNonce)} (newNonce) returned no Replay-Nonce header; no ACME request can be signed without one.`,
      advice: 'A proxy in front of the ACME server may strip the header, or the URL is not an ACME server.',
      facts,
    };
  }

  const warnings: { message: string; advice: string }[] = [];
  const absent = urls(EXPECTED);
  if (absent.length) {
    warnings.push({ message: `The directory lacks ${absent.join(', ')}.`, advice: 'Revocation or account key rollover will not work against this server.' });
  }
  if (meta.externalAccountRequired === true) {
    warnings.push({
      message: 'The server requires external account binding (meta.externalAccountRequired), which the platform does not configure.',
      advice: 'Account registration will fail (ErrRegisterACMEAccount); use a server without EAB or configure the binding on the issuer by hand.',
    });
  }
  if (/staging/i.test(url)) {
    warnings.push({ message: `${url} is a staging directory: its certificates are not trusted by any client.`, advice: 'Use the production directory for real endpoints.' });
  }
  if (url.startsWith('http://')) {
    warnings.push({ message: `${url} is plain http://.`, advice: 'Serve the ACME directory over https://.' });
  }
  if (warnings.length) {
    return { status: 'warn', message: warnings.map((w) => w.message).join(' '), advice: warnings.map((w) => w.advice).join(' '), facts };
  }
  return { status: 'ok', message: `${url} is an ACME directory (newNonce, newAccount, newOrder present; Replay-Nonce issued).`, facts };
}

function fromHttpError(error: unknown, target: DirectoryTarget, origin: string): CheckResult<DirectoryFacts> {
  if (!(error instanceof HttpError)) throw error;
  let advice = error.advice;
  if (error.kind === 'tls-unknown-ca') {
    advice = target.caFileGiven
      ? `The CA file given does not sign the ACME server's certificate. ${target.privateCa ? '' : 'If the server uses a private CA, also set cluster_issuer_acme_private_ca: true so the platform trusts it. '}`
      : `The ACME server's certificate is signed by a CA this machine does not trust: pass it with --ca-file PEM${target.privateCa ? ' (cluster_issuer_acme_private_ca is true: the platform trusts it through the nodes\' CA store, cloudgate must be told the file)' : ', and set cluster_issuer_acme_private_ca: true so the platform trusts it'}.`;
  } else if (error.kind === 'not-json' || error.kind === 'html') {
    advice = `Check ${origin}: it must be the ACME directory URL (often ending in /directory).`;
  }
  return { status: 'fail', message: error.message, advice: advice.trim(), facts: { url: target.url, kind: error.kind } };
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in object).map((k) => [k, object[k]]));
}
