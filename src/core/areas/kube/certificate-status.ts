/**
 * Why a cert-manager Certificate is not Ready: the walk `cmctl status certificate` makes, from the
 * Certificate to its CertificateRequest (owned by it, or annotated with its name, for the next
 * revision), the ACME Order the request owns and the Challenges the Order owns, ending at the deepest
 * object that says what is wrong. What each object says is read with cert-manager's own reasons
 * (kube/cert-manager-reasons.ts) and the ACME CA's problems (kube/acme-problems.ts), so the cause and the
 * fix are cert-manager's, in cloudgate's words; the objects' events are read too (an Order that never got
 * a Challenge says why only in its events). Pure: the objects are read elsewhere (checks.ts).
 */
import { escapeLine } from '../../escape.js';
import { conditionOf } from '../../kube/platform.js';
import type { CmObject } from '../../kube/objects.js';
import type { StuckStep } from '../../doctor/types.js';
import { explainReason, fillIn, requestReasonOf, type Explanation } from '../../kube/cert-manager-reasons.js';
import { acmeProblemOf, problemIn, retryAfter, type Problem } from '../../kube/acme-problems.js';
import { textOf } from '../../records.js';
import { latestEvent } from './events.js';
import { ISSUANCE, STUCK } from './messages/certificates.js';

export type { CmMeta, CmObject } from '../../kube/objects.js';
export { retryAfter };

export interface IssuanceObjects {
  requests: CmObject[];
  orders: CmObject[];
  challenges: CmObject[];
}

export interface IssuanceCause {
  /** What cert-manager's state says, as a stable code: a reason, an ACME problem (`acme:rateLimited`), a solver case. */
  kind: string;
  /** The step of the issuance that is stuck. */
  step: StuckStep;
  /** cert-manager's own reason or state, as it gives it. */
  reason: string;
  /** cert-manager is still working on it (no operator action yet). */
  inProgress?: boolean;
  /** The object that says it, e.g. "Challenge openstack/nova-api-1-2-3". */
  object: string;
  /** What is wrong, in one line (escaped). */
  summary: string;
  /** The name being validated (a Challenge's `spec.dnsName`). */
  dnsName?: string;
  /** When the ACME CA lets cert-manager try again (ISO 8601), from a rate limit's message. */
  retryAfter?: string;
  advice: string;
  /** Several Certificates stuck on this one thing (an issuer that is not Ready) share it: one finding. */
  root?: string;
}

/** What the walk is told besides the objects. */
export interface WalkContext {
  /** The HTTP-01 solver's ingress class (from the inventory). */
  ingressClass?: string;
  /** Every event read (only when something is not Ready). */
  events?: CmObject[];
  now?: Date;
  /** The issuer the Certificate names, as `Kind name`, and its mechanism (`acme`, `ca`, ...). */
  issuerRef?: string;
  issuerMechanism?: string;
}

const CERTIFICATE_NAME = 'cert-manager.io/certificate-name';
const CERTIFICATE_REVISION = 'cert-manager.io/certificate-revision';
/** A step cert-manager is still "working on" this long has stopped: say it as stuck. */
export const STALLED_AFTER_MS = 60 * 60_000;

const where = (o: CmObject) =>
  `${o.kind ?? 'object'} ${o.metadata?.namespace ?? ''}${o.metadata?.namespace ? '/' : ''}${o.metadata?.name ?? '?'}`;
const text = (value: unknown) => (typeof value === 'string' ? escapeLine(value) : '');
/** The first words of a reason that cert-manager gives as prose ("Waiting for DNS-01 challenge propagation: ..."). */
const shortReason = (reason: string) => escapeLine(reason.split(':')[0] ?? reason).slice(0, 80);
const ageMs = (o: CmObject, now: Date) =>
  now.getTime() - (Date.parse(o.metadata?.creationTimestamp ?? '') || now.getTime());
const minutes = (ms: number) => STUCK.minutes(Math.round(ms / 60_000));

/** `child` names `parent` among its owners (by uid when both have one, else by kind and name). */
export function ownedBy(child: CmObject, parent: CmObject, parentKind: string): boolean {
  return (child.metadata?.ownerReferences ?? []).some(
    (ref) =>
      ref.kind === parentKind &&
      (ref.uid && parent.metadata?.uid ? ref.uid === parent.metadata.uid : ref.name === parent.metadata?.name),
  );
}

const sameNamespace = (a: CmObject, b: CmObject) => (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
const newestFirst = (a: CmObject, b: CmObject) =>
  Date.parse(b.metadata?.creationTimestamp ?? '') - Date.parse(a.metadata?.creationTimestamp ?? '') || 0;

/**
 * The request of the issuance under way: revision `status.revision + 1` (1 for a Certificate never
 * issued), owned by the Certificate or annotated with its name. Several: the newest.
 */
export function findRequest(certificate: CmObject, requests: CmObject[]): CmObject | undefined {
  const revision = Number(certificate.status?.revision ?? 0) + 1;
  return requests
    .filter((r) => sameNamespace(r, certificate))
    .filter(
      (r) =>
        ownedBy(r, certificate, 'Certificate') ||
        r.metadata?.annotations?.[CERTIFICATE_NAME] === certificate.metadata?.name,
    )
    .filter((r) => r.metadata?.annotations?.[CERTIFICATE_REVISION] === String(revision))
    .sort(newestFirst)[0];
}

export function findOrder(request: CmObject, orders: CmObject[]): CmObject | undefined {
  return orders
    .filter((o) => sameNamespace(o, request) && ownedBy(o, request, 'CertificateRequest'))
    .sort(newestFirst)[0];
}

export function findChallenges(order: CmObject, challenges: CmObject[]): CmObject[] {
  return challenges.filter((c) => sameNamespace(c, order) && ownedBy(c, order, 'Order'));
}

interface Walk {
  certificate: string;
  ingressClass: string;
  events: CmObject[];
  now: Date;
  issuerRef?: string;
  issuerMechanism?: string;
}

const fill = (w: Walk, text: string, extra: { dnsName?: string; retryAt?: string } = {}) =>
  fillIn(text, { certificate: w.certificate, issuer: w.issuerRef, ingressClass: escapeLine(w.ingressClass), ...extra });

/** A problem read from an ACME or solver text, as the cause at `object`. */
function fromProblem(
  w: Walk,
  problem: Problem,
  object: CmObject,
  step: StuckStep,
  reason: string,
  said: string,
  dnsName?: string,
): IssuanceCause {
  const retry = problem.retryAt;
  const transient = problem.verdict === 'transient';
  return {
    kind: problem.code,
    step,
    reason,
    object: where(object),
    inProgress: transient || undefined,
    summary: STUCK.problem(fill(w, problem.cause, { dnsName }), retry, escapeLine(said)),
    advice: fill(w, problem.fix, { dnsName, retryAt: retry }),
    ...(dnsName ? { dnsName } : {}),
    ...(retry ? { retryAfter: retry } : {}),
  };
}

/** An explained reason (the table's cause and fix) as the cause at `object`. */
function fromReason(
  w: Walk,
  why: Explanation,
  object: CmObject | string,
  step: StuckStep,
  said: string,
): IssuanceCause {
  return {
    kind: why.code,
    step,
    reason: why.reason || 'unknown',
    object: typeof object === 'string' ? object : where(object),
    inProgress: why.verdict === 'transient' || undefined,
    summary: STUCK.reason(fill(w, why.cause), escapeLine(said)),
    advice: fill(w, why.fix),
  };
}

function challengeCause(w: Walk, challenge: CmObject): IssuanceCause | undefined {
  const spec = challenge.spec ?? {};
  const status = challenge.status ?? {};
  const reason = String(status.reason ?? '');
  const dnsName = text(spec.dnsName) || undefined;
  const type = String(spec.type ?? '');
  const state = String(status.state ?? '');
  if (state === 'valid') return undefined;
  const name = dnsName ?? '?';
  const base = {
    object: where(challenge),
    dnsName,
    step: 'challenge' as const,
    reason: shortReason(reason) || state || 'pending',
  };
  const event = latestEvent(w.events, challenge, 'Warning');
  // cert-manager 1.21 hides a cloud SDK's error in the reason ("<redacted AWS SDK error: ...>"); its event keeps it.
  const problem = problemIn(reason, type) ?? (event ? problemIn(event.message, type) : undefined);
  if (problem) {
    const cause = fromProblem(w, problem, challenge, 'challenge', base.reason, reason, dnsName);
    const code = /wrong status code '(\d{3})'/.exec(reason)?.[1];
    if (code) cause.reason = STUCK.selfCheckGot(code);
    // A step cert-manager retries by itself that has lasted an hour is no longer in progress.
    if (cause.inProgress && problem.code !== 'acme:rateLimited' && ageMs(challenge, w.now) > STALLED_AFTER_MS) {
      return {
        ...cause,
        inProgress: undefined,
        summary: STUCK.lastingFor(cause.summary, minutes(ageMs(challenge, w.now))),
      };
    }
    return cause;
  }
  if (state === 'invalid' || state === 'errored' || state === 'expired') {
    return {
      ...base,
      kind: `challenge-${state}`,
      summary: STUCK.challengeFailed(name, state, escapeLine(reason)),
      advice: fill(w, ISSUANCE.readChallengeThenRenew),
    };
  }
  if (status.presented !== true && (reason || event)) {
    const said = reason || event?.message || '';
    return {
      ...base,
      kind: 'present-error',
      summary: STUCK.cannotPresent(type, name, escapeLine(said)),
      advice: fill(w, ISSUANCE.readPresentError),
    };
  }
  const age = ageMs(challenge, w.now);
  const waiting = STUCK.challengeWaits(name, state, status.processing === true, escapeLine(reason));
  if (age > STALLED_AFTER_MS) {
    return {
      ...base,
      kind: 'challenge-stalled',
      summary: STUCK.stalledFor(waiting, minutes(age)),
      advice: fill(w, ISSUANCE.challengeStalled),
    };
  }
  return { ...base, kind: 'challenge-pending', inProgress: true, summary: waiting, advice: ISSUANCE.inProgress };
}

/** The challenge that says the most: the CA's refusal, then what needs the operator, then what is in progress. */
function worstChallenge(causes: IssuanceCause[]): IssuanceCause | undefined {
  const rank = (c: IssuanceCause) =>
    c.kind === 'acme:rateLimited' ? 0 : !c.inProgress ? (c.kind.startsWith('acme:') ? 1 : 2) : 3;
  return [...causes].sort((a, b) => rank(a) - rank(b))[0];
}

function orderCause(w: Walk, order: CmObject, challenges: CmObject[]): IssuanceCause | undefined {
  const state = String(order.status?.state ?? '');
  const reason = String(order.status?.reason ?? '');
  const problem = acmeProblemOf(reason);
  if (problem?.code === 'acme:rateLimited') return fromProblem(w, problem, order, 'order', 'rateLimited', reason);
  const fromChallenges = worstChallenge(
    challenges.map((c) => challengeCause(w, c)).filter((c): c is IssuanceCause => c !== undefined),
  );
  if (fromChallenges && !fromChallenges.inProgress) return fromChallenges;
  if (problem) return fromProblem(w, problem, order, 'order', state || 'errored', reason);
  if (state === 'invalid' || state === 'errored') {
    return {
      kind: `order-${state}`,
      step: 'order',
      reason: state,
      object: where(order),
      summary: STUCK.orderFailed(state, escapeLine(reason)),
      advice: fill(w, ISSUANCE.readOrderThenRenew),
    };
  }
  if (fromChallenges) return fromChallenges;
  if (challenges.length === 0 && (state === 'pending' || state === '')) return orderWithoutChallenges(w, order);
  return undefined;
}

/** An Order with no Challenge: cert-manager says why only in a Warning event (reason Solver). */
function orderWithoutChallenges(w: Walk, order: CmObject): IssuanceCause | undefined {
  const solver = latestEvent(w.events, order, 'Warning', 'Solver');
  if (solver)
    return fromReason(w, explainReason('Order event', 'Solver', solver.message), order, 'order', solver.message);
  const age = ageMs(order, w.now);
  if (age > 10 * 60_000) {
    return {
      kind: 'order-no-challenge',
      step: 'order',
      reason: 'NoChallenge',
      object: where(order),
      summary: STUCK.orderWithoutChallenge(minutes(age)),
      advice: fill(w, ISSUANCE.findUnmatchedSolver),
    };
  }
  return {
    kind: 'order-pending',
    step: 'order',
    reason: 'pending',
    inProgress: true,
    object: where(order),
    summary: STUCK.orderPending,
    advice: ISSUANCE.inProgress,
  };
}

/** What a request's Ready condition (and its latest Warning event) says once it failed or waits. */
function requestCause(w: Walk, request: CmObject, hasOrder: boolean): IssuanceCause | undefined {
  const ready = conditionOf(request, 'Ready');
  if (ready?.status === 'True') return undefined;
  const message = textOf(ready?.message) ?? '';
  const problem = acmeProblemOf(message);
  if (problem) return fromProblem(w, problem, request, 'request', textOf(ready?.reason) ?? 'Failed', message);
  const event = latestEvent(w.events, request, 'Warning');
  const eventReason = requestReasonOf(message, w.issuerMechanism) ?? event?.reason;
  const said = STUCK.requestSaid(text(ready?.reason), message);
  if (ready?.reason === 'Failed') {
    const why = eventReason
      ? explainReason('CertificateRequest event', eventReason, message)
      : explainReason('CertificateRequest Ready', 'Failed', message);
    return fromReason(w, why, request, 'request', said);
  }
  // Pending: what it waits for. The issuer's own state is the root cause of several Certificates.
  if (
    eventReason === 'IssuerNotReady' ||
    eventReason === 'IssuerNotFound' ||
    eventReason === 'SecretMissing' ||
    eventReason === 'VenafiInitError' ||
    eventReason === 'SecretInvalidData'
  ) {
    const why = explainReason('CertificateRequest event', eventReason, message);
    return {
      ...fromReason(w, why, request, 'issuer', said),
      inProgress: undefined,
      root: `issuer:${w.issuerRef ?? ''}`,
    };
  }
  if (eventReason) {
    const why = explainReason('CertificateRequest event', eventReason, message);
    if (why.verdict !== 'transient') return fromReason(w, why, request, 'request', said);
  }
  return {
    kind: 'request-pending',
    step: 'issuer',
    reason: text(ready?.reason) || 'Pending',
    inProgress: true,
    object: where(request),
    summary: STUCK.requestPending(ready ? said : undefined, hasOrder),
    advice: ISSUANCE.issuerHasNotSigned,
  };
}

/**
 * The deepest reason the issuance of `certificate` is stuck, or undefined when no request of the
 * current revision exists (the Certificate's own condition is then all there is).
 */
export function issuanceCause(
  certificate: CmObject,
  objects: IssuanceObjects,
  context: WalkContext = {},
): IssuanceCause | undefined {
  const w: Walk = {
    certificate: `${certificate.metadata?.namespace ?? '?'}/${certificate.metadata?.name ?? '?'}`,
    ingressClass: context.ingressClass ?? 'atmosphere',
    events: context.events ?? [],
    now: context.now ?? new Date(),
    issuerRef: context.issuerRef,
    issuerMechanism: context.issuerMechanism,
  };
  const request = findRequest(certificate, objects.requests);
  if (!request) return undefined;
  const denied = conditionOf(request, 'Denied');
  if (denied?.status === 'True') {
    const row = explainReason('CertificateRequest Ready', 'Denied');
    return {
      kind: 'denied',
      step: 'approval',
      reason: text(denied.reason) || 'Denied',
      object: where(request),
      summary: STUCK.denied(row.cause, text(denied.reason) || 'Denied', text(denied.message)),
      advice: fill(w, row.fix),
    };
  }
  const invalid = conditionOf(request, 'InvalidRequest');
  if (invalid?.status === 'True') {
    const why = explainReason('CertificateRequest event', invalid.reason, invalid.message ?? '');
    return {
      kind: 'invalid-request',
      step: 'request',
      reason: text(invalid.reason) || 'InvalidRequest',
      object: where(request),
      summary: STUCK.invalid(
        why.known ? fill(w, why.cause) : undefined,
        text(invalid.reason) || 'InvalidRequest',
        text(invalid.message),
      ),
      advice: why.known ? fill(w, why.fix) : fill(w, ISSUANCE.fixInvalidRequest),
    };
  }
  const order = findOrder(request, objects.orders);
  const approved = conditionOf(request, 'Approved');
  const ready = conditionOf(request, 'Ready');
  // An Order exists only once the request was approved: without both, the request waits for an approver.
  if (approved?.status !== 'True' && !order && ready?.status !== 'True' && ready?.reason !== 'Failed') {
    const waited = ageMs(request, w.now);
    return {
      kind: 'not-approved',
      step: 'approval',
      reason: 'NotApproved',
      object: where(request),
      summary: STUCK.notApproved(waited > 60_000 ? minutes(waited) : undefined),
      advice: ISSUANCE.approveRequests,
    };
  }
  const deeper = order ? orderCause(w, order, findChallenges(order, objects.challenges)) : undefined;
  if (deeper && !deeper.inProgress) return deeper;
  const fromRequest = requestCause(w, request, order !== undefined);
  if (fromRequest && !fromRequest.inProgress) return fromRequest;
  return deeper ?? fromRequest;
}
