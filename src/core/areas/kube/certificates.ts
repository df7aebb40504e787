/**
 * `kube.certificates`: every Certificate in the platform's namespaces, judged as cmctl does. A
 * Certificate that is Ready, current (its condition of its latest generation, no issuance failing, its
 * renewal time not passed) and whose secret really holds a valid certificate with its key is fine; for
 * any other one the walk below it (certificate-status.ts) names the stuck step, the object and
 * cert-manager's reason. Pure: the objects are read elsewhere (checks.ts).
 */
import type { CertificateFact, CheckResult, Status, StuckStepFact } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { memberOf, numberOf, textOf, textsOf } from '../../records.js';
import { objectName, readCondition, type CmObject } from '../../kube/objects.js';
import { issuanceCause, type IssuanceCause, type IssuanceObjects } from './certificate-status.js';
import { certificateFact, secretProblems, type SecretCertificate } from './secret-certificate.js';

export interface CertificatesSnapshot {
  certificates: CmObject[];
  issuance: IssuanceObjects;
  /** ClusterIssuers and (namespaced) Issuers that exist. */
  clusterIssuers: CmObject[];
  issuers: CmObject[];
  /** TLS secrets read, by `namespace/name`. */
  secrets: Map<string, SecretCertificate>;
  events: CmObject[];
  platformIssuer: string;
  ingressClass: string;
  issuerType?: string;
  namespaces: string[];
  /** kube.cert-manager found the controller not running: stale state is its finding, not each Certificate's. */
  controllerDown?: boolean;
  now: Date;
}

export interface CertificateVerdict {
  name: string;
  status: Status;
  secret?: string;
  issuer?: string;
  notAfter?: string;
  reason?: string;
  summary?: string;
  advice?: string;
  stuck?: StuckStepFact;
  inProgress?: boolean;
  retryAt?: string;
  events?: string[];
}

const HOUR_MS = 3_600_000;

/** When cert-manager tries again after `attempts` failed issuances: 1 h, doubling per failure, at most 32 h. */
export function retryTime(lastFailure: string | undefined, attempts: number | undefined): string | undefined {
  const at = Date.parse(lastFailure ?? '');
  if (!Number.isFinite(at) || !attempts || attempts < 1) return undefined;
  return new Date(at + Math.min(2 ** (attempts - 1), 32) * HOUR_MS).toISOString();
}

/** The latest events of an object, newest first, as `Reason: message` lines. */
export function recentEvents(events: CmObject[], kind: string, namespace: string | undefined, name: string | undefined, limit = 3): string[] {
  const time = (e: CmObject) => Date.parse(String(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '')) || 0;
  return events
    .filter((e) => {
      const about = e.involvedObject;
      return textOf(memberOf(about, 'kind')) === kind && textOf(memberOf(about, 'name')) === name
        && (textOf(memberOf(about, 'namespace')) ?? '') === (namespace ?? '');
    })
    .sort((a, b) => time(b) - time(a))
    .slice(0, limit)
    .map((e) => escapeLine(`${String(e.type ?? '')} ${String(e.reason ?? '')}: ${String(e.message ?? '')}`.trim()));
}

function issuerOf(certificate: CmObject, s: CertificatesSnapshot): { object: string; name: string; exists: boolean; platform: boolean } {
  const ref = certificate.spec?.issuerRef;
  const kind = textOf(memberOf(ref, 'kind')) || 'Issuer';
  const name = textOf(memberOf(ref, 'name')) ?? '';
  const group = textOf(memberOf(ref, 'group'));
  const external = group !== undefined && group !== '' && group !== 'cert-manager.io';
  const ns = certificate.metadata?.namespace;
  const exists = external || (kind === 'ClusterIssuer'
    ? s.clusterIssuers.some((i) => i.metadata?.name === name)
    : s.issuers.some((i) => i.metadata?.name === name && i.metadata?.namespace === ns));
  return { object: kind === 'ClusterIssuer' ? `ClusterIssuer ${name}` : `Issuer ${ns}/${name}`, name, exists, platform: kind === 'ClusterIssuer' && name === s.platformIssuer };
}

export function judgeCertificate(certificate: CmObject, s: CertificatesSnapshot): CertificateVerdict {
  const ns = certificate.metadata?.namespace ?? '';
  const name = `${ns}/${certificate.metadata?.name ?? '?'}`;
  const spec = { secretName: textOf(certificate.spec?.secretName), dnsNames: textsOf(certificate.spec?.dnsNames) };
  const raw = certificate.status;
  const status = {
    notAfter: textOf(raw?.notAfter), renewalTime: textOf(raw?.renewalTime),
    failedIssuanceAttempts: numberOf(raw?.failedIssuanceAttempts), lastFailureTime: textOf(raw?.lastFailureTime),
  };
  const ready = readCondition(certificate, 'Ready');
  const issuing = readCondition(certificate, 'Issuing');
  const issuer = issuerOf(certificate, s);
  const secretKey = spec.secretName ? `${ns}/${spec.secretName}` : undefined;
  const secret = secretKey ? s.secrets.get(secretKey) : undefined;
  const row: CertificateVerdict = { name, status: 'ok', secret: spec.secretName, issuer: issuer.name, notAfter: secret?.leaf?.notAfter ?? status.notAfter, reason: ready?.reason };
  const self = objectName(certificate, 'Certificate');
  const said = ready ? `${ready.reason ?? ready.status}${ready.message ? `: ${escapeLine(ready.message)}` : ''}` : 'no Ready condition yet';
  const stuck = (step: StuckStepFact['step'], object: string, reason: string) => ({ step, object, reason });

  if (!issuer.exists) {
    return { ...row, status: 'fail', summary: `its issuer ${issuer.object} does not exist`, stuck: stuck('issuer', issuer.object, 'NotFound'),
      advice: issuer.name === s.platformIssuer
        ? `The platform's ClusterIssuer ${s.platformIssuer} is missing: deploy the inventory (kube.issuer says the same).`
        : `${name} asks for ${issuer.object}, which does not exist (the platform's issuer is ${s.platformIssuer}): correct the cert-manager.io/cluster-issuer annotation of the ingress that made it, or the Certificate's issuerRef.` };
  }
  const renewalDue = Date.parse(status.renewalTime ?? '') <= s.now.getTime();
  const problems = secret ? secretProblems(secret, s.now, spec.dnsNames) : [];
  const retryAt = retryTime(status.lastFailureTime, status.failedIssuanceAttempts);
  const failing = issuing?.status === 'False' && (status.failedIssuanceAttempts ?? 0) > 0;
  const current = ready?.status === 'True' && !ready.stale && issuing?.status !== 'True' && !failing && !renewalDue && problems.length === 0 && (secret !== undefined || !secretKey);
  if (current) return row;

  if (ready?.stale && issuing?.status !== 'True') {
    return { ...row, status: 'warn', stuck: stuck('controller', self, 'Stale'),
      summary: `its Ready condition is of generation ${ready.observedGeneration}, the Certificate is at ${ready.generation}: cert-manager has not looked at the change`,
      advice: s.controllerDown ? 'cert-manager\'s controller is not running (kube.cert-manager says why).' : `cert-manager's controller has not processed it: read its log (kubectl logs -n cert-manager deploy/cert-manager) for ${name}.` };
  }
  const walk = issuanceCause(certificate, s.issuance, s.ingressClass);
  const withEvents = (v: CertificateVerdict, cause?: IssuanceCause): CertificateVerdict => {
    const [kind, ref] = (cause?.object ?? '').split(' ');
    const events = [...(cause ? recentEvents(s.events, kind, ref?.split('/')[0], ref?.split('/')[1]) : []), ...recentEvents(s.events, 'Certificate', ns, certificate.metadata?.name)];
    return events.length ? { ...v, events } : v;
  };
  const fromWalk = (cause: IssuanceCause, status: Status, extra = ''): CertificateVerdict => withEvents({
    ...row, status, summary: `${cause.object}: ${cause.summary}${extra}`, stuck: stuck(cause.step, cause.object, cause.reason), inProgress: cause.inProgress,
    advice: cause.step === 'issuer' && issuer.platform ? `${cause.advice}` : cause.advice, ...(retryAt ? { retryAt } : {}),
  }, cause);
  const servesValid = ready?.status === 'True' && problems.every((p) => !p.fatal);

  if (issuing?.status === 'True') {
    const why = ready?.reason === 'IncorrectIssuer' ? ' (its secret was issued by another issuer)' : ready?.status === 'True' ? ' (a renewal)' : '';
    if (!walk || walk.inProgress) {
      return withEvents({ ...row, status: servesValid ? 'ok' : 'warn', inProgress: true,
        summary: `cert-manager is issuing it${why}${walk ? `: ${walk.object}: ${walk.summary}` : ''}`,
        ...(servesValid ? {} : { advice: 'Nothing to do: cert-manager is issuing it and replaces the secret when done.' }),
        ...(walk ? { stuck: stuck(walk.step, walk.object, walk.reason) } : {}) }, walk);
    }
    return fromWalk(walk, servesValid ? 'warn' : 'fail');
  }
  if (failing) {
    const when = retryAt ? `; cert-manager tries again at ${retryAt} (after ${status.failedIssuanceAttempts} failed attempts, the last at ${status.lastFailureTime})` : '';
    if (walk && !walk.inProgress) return fromWalk(walk, servesValid ? 'warn' : 'fail', when);
    return withEvents({ ...row, status: servesValid ? 'warn' : 'fail', retryAt, stuck: stuck('request', self, issuing?.reason ?? 'Failed'),
      summary: `its issuance failed (${escapeLine(issuing?.message ?? issuing?.reason ?? 'Failed')})${when}`,
      advice: 'Read the message and the events; fix what they name and cert-manager retries by itself at the time above ("cmctl renew" retries at once).' });
  }
  if (ready?.status !== 'True') {
    // A request of the current revision under way: its walk says where it stands, even without an Issuing condition.
    if (walk) return fromWalk(walk, ready?.status === 'False' ? 'fail' : 'warn');
    return withEvents({ ...row, status: ready?.status === 'False' ? 'fail' : 'warn', stuck: stuck('controller', self, ready?.reason ?? 'NoCondition'),
      summary: `not Ready (${said}) and cert-manager is not issuing it`,
      advice: s.controllerDown ? 'cert-manager\'s controller is not running (kube.cert-manager says why).' : `Read "kubectl describe certificate -n ${ns} ${certificate.metadata?.name}" and the cert-manager controller log.` });
  }
  if (!secret && secretKey) {
    return { ...row, status: 'fail', stuck: stuck('secret', `Secret ${secretKey}`, 'NotFound'), summary: `it says Ready but its secret ${secretKey} does not exist`,
      advice: s.controllerDown ? 'cert-manager\'s controller is not running (kube.cert-manager): once it runs it issues the secret again.' : `cert-manager re-issues a missing secret by itself; if it does not, read its controller log ("cmctl renew ${certificate.metadata?.name} -n ${ns}" starts it).` };
  }
  if (problems.length) {
    return { ...row, status: 'fail', stuck: stuck('secret', `Secret ${secretKey}`, problems.map((p) => p.phrase.replace(/^its /, '')).join('; ')),
      summary: `it says Ready but the secret ${secretKey}: ${problems.map((p) => p.phrase).join('; ')}`,
      advice: s.controllerDown ? 'cert-manager\'s controller is not running (kube.cert-manager): it re-issues the secret once it runs.' : `cert-manager has not noticed: "cmctl renew ${certificate.metadata?.name} -n ${ns}" makes it issue the secret again; if nothing changes read its controller log.` };
  }
  // The renewal time passed and cert-manager did not start: its controller is not processing.
  return { ...row, status: 'warn', stuck: stuck('controller', self, 'RenewalDue'), summary: `its renewal time ${status.renewalTime} has passed and cert-manager has not started renewing`,
    advice: s.controllerDown ? 'cert-manager\'s controller is not running (kube.cert-manager says why).' : 'Read the cert-manager controller log; "cmctl renew" starts the renewal at once.' };
}

export function certificatesResult(s: CertificatesSnapshot): CheckResult {
  const where = s.namespaces.join(', ');
  const certificates: CertificateFact[] = [];
  for (const c of s.certificates) {
    const key = `${c.metadata?.namespace}/${textOf(c.spec?.secretName)}`;
    const fact = s.secrets.has(key) ? certificateFact(s.secrets.get(key)!) : undefined;
    if (fact) certificates.push(fact);
  }
  if (s.certificates.length === 0) {
    return s.issuerType === 'none'
      ? { status: 'ok', message: `No Certificate in ${where}, as expected with a supplied wildcard (issuer none).` }
      : { status: 'warn', message: `No Certificate in ${where}.`, advice: 'The platform has not been deployed with this inventory yet, or its ingresses lack the cert-manager annotation.' };
  }
  const rows = s.certificates.map((c) => judgeCertificate(c, s));
  const bad = rows.filter((r) => r.status !== 'ok');
  const renewing = rows.filter((r) => r.status === 'ok' && r.inProgress);
  const details = { certificates: rows, namespaces: s.namespaces };
  if (bad.length === 0) {
    const note = renewing.length ? `; cert-manager is renewing ${renewing.map((r) => r.name).join(', ')}` : '';
    return { status: 'ok', message: `All ${rows.length} Certificates in ${where} are Ready and their secrets hold valid certificates with their keys${note}.`, details, certificates };
  }
  const worst = bad.find((r) => r.status === 'fail') ?? bad[0];
  const advice = [...new Set(bad.map((r) => (r.advice ? `${r.name}: ${r.advice}` : undefined)).filter((a): a is string => Boolean(a)))];
  return {
    status: worst.status,
    message: `${bad.length} of ${rows.length} Certificates in ${where} are not Ready or not current: ${bad.map((r) => `${r.name}: ${r.summary}`).join('; ')}.`,
    ...(advice.length ? { advice: advice.join(' ') } : {}),
    details,
    certificates,
    ...(worst.stuck ? { stuck: worst.stuck } : {}),
  };
}
