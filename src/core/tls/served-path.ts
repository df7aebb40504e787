/** The served chain's shape: the path from the leaf through the served certificates, its order, what is extra. */
import type { X509Certificate } from 'node:crypto';
import { isIssuedBy, isSelfSigned as selfSigned } from './chain.js';
import { certificateName } from './pem.js';
import { bundledRoots } from './roots.js';

export interface ServedChain {
  /** Served positions of the path leaf → issuer → ..., following signatures. */
  path: number[];
  /** The path is the served list's prefix, in order. */
  inOrder: boolean;
  /** Served certificates not on the path (unrelated or duplicated). */
  extra: number[];
  /** The path ends in a self-signed certificate (a root was served; harmless). */
  endsAtRoot: boolean;
  /** The last certificate of the path (whose issuer must come from the trust store when not a root). */
  last?: X509Certificate;
}

const parsed = (x509: X509Certificate, index = 0) => ({ index, x509, name: certificateName(x509) });

export function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  return isIssuedBy(parsed(child), parsed(parent));
}

export function isSelfSigned(cert: X509Certificate): boolean {
  return selfSigned(parsed(cert));
}

export function analyzeChain(chain: X509Certificate[]): ServedChain {
  if (chain.length === 0) return { path: [], inOrder: true, extra: [], endsAtRoot: false };
  const path = [0];
  while (true) {
    const current = chain[path[path.length - 1]];
    if (isSelfSigned(current)) break;
    const next = chain.findIndex((c, i) => !path.includes(i) && issuedBy(current, c));
    if (next < 0) break;
    path.push(next);
  }
  const last = chain[path[path.length - 1]];
  return {
    path,
    inOrder: path.every((position, i) => position === i),
    extra: chain.map((_, i) => i).filter((i) => !path.includes(i)),
    endsAtRoot: isSelfSigned(last),
    last,
  };
}

/** Whether the certificate is, or is issued by, one of Node's bundled public roots. */
export function chainsToPublicRoot(cert: X509Certificate): boolean {
  return bundledRoots().some((root) => root.fingerprint256 === cert.fingerprint256 || issuedBy(cert, root));
}
