/**
 * ACME server preflight: the directory is reachable, is a JSON object with the URLs
 * an ACME client needs, and `newNonce` hands out a `Replay-Nonce`.
 */
import type { CheckResult } from '../../doctor/types.js';
import { HttpError, type HttpClient } from '../../net/http.js';
import { asRecord, isRecord } from '../../records.js';
import { DIRECTORY } from './messages/directory.js';

export const PUBLIC_ACME_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
/** cert-manager cannot issue without these. */
const REQUIRED = ['newNonce', 'newAccount', 'newOrder'] as const;
/** Part of every RFC 8555 directory; their absence breaks revocation and key rollover only. */
const EXPECTED = ['revokeCert', 'keyChange'] as const;

/** What --verbose and --json show: the directory asked and the entries it lists. */
export type DirectoryFacts = { url: string; status?: number; kind?: string; termsOfService?: unknown } & Partial<
  Record<(typeof REQUIRED)[number] | (typeof EXPECTED)[number], unknown>
>;

export interface DirectoryTarget {
  url: string;
  /** The inventory sets cluster_issuer_acme_private_ca: true. */
  privateCa: boolean;
  /** Whether --ca-file / OS_CACERT was given. */
  caFileGiven: boolean;
  /** The URL came from cluster_issuer_acme_server (false: the public default). */
  configured: boolean;
}

export async function checkDirectory(
  client: HttpClient,
  target: DirectoryTarget,
  signal?: AbortSignal,
): Promise<CheckResult<DirectoryFacts>> {
  const { url } = target;
  const origin = target.configured ? DIRECTORY.configuredServer : DIRECTORY.publicDefault;
  let directory: Record<string, unknown>;
  try {
    const res = await client.request({ url, signal, headers: { accept: 'application/json' } });
    if (res.status !== 200) {
      return {
        status: 'fail',
        message: DIRECTORY.notOk(url, res.status),
        advice: DIRECTORY.giveDirectoryUrl(origin),
        facts: { url, status: res.status },
      };
    }
    const parsed = res.json();
    if (!isRecord(parsed)) {
      return {
        status: 'fail',
        message: DIRECTORY.notObject(url),
        advice: DIRECTORY.checkOrigin(origin),
        facts: { url },
      };
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
      message: DIRECTORY.lacksRequired(url, missing),
      advice: DIRECTORY.notAcme(origin),
      facts,
    };
  }

  let nonce: string | undefined;
  try {
    const res = await client.request({ method: 'HEAD', url: String(directory.newNonce), signal });
    nonce = res.headers['replay-nonce'];
  } catch (error) {
    const failure = fromHttpError(error, target, origin);
    return { ...failure, message: DIRECTORY.newNonceFailed(String(directory.newNonce), failure.message), facts };
  }
  if (!nonce) {
    return {
      status: 'fail',
      message: DIRECTORY.noNonce(String(directory.newNonce)),
      advice: DIRECTORY.nonceStripped,
      facts,
    };
  }

  const warnings: { message: string; advice: string }[] = [];
  const absent = urls(EXPECTED);
  if (absent.length) {
    warnings.push({ message: DIRECTORY.lacksExpected(absent), advice: DIRECTORY.noRevocation });
  }
  if (meta.externalAccountRequired === true) {
    warnings.push({
      message: DIRECTORY.eabRequired,
      advice: DIRECTORY.eabWillFail,
    });
  }
  if (/staging/i.test(url)) {
    warnings.push({ message: DIRECTORY.staging(url), advice: DIRECTORY.useProduction });
  }
  if (url.startsWith('http://')) {
    warnings.push({ message: DIRECTORY.plainHttp(url), advice: DIRECTORY.useHttps });
  }
  if (warnings.length) {
    return {
      status: 'warn',
      message: warnings.map((w) => w.message).join(' '),
      advice: warnings.map((w) => w.advice).join(' '),
      facts,
    };
  }
  return { status: 'ok', message: DIRECTORY.healthy(url), facts };
}

function fromHttpError(error: unknown, target: DirectoryTarget, origin: string): CheckResult<DirectoryFacts> {
  if (!(error instanceof HttpError)) throw error;
  let advice = error.advice;
  if (error.kind === 'tls-unknown-ca') {
    advice = target.caFileGiven ? DIRECTORY.caFileDoesNotSign(target.privateCa) : DIRECTORY.unknownCa(target.privateCa);
  } else if (error.kind === 'not-json' || error.kind === 'html') {
    advice = DIRECTORY.notDirectory(origin);
  }
  return {
    status: 'fail',
    message: error.message,
    advice: advice.trim(),
    facts: { url: target.url, kind: error.kind },
  };
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in object).map((k) => [k, object[k]]));
}
