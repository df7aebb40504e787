import type { Finding } from '../findings.js';

export interface SuppliedWildcardInput {
  certificateFile: string;
  keyFile: string;
  /** The wildcard domain to check coverage of (`*.<domain>`), when known. */
  domain?: string;
  /** Write the computed correct order instead of refusing a wrong one. */
  fixOrder: boolean;
  now?: Date;
}

export interface SuppliedWildcard {
  /** The chain to put in tls.crt: certificate, intermediate(s), root. */
  chainPem: string;
  keyPem: string;
  /** Errors refuse the write; warnings are shown. */
  findings: Finding[];
  reordered: boolean;
}

/** Interface stub: the certificate work (issue 3) implements it; setup already calls it. */
export function loadSuppliedWildcard(_input: SuppliedWildcardInput): SuppliedWildcard {
  throw new Error('supplied wildcard certificates are not implemented yet');
}
