/**
 * A request of the chain failed below HTTP: one more look at the server proves what the error alone
 * cannot tell. An unknown CA: a handshake that reads the server's chain names the CA that signs it,
 * and the CA file given is read for the CAs it does hold (a wrong file and no file give Node the same
 * verdict). A plain-HTTP request that the server dropped: a TLS handshake to the same port that
 * succeeds proves the port speaks HTTPS.
 */
import { X509Certificate } from 'node:crypto';
import { HttpError } from '../../net/http.js';
import { probeTls } from '../../net/tls-probe.js';
import type { TrustStore } from '../../net/trust.js';
import { certificateBlocks } from '../../tls/pem.js';
import { escapeLine } from '../../escape.js';
import { StepError } from './advice.js';
import type { SigninSettings } from './settings.js';

/** A distinguished name on one line: `CN=cloudgate keystone e2e CA`. */
const dn = (text: string) => escapeLine(text.split('\n').filter(Boolean).join(', '));

/** The setting whose URL was asked, as the operator names it. */
export function settingOfUrl(s: SigninSettings, url: string): string {
  const starts = (base: string | undefined) => base !== undefined && url.startsWith(base);
  if (starts(s.idpTokenUrl)) return 'idp_token_url';
  if (starts(s.tokenEndpoint)) return 'token_endpoint';
  if (starts(s.discoveryEndpoint)) return 'discovery_endpoint';
  if (starts(s.identityUrl)) return 'identity_url (OS_AUTH_URL, clouds.yaml auth_url)';
  if (starts(s.brokerUrl)) return 'broker_url';
  return 'its URL';
}

function target(url: string): { host: string; port: number } | undefined {
  try {
    const u = new URL(url);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) };
  } catch {
    return undefined;
  }
}

/** The subjects of the certificates in the CA file; undefined when it cannot be read (the request said why). */
function caSubjects(trust: TrustStore): string[] | undefined {
  try {
    return certificateBlocks(trust.caPem() ?? '').flatMap((pem) => {
      try {
        return [dn(new X509Certificate(pem).subject)];
      } catch {
        return [];
      }
    });
  } catch {
    return undefined;
  }
}

/** The error with what one more look at the server proves; the error itself when nothing is proven. */
export async function proveHttpFailure(
  error: StepError | HttpError,
  s: SigninSettings,
  network: { timeoutMs: number; trust: TrustStore },
  signal?: AbortSignal,
): Promise<StepError | HttpError> {
  if (!(error instanceof HttpError)) return error;
  const at = target(error.url);
  if (!at) return error;
  const timeoutMs = Math.min(network.timeoutMs, 5000);
  if (error.kind === 'tls-unknown-ca') {
    let probe;
    try {
      probe = await probeTls({ ...at, insecure: true, timeoutMs, signal });
    } catch {
      return error;
    }
    const top = probe.chain.at(-1);
    if (!top) return error;
    // The top certificate's issuer signs the chain (a self-signed top is that CA itself).
    const signer = dn(top.issuer);
    const { caFile } = network.trust;
    const held = caFile ? caSubjects(network.trust) : undefined;
    const message = held
      ? `${error.message} Its chain ends at "${signer}", which the CA file ${caFile} does not hold (it holds: ${held.map((h) => `"${h}"`).join(', ') || 'no certificate'}).`
      : `${error.message} Its chain ends at "${signer}", a CA this machine does not trust.`;
    const advice = `Give the CA "${signer}" with --ca-file (OS_CACERT, clouds.yaml cacert); one file may hold several CAs, and the same file serves the broker and the identity service, as the OpenStack client's cacert does. Use --insecure only to diagnose.`;
    return new HttpError(error.kind, error.url, message, advice, error.status);
  }
  if (error.kind === 'network' && error.url.startsWith('http:')) {
    try {
      await probeTls({ ...at, insecure: true, timeoutMs, signal });
    } catch {
      return error;
    }
    return new HttpError(
      error.kind,
      error.url,
      `${error.message} The port speaks HTTPS: a TLS handshake with ${at.host}:${at.port} succeeds, and the server closed the plain-HTTP request.`,
      `Write https:// in ${settingOfUrl(s, error.url)}.`,
      error.status,
    );
  }
  return error;
}
