/**
 * `kube.certificates`: every Certificate in the platform's namespaces, judged as cmctl does. A
 * Certificate that is Ready, current (its condition of its latest generation, no issuance failing, its
 * renewal time not passed) and whose secret really holds a valid certificate with its key is fine; for
 * any other one the walk below it (certificate-status.ts) names the stuck step, the object and
 * cert-manager's reason, said with cert-manager's own table. The certificate served comes first: an
 * expired one is said before why it was not renewed. Certificates stuck on one thing (an issuer that is
 * missing or not Ready) make one finding. Pure: the objects are read elsewhere (checks.ts).
 */
import type { CertificatesFacts } from './facts.js';
import type { CertificateFact, CheckResult, Verdict as Status, StuckStepFact } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { memberOf, numberOf, textOf, textsOf } from '../../records.js';
import { readCondition, type CmObject } from '../../kube/objects.js';
import { explainReason, fillIn } from '../../kube/cert-manager-reasons.js';
import { acmeProblemOf } from '../../kube/acme-problems.js';
import { readLiveIssuer, type IssuerHints } from '../../kube/live-issuer.js';
import { issuanceCause, type IssuanceCause, type IssuanceObjects } from './certificate-status.js';
import { certificateFact, secretProblems, type SecretCertificate } from './secret-certificate.js';
import { judgeIssuer, type IssuerVerdict } from './issuer.js';
import { recentEvents } from './events.js';
import { CERTIFICATE, CERTIFICATES } from './messages/certificates.js';

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
  /** Which secrets hold the platform's self-signed CA (see kube/live-issuer.ts). */
  issuerHints?: IssuerHints;
  /** Every Certificate read (not only those judged): the ones that make a CA issuer's Secret are named. */
  allCertificates?: CmObject[];
  now: Date;
}

export interface CertificateVerdict {
  name: string;
  status: Status;
  secret?: string;
  issuer?: string;
  notAfter?: string;
  reason?: string;
  /** The cause's code: cert-manager's reason, an ACME problem (`acme:caa`), a solver case. */
  cause?: string;
  summary?: string;
  advice?: string;
  stuck?: StuckStepFact;
  inProgress?: boolean;
  retryAt?: string;
  events?: string[];
  /** Certificates with the same root cause are said once. */
  root?: string;
}

const HOUR_MS = 3_600_000;

/** When cert-manager tries again after `attempts` failed issuances: 1 h, doubling per failure, at most 32 h. */
export function retryTime(lastFailure: string | undefined, attempts: number | undefined): string | undefined {
  const at = Date.parse(lastFailure ?? '');
  if (!Number.isFinite(at) || !attempts || attempts < 1) return undefined;
  return new Date(at + Math.min(2 ** (attempts - 1), 32) * HOUR_MS).toISOString();
}

interface IssuerState {
  kind: string;
  name: string;
  /** `ClusterIssuer atmosphere`, `Issuer openstack/octavia-client`. */
  ref: string;
  exists: boolean;
  platform: boolean;
  mechanism?: string;
  verdict?: IssuerVerdict;
  /** The same name exists as the other kind (the annotation or issuerRef names the wrong kind). */
  otherKind?: string;
}

/** The issuer as the Certificate references it: kind (Issuer when unset, as cert-manager reads it) and name. */
function issuerOf(certificate: CmObject, s: CertificatesSnapshot): IssuerState {
  const ref = certificate.spec?.issuerRef;
  const kind = textOf(memberOf(ref, 'kind')) || 'Issuer';
  const name = textOf(memberOf(ref, 'name')) ?? '';
  const group = textOf(memberOf(ref, 'group'));
  const ns = certificate.metadata?.namespace;
  const shown = kind === 'ClusterIssuer' ? `ClusterIssuer ${name}` : `${kind} ${ns}/${name}`;
  const platform = kind === 'ClusterIssuer' && name === s.platformIssuer;
  if (group !== undefined && group !== '' && group !== 'cert-manager.io')
    return { kind, name, ref: `${shown} (${group})`, exists: true, platform };
  const live =
    kind === 'ClusterIssuer'
      ? s.clusterIssuers.find((i) => i.metadata?.name === name)
      : kind === 'Issuer'
        ? s.issuers.find((i) => i.metadata?.name === name && i.metadata?.namespace === ns)
        : undefined;
  if (!live) {
    const otherKind =
      kind === 'ClusterIssuer'
        ? s.issuers.some((i) => i.metadata?.name === name && i.metadata?.namespace === ns)
          ? `Issuer ${ns}/${name}`
          : undefined
        : s.clusterIssuers.some((i) => i.metadata?.name === name)
          ? `ClusterIssuer ${name}`
          : undefined;
    return { kind, name, ref: shown, exists: false, platform, ...(otherKind ? { otherKind } : {}) };
  }
  // Judged once per issuer, however many Certificates name it.
  let judged = JUDGED.get(live);
  if (!judged)
    JUDGED.set(live, (judged = judgeIssuer(readLiveIssuer(live, s.issuerHints), s.allCertificates ?? s.certificates)));
  return { kind, name, ref: shown, exists: true, platform, mechanism: judged.issuer.mechanism, verdict: judged };
}

const JUDGED = new WeakMap<CmObject, IssuerVerdict>();

function missingIssuer(
  certificate: string,
  issuer: IssuerState,
  s: CertificatesSnapshot,
): Pick<CertificateVerdict, 'summary' | 'advice' | 'root'> {
  if (issuer.platform) {
    return {
      summary: CERTIFICATE.issuerMissing(issuer.ref),
      root: `issuer-missing:${issuer.ref}`,
      advice: CERTIFICATES.platformIssuerMissing(s.platformIssuer),
    };
  }
  if (issuer.otherKind) {
    const annotation = issuer.kind === 'ClusterIssuer' ? 'cert-manager.io/issuer' : 'cert-manager.io/cluster-issuer';
    return {
      summary: CERTIFICATE.otherKindExists(issuer.ref, issuer.otherKind),
      root: `issuer-missing:${issuer.ref}`,
      advice: CERTIFICATES.wrongIssuerKind(certificate, issuer.otherKind.split(' ')[0], annotation, issuer.ref),
    };
  }
  return {
    summary: CERTIFICATE.issuerMissing(issuer.ref),
    root: `issuer-missing:${issuer.ref}`,
    advice:
      issuer.kind === 'ClusterIssuer'
        ? CERTIFICATES.askedForMissingClusterIssuer(certificate, issuer.ref, s.platformIssuer)
        : CERTIFICATES.askedForMissingIssuer(certificate, issuer.ref),
  };
}

export function judgeCertificate(certificate: CmObject, s: CertificatesSnapshot): CertificateVerdict {
  const ns = certificate.metadata?.namespace ?? '';
  const name = `${ns}/${certificate.metadata?.name ?? '?'}`;
  const spec = { secretName: textOf(certificate.spec?.secretName), dnsNames: textsOf(certificate.spec?.dnsNames) };
  const raw = certificate.status;
  const status = {
    notAfter: textOf(raw?.notAfter),
    renewalTime: textOf(raw?.renewalTime),
    failedIssuanceAttempts: numberOf(raw?.failedIssuanceAttempts),
    lastFailureTime: textOf(raw?.lastFailureTime),
  };
  const ready = readCondition(certificate, 'Ready');
  const issuing = readCondition(certificate, 'Issuing');
  const issuer = issuerOf(certificate, s);
  const secretKey = spec.secretName ? `${ns}/${spec.secretName}` : undefined;
  const secret = secretKey ? s.secrets.get(secretKey) : undefined;
  const row: CertificateVerdict = {
    name,
    status: 'ok',
    secret: spec.secretName,
    issuer: issuer.ref,
    notAfter: secret?.leaf?.notAfter ?? status.notAfter,
    reason: ready?.reason,
  };
  const self = `Certificate ${name}`;
  const stuck = (step: StuckStepFact['step'], object: string, reason: string) => ({ step, object, reason });
  const events = recentEvents(s.events, certificate);
  const withEvents = (v: CertificateVerdict, cause?: IssuanceCause): CertificateVerdict => {
    const lines = [...(cause ? causeEvents(s.events, cause) : []), ...events];
    return lines.length ? { ...v, events: [...new Set(lines)] } : v;
  };

  const problems = secret ? secretProblems(secret, s.now, spec.dnsNames) : [];
  const expired = problems.find((p) => p.code === 'expired');
  // The certificate served comes first: an expired one is the finding, why it was not renewed its cause.
  const served = (v: CertificateVerdict): CertificateVerdict =>
    expired && v.status !== 'ok'
      ? {
          ...v,
          status: 'fail',
          summary: CERTIFICATE.expired(secretKey, secret?.leaf?.notAfter, v.summary ?? ''),
        }
      : v;

  if (!issuer.exists) {
    return served({
      ...row,
      status: 'fail',
      stuck: stuck('issuer', issuer.ref, 'NotFound'),
      cause: 'IssuerNotFound',
      ...missingIssuer(name, issuer, s),
    });
  }
  const renewalDue = Date.parse(status.renewalTime ?? '') <= s.now.getTime();
  const retryAt = retryTime(status.lastFailureTime, status.failedIssuanceAttempts);
  const failing = issuing?.status === 'False' && (status.failedIssuanceAttempts ?? 0) > 0;
  const current =
    ready?.status === 'True' &&
    !ready.stale &&
    issuing?.status !== 'True' &&
    !failing &&
    !renewalDue &&
    problems.length === 0 &&
    (secret !== undefined || !secretKey);
  if (current) return row;

  if (ready?.stale && issuing?.status !== 'True') {
    return served({
      ...row,
      status: 'warn',
      stuck: stuck('controller', self, 'Stale'),
      cause: 'Stale',
      summary: CERTIFICATE.stale(ready.observedGeneration, ready.generation),
      advice: s.controllerDown ? CERTIFICATES.controllerDown : CERTIFICATES.readControllerLog(name),
    });
  }
  const walk = issuanceCause(certificate, s.issuance, {
    ingressClass: s.ingressClass,
    events: s.events,
    now: s.now,
    issuerRef: issuer.ref,
    issuerMechanism: issuer.mechanism,
  });
  const servesValid = ready?.status === 'True' && problems.every((p) => !p.fatal);
  // The issuer is not Ready: the root cause of every Certificate it should issue (kube.issuer or kube.issuers says why).
  const issuerDown =
    issuer.verdict && issuer.verdict.status === 'fail' && (!walk || walk.inProgress || walk.step === 'issuer')
      ? issuer.verdict
      : undefined;
  const fromIssuer = (v: IssuerVerdict, state: Status): CertificateVerdict =>
    withEvents({
      ...row,
      status: state,
      stuck: v.stuck ?? stuck('issuer', issuer.ref, 'NotReady'),
      cause: v.code,
      root: `issuer:${issuer.ref}`,
      summary: CERTIFICATE.issuerNotReady(issuer.ref, issuer.platform ? 'kube.issuer' : 'kube.issuers'),
      advice: v.advice,
    });
  const fromWalk = (cause: IssuanceCause, state: Status, extra = ''): CertificateVerdict =>
    withEvents(
      {
        ...row,
        status: state,
        summary: CERTIFICATE.atObject(cause.object, cause.summary, extra),
        stuck: stuck(cause.step, cause.object, cause.reason),
        inProgress: cause.inProgress,
        cause: cause.kind,
        advice: cause.advice,
        ...(cause.root ? { root: cause.root } : {}),
        ...((cause.retryAfter ?? retryAt) ? { retryAt: cause.retryAfter ?? retryAt } : {}),
      },
      cause,
    );

  if (issuing?.status === 'True') {
    if (issuerDown) return served(fromIssuer(issuerDown, servesValid ? 'warn' : 'fail'));
    const why =
      issuing.reason === 'IncorrectIssuer'
        ? CERTIFICATE.otherIssuer
        : issuing.reason === 'ManuallyTriggered'
          ? CERTIFICATE.byHand
          : ready?.status === 'True'
            ? CERTIFICATE.aRenewal
            : '';
    if (!walk || walk.inProgress) {
      return served(
        withEvents(
          {
            ...row,
            status: servesValid ? 'ok' : 'warn',
            inProgress: true,
            cause: walk?.kind ?? issuing.reason,
            summary: CERTIFICATE.issuing(why, walk ? CERTIFICATE.walkStep(walk.object, walk.summary) : ''),
            ...(servesValid
              ? {}
              : {
                  advice: walk?.advice && walk.kind === 'acme:rateLimited' ? walk.advice : CERTIFICATES.issuingReplaces,
                }),
            ...(walk
              ? {
                  stuck: stuck(walk.step, walk.object, walk.reason),
                  ...(walk.retryAfter ? { retryAt: walk.retryAfter } : {}),
                }
              : {}),
          },
          walk,
        ),
      );
    }
    return served(fromWalk(walk, servesValid ? 'warn' : 'fail'));
  }
  if (failing) {
    const when = retryAt ? CERTIFICATE.retriesAt(retryAt, status.failedIssuanceAttempts, status.lastFailureTime) : '';
    if (issuerDown)
      return served({ ...fromIssuer(issuerDown, servesValid ? 'warn' : 'fail'), ...(retryAt ? { retryAt } : {}) });
    if (walk && !walk.inProgress) return served(fromWalk(walk, servesValid ? 'warn' : 'fail', when));
    const message = issuing?.message ?? '';
    const problem = acmeProblemOf(message);
    const why = explainReason('Certificate Issuing', issuing?.reason, message);
    const cause = problem
      ? fillIn(problem.cause, { certificate: name, issuer: issuer.ref })
      : fillIn(why.cause, { certificate: name, issuer: issuer.ref });
    const fix = problem
      ? fillIn(problem.fix, { certificate: name, issuer: issuer.ref, retryAt: problem.retryAt ?? retryAt })
      : fillIn(why.fix, { certificate: name, issuer: issuer.ref });
    return served(
      withEvents({
        ...row,
        status: servesValid ? 'warn' : 'fail',
        retryAt: problem?.retryAt ?? retryAt,
        stuck: stuck('request', self, issuing?.reason ?? 'Failed'),
        cause: problem?.code ?? why.code,
        summary: CERTIFICATE.lastIssuanceFailed(
          cause,
          escapeLine(issuing?.reason ?? 'Failed'),
          message ? escapeLine(message) : '',
          when,
        ),
        advice: fix,
      }),
    );
  }
  if (ready?.status !== 'True') {
    const state = ready?.status === 'False' ? 'fail' : 'warn';
    if (issuerDown) return served(fromIssuer(issuerDown, state));
    // A request of the current revision under way: its walk says where it stands, even without an Issuing condition.
    if (walk) return served(fromWalk(walk, state));
    const why = ready ? explainReason('Certificate Ready', ready.reason, ready.message ?? '') : undefined;
    const said = ready
      ? CERTIFICATE.said(ready.reason ?? ready.status, ready.message ? escapeLine(ready.message) : undefined)
      : CERTIFICATE.noReadyCondition;
    return served(
      withEvents({
        ...row,
        status: state,
        stuck: stuck('controller', self, ready?.reason ?? 'NoCondition'),
        cause: why?.code ?? 'NoCondition',
        summary: CERTIFICATE.notReadyNotIssuing(
          said,
          why ? fillIn(why.cause, { certificate: name, issuer: issuer.ref }) : undefined,
        ),
        advice: s.controllerDown
          ? CERTIFICATES.controllerDown
          : why?.verdict === 'broken'
            ? fillIn(why.fix, { certificate: name, issuer: issuer.ref })
            : CERTIFICATES.shouldBeIssuing(name),
      }),
    );
  }
  if (!secret && secretKey) {
    return {
      ...row,
      status: 'fail',
      stuck: stuck('secret', `Secret ${secretKey}`, 'NotFound'),
      cause: 'DoesNotExist',
      summary: CERTIFICATE.secretMissing(secretKey),
      advice: s.controllerDown ? CERTIFICATES.controllerDownIssuesAgain : CERTIFICATES.reissuesMissingSecret(name),
    };
  }
  if (problems.length) {
    return {
      ...row,
      status: 'fail',
      stuck: stuck('secret', `Secret ${secretKey}`, problems.map((p) => p.phrase.replace(/^its /, '')).join('; ')),
      cause: problems[0].code,
      summary: CERTIFICATE.secretProblems(secretKey, problems.map((p) => p.phrase).join('; ')),
      advice: s.controllerDown ? CERTIFICATES.controllerDownReissues : CERTIFICATES.hasNotNoticed(name, secretKey),
    };
  }
  // The renewal time passed and cert-manager did not start: its controller is not processing.
  return {
    ...row,
    status: 'warn',
    stuck: stuck('controller', self, 'RenewalDue'),
    cause: 'RenewalDue',
    summary: CERTIFICATE.renewalNotStarted(status.renewalTime),
    advice: s.controllerDown ? CERTIFICATES.controllerDown : CERTIFICATES.startRenewal(name),
  };
}

/** The events of the object the walk stopped at. */
function causeEvents(events: CmObject[], cause: IssuanceCause): string[] {
  const [kind, ref] = cause.object.split(' ');
  const [namespace, name] = (ref ?? '').includes('/') ? (ref ?? '').split('/') : [undefined, ref];
  return recentEvents(events, { kind, metadata: { namespace, name } });
}

/** One line per root cause: Certificates stuck on the same thing are named together. */
function findings(bad: CertificateVerdict[]): { line: string; advice?: string }[] {
  const groups = new Map<string, CertificateVerdict[]>();
  for (const row of bad) {
    const key = row.root ?? `certificate:${row.name}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((rows) => {
    const first = rows[0];
    const who = rows.length > 1 ? `${rows.map((r) => r.name).join(', ')}` : first.name;
    // Several Certificates share the root cause: its fix is said once, for the object at fault.
    const whose = rows.length > 1 ? (first.stuck?.object ?? first.issuer ?? who) : first.name;
    return {
      line: CERTIFICATE.finding(who, first.summary),
      ...(first.advice ? { advice: CERTIFICATE.fixFor(whose, first.advice) } : {}),
    };
  });
}

export function certificatesResult(s: CertificatesSnapshot): CheckResult<CertificatesFacts> {
  const where = s.namespaces.join(', ');
  const certificates: CertificateFact[] = [];
  for (const c of s.certificates) {
    const key = `${c.metadata?.namespace}/${textOf(c.spec?.secretName)}`;
    const fact = s.secrets.has(key) ? certificateFact(s.secrets.get(key)!) : undefined;
    if (fact) certificates.push(fact);
  }
  if (s.certificates.length === 0) {
    return s.issuerType === 'none'
      ? { status: 'ok', message: CERTIFICATES.noneAsExpected(where) }
      : { status: 'warn', message: CERTIFICATES.none(where), advice: CERTIFICATES.notDeployed };
  }
  const rows = s.certificates.map((c) => judgeCertificate(c, s));
  const bad = rows.filter((r) => r.status !== 'ok');
  const renewing = rows.filter((r) => r.status === 'ok' && r.inProgress);
  const facts = { certificates: rows, namespaces: s.namespaces };
  if (bad.length === 0) {
    const note = renewing.length ? CERTIFICATES.renewing(renewing.map((r) => r.name).join(', ')) : '';
    return { status: 'ok', message: CERTIFICATES.allReady(rows.length, where, note), facts, certificates };
  }
  const worst = bad.find((r) => r.status === 'fail') ?? bad[0];
  const said = findings(bad);
  const advice = [...new Set(said.map((f) => f.advice).filter((a): a is string => Boolean(a)))];
  return {
    status: worst.status,
    message: CERTIFICATES.notReady(bad.length, rows.length, where, said.map((f) => f.line).join('; ')),
    ...(advice.length ? { advice: advice.join(' ') } : {}),
    facts,
    certificates,
    ...(worst.stuck ? { stuck: worst.stuck } : {}),
  };
}
