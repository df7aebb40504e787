import { statSync } from 'node:fs';
import { readOwnedFileSync } from '../safe-read.js';
import type { Finding } from '../findings.js';
import { registerSecret } from '../secrets.js';
import { notAfter } from './checks.js';
import { examine } from './examine.js';
import { toFinding } from './variable-rules.js';
import { messageOf } from '../errors.js';
import { memberOf, textOf } from '../records.js';

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
  /** Expiry of the certificate, when it could be read. */
  notAfter?: Date;
}

const CERT_KEY = 'wildcard_certificate_file';
const KEY_KEY = 'wildcard_key_file';

/**
 * Reads and checks an operator's wildcard certificate and key (issuer none, full chain in order, the platform never renews it): every
 * check of the TLS toolkit; errors refuse the write. The chain comes back in the right order.
 */
export function loadSuppliedWildcard(input: SuppliedWildcardInput): SuppliedWildcard {
  const now = input.now ?? new Date();
  const findings: Finding[] = [];
  const certPem = readText(input.certificateFile, CERT_KEY, 'certificate', findings);
  const keyPem = readText(input.keyFile, KEY_KEY, 'private key', findings);
  if (certPem === undefined || keyPem === undefined) return { chainPem: '', keyPem: '', findings, reordered: false };

  const result = examine({
    certPem,
    certSource: input.certificateFile,
    keyPem,
    keySource: input.keyFile,
    role: 'wildcard',
    domain: input.domain,
    now,
    fixOrder: input.fixOrder,
    fixHint: 'Run setup again with --fix-order to write the chain in this order, or reorder the file yourself.',
    renewAdvice:
      'The platform never renews a supplied wildcard certificate: get a renewed one from your CA, then run cloudgate setup again and apply the new Secret manifest.',
  });
  for (const check of result.checks) {
    const isKey = check.name === 'key' || check.name === 'key-match';
    const finding = toFinding(check, `wildcard-${check.name}`, isKey ? KEY_KEY : CERT_KEY);
    if (finding) findings.push(finding);
  }
  const mode = statSync(input.keyFile).mode & 0o777;
  if (mode & 0o077) {
    findings.push({
      rule: 'wildcard-key-permissions',
      variable: KEY_KEY,
      severity: 'warning',
      message: `The private key file ${input.keyFile} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}).`,
      advice: `chmod 600 ${input.keyFile}`,
    });
  }
  const usable = result.ordered && findings.every((f) => f.severity !== 'error');
  return {
    chainPem: usable ? result.ordered!.map((c) => pemOf(c.x509.toString())).join('') : '',
    keyPem: result.key ? result.key.block.text : '',
    findings,
    reordered: result.reordered,
    notAfter: result.ordered?.[0] ? notAfter(result.ordered[0]) : undefined,
  };
}

const pemOf = (text: string) => text.trim() + '\n';

function readText(path: string, variable: string, what: string, findings: Finding[]): string | undefined {
  try {
    const text = readOwnedFileSync(path, { what: `the ${what} file (${variable})` });
    if (variable === KEY_KEY) registerSecret(text);
    return text;
  } catch (error) {
    const code = / (E[A-Z]+)\.$/.exec(messageOf(error))?.[1];
    findings.push({
      rule: `${variable.replaceAll('_', '-')}-unreadable`,
      variable,
      severity: 'error',
      message:
        code === 'ENOENT' || code === 'EACCES'
          ? `Cannot read the ${what} file ${path} (${variable}): ${code === 'ENOENT' ? 'no such file' : 'permission denied'}.`
          : messageOf(error),
      advice:
        code === 'EACCES'
          ? `Run as a user who can read ${path}.`
          : (textOf(memberOf(error, 'advice')) ?? `Check the path in ${variable}.`),
    });
    return undefined;
  }
}
