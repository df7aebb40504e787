/**
 * `cloudgate inspect secret NAMESPACE/NAME`: a TLS secret decoded as `cmctl inspect secret` does, and
 * judged as the ingress controller will read it: every certificate of tls.crt in the order given (names,
 * validity, issuer, whether the next one issued it), whether tls.key belongs to the first one, ca.crt, and
 * cert-manager's annotations (which issuer issued it, for which Certificate). Each problem is said once,
 * at its root: a chain out of order is one finding, not also "the key does not match" and "the names are
 * not covered". The key is registered as a secret before anything reads it and never leaves here.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { escapeLine } from '../../escape.js';
import { kubectlGet, type KubectlOptions } from '../../kube/kubectl.js';
import type { CmObject } from '../../kube/objects.js';
import { refText, type ObjectRef } from '../../kube/object-ref.js';
import { asRecord, textOf } from '../../records.js';
import { registerSecret } from '../../secrets.js';
import { analyseOrder, isIssuedBy, isSelfSigned, label, sameKey } from '../../tls/chain.js';
import { DAY_MS, EXPIRY_WARNING_DAYS } from '../../tls/checks.js';
import { describeKey, parseCertificates, PemError, type ParsedCertificate } from '../../tls/pem.js';
import { INSPECT } from './messages/inspect.js';

export interface CertificateDescription {
  /** 1-based position in tls.crt (or ca.crt). */
  position: number;
  subject: string;
  issuer: string;
  dnsNames: string[];
  otherNames: string[];
  notBefore: string;
  notAfter: string;
  serialNumber: string;
  sha256: string;
  isCA: boolean;
  publicKey: string;
  selfSigned: boolean;
  /** The next certificate of the chain issued this one (undefined for the last). */
  issuedByNext?: boolean;
}

export type KeyState = 'matches' | 'mismatch' | 'missing' | 'unreadable' | 'belongs-to-another';

export interface SecretFinding {
  severity: 'fail' | 'warn';
  code:
    | 'no-certificate'
    | 'unreadable-certificate'
    | 'key-missing'
    | 'key-unreadable'
    | 'key-mismatch'
    | 'chain-order'
    | 'expired'
    | 'not-yet-valid'
    | 'expires-soon'
    | 'names-differ'
    | 'not-tls-type';
  message: string;
  advice: string;
}

export interface SecretInspection {
  schema: 'cloudgate.inspect-secret/v1';
  secret: { namespace: string; name: string; type?: string; keys: string[]; annotations: Record<string, string> };
  certificates: CertificateDescription[];
  caCertificates: CertificateDescription[];
  key: { state: KeyState; type?: string; belongsTo?: number };
  chain: { inOrder: boolean; rightOrder?: number[]; endsAt?: string; root?: 'included' | 'in ca.crt' | 'not included' };
  findings: SecretFinding[];
  status: 'ok' | 'warn' | 'fail';
}

const ANNOTATION = /^cert-manager\.io\//;
const decode = (data: Record<string, unknown> | undefined, key: string) => {
  const value = textOf(data?.[key]);
  return value ? Buffer.from(value, 'base64').toString('utf8') : '';
};

function describe(c: ParsedCertificate, position: number, next?: ParsedCertificate): CertificateDescription {
  const names = (c.x509.subjectAltName ?? '').split(/,\s*/).filter(Boolean);
  const key = c.x509.publicKey;
  return {
    position,
    subject: c.x509.subject.replaceAll('\n', ', '),
    issuer: c.x509.issuer.replaceAll('\n', ', '),
    dnsNames: names.filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4)),
    otherNames: names.filter((n) => !n.startsWith('DNS:')),
    notBefore: new Date(c.x509.validFrom).toISOString(),
    notAfter: new Date(c.x509.validTo).toISOString(),
    serialNumber: c.x509.serialNumber,
    sha256: c.x509.fingerprint256,
    isCA: c.x509.ca,
    publicKey: describeKey({
      asymmetricKeyType: key.asymmetricKeyType,
      asymmetricKeyDetails: key.asymmetricKeyDetails,
    }),
    selfSigned: isSelfSigned(c),
    ...(next ? { issuedByNext: isIssuedBy(c, next) } : {}),
  };
}

function readCertificates(pem: string, source: string): { parsed: ParsedCertificate[]; error?: string } {
  if (!pem.trim()) return { parsed: [] };
  try {
    return { parsed: parseCertificates(pem, source).certificates };
  } catch (error) {
    if (error instanceof PemError) return { parsed: [], error: error.message };
    throw error;
  }
}

/** The inspection of a Secret as kubectl returned it. Pure. */
export function inspectionOf(secret: CmObject, now: Date): SecretInspection {
  const ref = { namespace: secret.metadata?.namespace ?? '?', name: secret.metadata?.name ?? '?' };
  const where = refText(ref);
  const data = asRecord(secret.data);
  registerSecret(textOf(data?.['tls.key']));
  const keyPem = decode(data, 'tls.key');
  registerSecret(keyPem);
  const type = textOf(secret.type);
  const annotations = Object.fromEntries(
    Object.entries(secret.metadata?.annotations ?? {}).filter(([k]) => ANNOTATION.test(k)),
  );
  const findings: SecretFinding[] = [];
  const add = (severity: SecretFinding['severity'], code: SecretFinding['code'], message: string, advice: string) =>
    findings.push({ severity, code, message, advice });

  const tls = readCertificates(decode(data, 'tls.crt'), `${where} tls.crt`);
  const ca = readCertificates(decode(data, 'ca.crt'), `${where} ca.crt`);
  const certs = tls.parsed;
  let key: KeyObject | undefined;
  let keyState: KeyState = 'missing';
  if (keyPem.trim()) {
    try {
      key = createPrivateKey(keyPem);
      keyState = 'mismatch';
    } catch {
      keyState = 'unreadable';
    }
  }
  const order = certs.length ? analyseOrder(certs, key) : undefined;
  const first = certs[0];
  const owner = key ? certs.findIndex((c) => sameKey(c, key)) : -1;
  if (key && owner === 0) keyState = 'matches';
  else if (key && owner > 0) keyState = 'belongs-to-another';

  if (type !== undefined && type !== 'kubernetes.io/tls') {
    add(
      'warn',
      'not-tls-type',
      INSPECT.notTlsType(where, escapeLine(type)),
      INSPECT.recreateAsTls(ref.name, ref.namespace),
    );
  }
  if (tls.error) add('fail', 'unreadable-certificate', escapeLine(tls.error), INSPECT.putChainInPem);
  else if (!certs.length) add('fail', 'no-certificate', INSPECT.noCertificate(where), INSPECT.tlsSecretNeeds);
  // The chain's order is the root cause of a key that "does not match" the first certificate.
  if (order && !order.inOrder) {
    const right = order.fixed?.map(label).join(', ');
    add(
      'fail',
      'chain-order',
      INSPECT.outOfOrder(owner > 0 ? label(certs[owner]) : undefined, order.problems.map(escapeLine).join(' '), right),
      INSPECT.putInOrder,
    );
  }
  if (certs.length && keyState === 'missing') add('fail', 'key-missing', INSPECT.noKey(where), INSPECT.putKey);
  if (keyState === 'unreadable') add('fail', 'key-unreadable', INSPECT.keyUnreadable(where), INSPECT.putUnencryptedKey);
  if (first && keyState === 'mismatch')
    add('fail', 'key-mismatch', INSPECT.keyOfNone(where), INSPECT.putMatchingKey(escapeLine(label(first))));
  if (keyState === 'belongs-to-another' && order?.inOrder)
    add(
      'fail',
      'key-mismatch',
      INSPECT.keyOfAnother(where, escapeLine(label(certs[owner]))),
      INSPECT.putKeysCertificateFirst,
    );

  const leaf = order?.fixed?.[0] ?? first;
  if (leaf) {
    const until = Date.parse(leaf.x509.validTo);
    const days = Math.floor((until - now.getTime()) / DAY_MS);
    if (until <= now.getTime())
      add(
        'fail',
        'expired',
        INSPECT.expired(escapeLine(label(leaf)), new Date(until).toISOString()),
        annotations['cert-manager.io/certificate-name']
          ? INSPECT.askWhyNotRenewed(ref.namespace, annotations['cert-manager.io/certificate-name'])
          : INSPECT.replaceSupplied,
      );
    else if (Date.parse(leaf.x509.validFrom) > now.getTime())
      add(
        'fail',
        'not-yet-valid',
        INSPECT.notYetValid(escapeLine(label(leaf)), new Date(leaf.x509.validFrom).toISOString()),
        INSPECT.checkIssuerClock,
      );
    else if (days < EXPIRY_WARNING_DAYS)
      add(
        'warn',
        'expires-soon',
        INSPECT.expiresSoon(escapeLine(label(leaf)), days, new Date(until).toISOString()),
        annotations['cert-manager.io/certificate-name'] ? INSPECT.certManagerRenews : INSPECT.renewSupplied,
      );
    const said = annotations['cert-manager.io/alt-names'];
    const names = (leaf.x509.subjectAltName ?? '')
      .split(/,\s*/)
      .filter((n) => n.startsWith('DNS:'))
      .map((n) => n.slice(4))
      .sort();
    if (said !== undefined && said.split(',').filter(Boolean).sort().join(',') !== names.join(',')) {
      add(
        'warn',
        'names-differ',
        INSPECT.namesDiffer(escapeLine(said), names.join(', ')),
        INSPECT.renewToReissue(ref.namespace, annotations['cert-manager.io/certificate-name']),
      );
    }
  }
  const chainEnd = (order?.fixed ?? certs).at(-1);
  const root =
    chainEnd && isSelfSigned(chainEnd)
      ? ('included' as const)
      : chainEnd && ca.parsed.some((c) => isIssuedBy(chainEnd, c))
        ? ('in ca.crt' as const)
        : chainEnd
          ? ('not included' as const)
          : undefined;
  const status = findings.some((f) => f.severity === 'fail') ? 'fail' : findings.length ? 'warn' : 'ok';
  return {
    schema: 'cloudgate.inspect-secret/v1',
    secret: { ...ref, ...(type ? { type } : {}), keys: Object.keys(data ?? {}).sort(), annotations },
    certificates: certs.map((c, i) => describe(c, i + 1, certs[i + 1])),
    caCertificates: ca.parsed.map((c, i) => describe(c, i + 1)),
    key: {
      state: keyState,
      ...(key
        ? {
            type: describeKey({
              asymmetricKeyType: key.asymmetricKeyType,
              asymmetricKeyDetails: key.asymmetricKeyDetails,
            }),
          }
        : {}),
      ...(owner >= 0 ? { belongsTo: owner + 1 } : {}),
    },
    chain: {
      inOrder: order?.inOrder ?? true,
      ...(order && !order.inOrder && order.fixed ? { rightOrder: order.fixed.map((c) => c.index) } : {}),
      ...(chainEnd ? { endsAt: chainEnd.name } : {}),
      ...(root ? { root } : {}),
    },
    findings,
    status,
  };
}

/** Reads the secret (its key registered as a secret first) and inspects it; a missing one is an input error. */
export async function inspectSecret(kube: KubectlOptions, ref: ObjectRef, now = new Date()): Promise<SecretInspection> {
  const got = await kubectlGet(['get', 'secret', `--namespace=${ref.namespace}`, '--', ref.name], {
    ...kube,
    secretOutput: true,
  });
  if (!got.ok) {
    if (got.notFound) throw new UsageError(INSPECT.noSecret(refText(ref)), INSPECT.howToList(ref.namespace));
    throw new Error(INSPECT.cannotReadSecret(refText(ref), got.error));
  }
  // A Secret as kubectl returned it: its members are read one by one, unchecked.
  return inspectionOf(got.value as CmObject, now);
}

const line = (label: string, value: string | undefined) =>
  value === undefined || value === '' ? [] : [`${label}: ${escapeLine(value)}`];

/** The inspection as text, in the order cmctl prints it, then what is wrong and the fix. */
export function inspectionLines(i: SecretInspection): string[] {
  const out = [
    `Secret ${i.secret.namespace}/${i.secret.name}${i.secret.type ? ` (${i.secret.type})` : ''}, keys: ${i.secret.keys.join(', ') || 'none'}`,
  ];
  const a = i.secret.annotations;
  if (Object.keys(a).length) {
    out.push('cert-manager:');
    out.push(
      ...line(
        '  Issued by',
        a['cert-manager.io/issuer-name']
          ? `${a['cert-manager.io/issuer-kind'] ?? 'Issuer'} ${a['cert-manager.io/issuer-name']}${a['cert-manager.io/issuer-group'] ? ` (${a['cert-manager.io/issuer-group']})` : ''}`
          : undefined,
      ).map((l) => l),
    );
    out.push(
      ...line('  For Certificate', a['cert-manager.io/certificate-name']),
      ...line('  Common name', a['cert-manager.io/common-name']),
      ...line('  DNS names', a['cert-manager.io/alt-names']),
      ...line('  IP addresses', a['cert-manager.io/ip-sans']),
      ...line('  URIs', a['cert-manager.io/uri-sans']),
    );
  }
  const describeAll = (title: string, list: CertificateDescription[]) => {
    for (const c of list) {
      out.push(`${title} ${c.position}:`);
      out.push(
        ...line('  Subject', c.subject),
        ...line('  Issuer', c.issuer),
        ...line('  DNS names', c.dnsNames.join(', ')),
        ...line('  Other names', c.otherNames.join(', ')),
      );
      out.push(
        `  Valid: ${c.notBefore} to ${c.notAfter}`,
        `  Key: ${escapeLine(c.publicKey)}; CA: ${c.isCA ? 'yes' : 'no'}${c.selfSigned ? '; self-signed' : ''}`,
      );
      out.push(`  Serial: ${c.serialNumber}`, `  SHA-256: ${c.sha256}`);
      if (c.issuedByNext !== undefined) out.push(`  Issued by the next certificate: ${c.issuedByNext ? 'yes' : 'no'}`);
    }
  };
  describeAll('tls.crt certificate', i.certificates);
  describeAll('ca.crt certificate', i.caCertificates);
  const keyWords: Record<KeyState, string> = {
    matches: INSPECT.keyMatches,
    mismatch: INSPECT.keyMismatch,
    missing: INSPECT.keyMissing,
    unreadable: INSPECT.keyUnreadableShort,
    'belongs-to-another': INSPECT.keyBelongsTo(i.key.belongsTo),
  };
  out.push(`tls.key: ${i.key.type ? `${escapeLine(i.key.type)}, ` : ''}${keyWords[i.key.state]}`);
  out.push(
    `Chain: ${i.chain.inOrder ? 'in order' : `out of order${i.chain.rightOrder ? ` (right order: ${i.chain.rightOrder.join(', ')})` : ''}`}${i.chain.endsAt ? `, ends at ${escapeLine(i.chain.endsAt)} (root ${i.chain.root})` : ''}`,
  );
  out.push('');
  if (i.findings.length === 0) out.push(INSPECT.verdictOk);
  for (const f of i.findings) out.push(`${f.severity === 'fail' ? '✗' : '!'} ${f.message}`, `  Fix: ${f.advice}`);
  return out;
}
