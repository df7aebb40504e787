/**
 * How the discovery checks judge a published service-account issuer: how the issuer a document names
 * differs from the URL, and whether a host is reachable only from inside. The shared facts about such
 * issuers live in core/kube/service-account-issuer.ts.
 */
import { isIP } from 'node:net';
import { parseUrl } from '../../config/formats.js';
import { ISSUER_DIFFERENCE } from './messages/document.js';

/** Every way `actual` differs from `expected`, in the operator's words; empty when byte-for-byte equal. */
export function issuerDifferences(expected: string, actual: string): string[] {
  if (expected === actual) return [];
  const diffs: string[] = [];
  const trim = (s: string) => s.replace(/\/+$/, '');
  if (trim(expected) === trim(actual)) {
    diffs.push(actual.endsWith('/') ? ISSUER_DIFFERENCE.documentTrailingSlash : ISSUER_DIFFERENCE.urlTrailingSlash);
    return diffs;
  }
  const e = parseUrl(expected);
  const a = parseUrl(actual);
  if (!e || !a) return [ISSUER_DIFFERENCE.differentStrings];
  if (e.protocol !== a.protocol)
    diffs.push(ISSUER_DIFFERENCE.scheme(a.protocol.replace(':', ''), e.protocol.replace(':', '')));
  if (e.port !== a.port) diffs.push(ISSUER_DIFFERENCE.port(a.port, e.port));
  if (e.hostname !== a.hostname) {
    diffs.push(ISSUER_DIFFERENCE.host(a.hostname, e.hostname));
  }
  const [ep, ap] = [trim(e.pathname), trim(a.pathname)];
  if (ep !== ap)
    diffs.push(ep.toLowerCase() === ap.toLowerCase() ? ISSUER_DIFFERENCE.pathCase : ISSUER_DIFFERENCE.path(ap, ep));
  if (diffs.length && expected.endsWith('/') !== actual.endsWith('/')) diffs.push(ISSUER_DIFFERENCE.trailingSlashToo);
  // new URL() lower-cases the host: a difference only in case is invisible above.
  if (diffs.length === 0)
    diffs.push(
      expected.toLowerCase() === actual.toLowerCase()
        ? ISSUER_DIFFERENCE.letterCase
        : ISSUER_DIFFERENCE.differentStrings,
    );
  return diffs;
}

/** A host only reachable inside the cluster or a private network. */
export function isInternalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(h) === 4) {
    const [a, b] = h.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (isIP(h) === 6) return h === '::1' || /^f[cd]/.test(h) || h.startsWith('fe80');
  return (
    h === 'localhost' ||
    !h.includes('.') ||
    /\.(svc|cluster\.local|local|internal|localdomain|lan)$/.test(h) ||
    h.startsWith('kubernetes.default')
  );
}
