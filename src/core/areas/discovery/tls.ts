/**
 * discovery.tls: whether the issuer's (and key set's) certificate chain is trusted, publicly or only
 * through a private CA, and the thumbprint of its top certificate.
 */
import type { RunServices } from '../../doctor/services.js';
import { trustOf } from '../../net/trust.js';
import type { CheckResult } from '../../doctor/types.js';
import { probeTls } from '../../net/tls-probe.js';
import { topOfChain } from '../../oidc/thumbprint.js';
import { chainsToPublicRoot } from '../../tls/served-path.js';
import { commonName } from '../../tls/pem.js';
import { messageOf } from '../../errors.js';
import { TLS } from './messages/document.js';

export interface TlsFacts {
  url: string;
  host: string;
  error?: string;
  trusted?: boolean;
  /** Trusted by the system store alone (what the DNS provider's identity service has). */
  publiclyTrusted?: boolean;
  hostMatches?: boolean;
  authorizationError?: string;
  trustStore?: string;
  top?: { subject: string; issuer: string; thumbprint: string; leafOnly: boolean };
  /** Each served certificate's expiry, for the exporter's certificate metrics. */
  chain?: { subject: string; notAfter: string }[];
}

export async function tlsFacts(url: string, services: RunServices, signal: AbortSignal): Promise<TlsFacts> {
  const { network } = services;
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || 443);
  const facts: TlsFacts = { url, host: `${host}:${port}` };
  try {
    const probe = await probeTls({
      host,
      port,
      trust: trustOf(services),
      insecure: network.insecure,
      timeoutMs: network.timeoutMs,
      signal,
    });
    const top = topOfChain(facts.host, probe);
    facts.trusted = probe.chainTrusted;
    facts.hostMatches = probe.hostMatches;
    facts.authorizationError = probe.authorizationError;
    facts.trustStore = probe.trustStore;
    facts.chain = probe.chain.map((c) => ({
      subject: oneLine(c.subject),
      notAfter: new Date(c.validTo).toISOString(),
    }));
    if (top) {
      facts.top = {
        subject: oneLine(top.cert.subject),
        issuer: oneLine(top.cert.issuer),
        thumbprint: top.thumbprint,
        leafOnly: top.leafOnly,
      };
    }
    facts.publiclyTrusted = probe.chainTrusted && probe.chain.length > 0 && chainsToPublicRoot(probe.chain.at(-1)!);
  } catch (error) {
    facts.error = messageOf(error);
  }
  return facts;
}

function oneLine(dn: string): string {
  return dn.split('\n').filter(Boolean).join(', ');
}

/** What --verbose and --json show: each host's facts. */
export interface TlsHostsFacts {
  hosts: TlsFacts[];
}

export function tlsResult(all: TlsFacts[], insecure: boolean): CheckResult<TlsHostsFacts> {
  // Every served certificate, under the host:port that served it.
  const certificates = all.flatMap((f) =>
    (f.chain ?? []).map((c) => ({ source: f.host, subject: commonName(c.subject), notAfter: c.notAfter })),
  );
  return { ...judgeTls(all, insecure), certificates };
}

function judgeTls(all: TlsFacts[], insecure: boolean): CheckResult<TlsHostsFacts> {
  const facts = { hosts: all };
  const describe = (f: TlsFacts) =>
    f.top ? `${f.host} tops its chain with "${f.top.subject}" (thumbprint ${f.top.thumbprint})` : f.host;
  const broken = all.filter((f) => f.error);
  if (broken.length) {
    return {
      status: 'fail',
      message: broken.map((f) => `${f.host}: ${f.error}`).join(' '),
      advice: TLS.checkTlsPort,
      facts,
    };
  }
  if (insecure) {
    return { status: 'warn', message: TLS.notVerified(all.map(describe).join('; ')), advice: TLS.runSecure, facts };
  }
  const untrusted = all.filter((f) => !f.trusted || !f.hostMatches);
  if (untrusted.length) {
    return {
      status: 'fail',
      message: TLS.untrusted(
        untrusted
          .map((f) => `${f.host}: ${!f.hostMatches ? TLS.notNamed : TLS.notTrusted(f.authorizationError ?? 'unknown')}`)
          .join('; '),
        all.map(describe).join('; '),
      ),
      advice: TLS.servePublicCertificate,
      facts,
    };
  }
  const privateOnes = all.filter((f) => !f.publiclyTrusted);
  const leafOnly = all.filter((f) => f.top?.leafOnly);
  const leafNote = leafOnly.length ? TLS.leafOnly(leafOnly.map((f) => f.host).join(', ')) : '';
  if (privateOnes.length) {
    return {
      status: 'warn',
      message: TLS.privateCa(privateOnes[0].trustStore, all.map(describe).join('; '), leafNote),
      advice: TLS.registerThumbprint,
      facts,
    };
  }
  return {
    status: leafOnly.length ? 'warn' : 'ok',
    message: TLS.publiclyTrusted(all.map(describe).join('; '), leafNote),
    advice: leafOnly.length ? TLS.serveIntermediates : TLS.thumbprintInformational,
    facts,
  };
}
