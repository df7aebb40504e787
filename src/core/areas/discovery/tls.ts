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
    const probe = await probeTls({ host, port, trust: trustOf(services), insecure: network.insecure, timeoutMs: network.timeoutMs, signal });
    const top = topOfChain(facts.host, probe);
    facts.trusted = probe.chainTrusted;
    facts.hostMatches = probe.hostMatches;
    facts.authorizationError = probe.authorizationError;
    facts.trustStore = probe.trustStore;
    facts.chain = probe.chain.map((c) => ({ subject: oneLine(c.subject), notAfter: new Date(c.validTo).toISOString() }));
    if (top) {
      facts.top = { subject: oneLine(top.cert.subject), issuer: oneLine(top.cert.issuer), thumbprint: top.thumbprint, leafOnly: top.leafOnly };
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
  const certificates = all.flatMap((f) => (f.chain ?? []).map((c) => ({ source: f.host, subject: commonName(c.subject), notAfter: c.notAfter })));
  return { ...judgeTls(all, insecure), certificates };
}

function judgeTls(all: TlsFacts[], insecure: boolean): CheckResult<TlsHostsFacts> {
  const facts = { hosts: all };
  const describe = (f: TlsFacts) => (f.top ? `${f.host} tops its chain with "${f.top.subject}" (thumbprint ${f.top.thumbprint})` : f.host);
  const broken = all.filter((f) => f.error);
  if (broken.length) {
    return { status: 'fail', message: broken.map((f) => `${f.host}: ${f.error}`).join(' '), advice: 'Check that the issuer host answers TLS on its port.', facts };
  }
  if (insecure) {
    return { status: 'warn', message: `Not verified (--insecure). ${all.map(describe).join('; ')}.`, advice: 'Run without --insecure (with --ca-file for a private CA) to judge the chain.', facts };
  }
  const untrusted = all.filter((f) => !f.trusted || !f.hostMatches);
  if (untrusted.length) {
    return {
      status: 'fail',
      message: untrusted
        .map((f) => `${f.host}: ${!f.hostMatches ? 'the certificate does not name this host' : `the chain is not trusted (${f.authorizationError ?? 'unknown'})`}`)
        .join('; ') + `. ${all.map(describe).join('; ')}.`,
      advice:
        'The DNS provider\'s identity service fetches the issuer over TLS and refuses an untrusted or misnamed certificate. ' +
        'Serve a certificate from a public CA (or register the thumbprint of your private CA with the provider), covering the issuer host; ' +
        'pass --ca-file PEM if this machine simply lacks your private CA.',
      facts,
    };
  }
  const privateOnes = all.filter((f) => !f.publiclyTrusted);
  const leafOnly = all.filter((f) => f.top?.leafOnly);
  const leafNote = leafOnly.length ? ` ${leafOnly.map((f) => f.host).join(', ')} serve(s) no intermediate: the thumbprint is the leaf's and changes at every renewal.` : '';
  if (privateOnes.length) {
    return {
      status: 'warn',
      message: `Trusted here (${privateOnes[0].trustStore}) but not by the public roots: a private CA. ${all.map(describe).join('; ')}.${leafNote}`,
      advice:
        'For a private CA the thumbprint decides: register it in the identity provider (ThumbprintList of "cloudgate oidc"), for each host above; ' +
        'when that CA is renewed, update the thumbprint first.',
      facts,
    };
  }
  return {
    status: leafOnly.length ? 'warn' : 'ok',
    message: `Publicly trusted. ${all.map(describe).join('; ')}.${leafNote}`,
    advice: leafOnly.length
      ? 'Serve the intermediate certificate(s) after the leaf.'
      : 'For a publicly trusted chain the DNS provider verifies it itself; the thumbprint is informational.',
    facts,
  };
}
