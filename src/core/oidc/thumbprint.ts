/**
 * The thumbprint an identity provider registration needs: SHA-1 over the DER of the top certificate
 * the host serves (the last one of the served chain, normally the top intermediate CA), 40 hex
 * characters without colons.
 */
import type { X509Certificate } from 'node:crypto';
import { probeTls, type TlsProbeResult } from '../net/tls-probe.js';
import type { TrustStore } from '../net/trust.js';

export function thumbprintOf(cert: X509Certificate): string {
  return cert.fingerprint.replaceAll(':', '').toLowerCase();
}

/** `AB:CD:…` or `abcd…` → `abcd…`; undefined when it is not 40 hex characters. */
export function normalizeThumbprint(text: string): string | undefined {
  const hex = text.trim().replaceAll(':', '').toLowerCase();
  return /^[0-9a-f]{40}$/.test(hex) ? hex : undefined;
}

export interface ServedTop {
  host: string;
  cert: X509Certificate;
  thumbprint: string;
  /** The served chain has only the leaf: the thumbprint is then the leaf's. */
  leafOnly: boolean;
  probe: TlsProbeResult;
}

export function topOfChain(host: string, probe: TlsProbeResult): ServedTop | undefined {
  const cert = probe.chain.at(-1);
  if (!cert) return undefined;
  return { host, cert, thumbprint: thumbprintOf(cert), leafOnly: probe.chain.length === 1, probe };
}

export async function probeTop(
  url: string,
  options: { trust?: TrustStore; insecure?: boolean; timeoutMs: number; signal?: AbortSignal },
): Promise<ServedTop | undefined> {
  const target = new URL(url);
  const port = Number(target.port || 443);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const probe = await probeTls({
    host,
    port,
    trust: options.trust,
    insecure: options.insecure,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  return topOfChain(`${host}:${port}`, probe);
}
