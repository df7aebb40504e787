/**
 * Why a cert-manager Certificate is not Ready: the walk `cmctl status certificate` makes, from the
 * Certificate to its CertificateRequest (owned by it, or annotated with its name, for the next
 * revision), the ACME Order the request owns and the Challenges the Order owns, ending at the deepest
 * object that says what is wrong. Pure: the objects are read elsewhere (cert-manager.ts).
 */
import { escapeLine } from '../../escape.js';
import { conditionOf } from '../../kube/platform.js';
import type { CmObject } from '../../kube/objects.js';
import type { StuckStep } from '../../doctor/types.js';

export type { CmMeta, CmObject } from '../../kube/objects.js';

export interface IssuanceObjects {
  requests: CmObject[];
  orders: CmObject[];
  challenges: CmObject[];
}

export type CauseKind =
  | 'denied'
  | 'invalid-request'
  | 'request-failed'
  | 'request-pending'
  | 'not-approved'
  | 'eab'
  | 'dns-permission'
  | 'rate-limited'
  | 'authorization'
  | 'errored'
  | 'presenting'
  | 'self-check'
  | 'dns-propagation'
  | 'pending';

export interface IssuanceCause {
  kind: CauseKind;
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
  /** When the ACME CA lets cert-manager try again (ISO 8601), from a rateLimited message. */
  retryAfter?: string;
  advice: string;
}

const CERTIFICATE_NAME = 'cert-manager.io/certificate-name';
const CERTIFICATE_REVISION = 'cert-manager.io/certificate-revision';
const RATE_LIMITED = /rateLimited|too many (certificates|new orders|failed authorizations|requests)/i;
const EAB = /externalAccountRequired|external account binding|\bEAB\b/i;
const DNS_REFUSED = /AccessDenied|Forbidden|\b403\b|\b401\b|Unauthori[sz]ed|permission|not authorized|REFUSED|NOTAUTH/i;
/** The first words of a reason that cert-manager gives as prose ("Waiting for DNS-01 challenge propagation: ..."). */
const shortReason = (reason: string) => escapeLine(reason.split(':')[0] ?? reason).slice(0, 80);

/** The advice for an ACME CA that requires External Account Binding. */
export const EAB_ADVICE = 'The ACME CA requires External Account Binding: it needs a key id and HMAC key from the CA, which the platform\'s ACME issuer does not set. Use an ACME CA that does not require it, or add externalAccountBinding to the ClusterIssuer by hand and keep it across deployments.';

const where = (o: CmObject) => `${o.kind ?? 'object'} ${o.metadata?.namespace ?? ''}${o.metadata?.namespace ? '/' : ''}${o.metadata?.name ?? '?'}`;
const text = (value: unknown) => (typeof value === 'string' ? escapeLine(value) : '');

/** `child` names `parent` among its owners (by uid when both have one, else by kind and name). */
export function ownedBy(child: CmObject, parent: CmObject, parentKind: string): boolean {
  return (child.metadata?.ownerReferences ?? []).some(
    (ref) => ref.kind === parentKind && (ref.uid && parent.metadata?.uid ? ref.uid === parent.metadata.uid : ref.name === parent.metadata?.name),
  );
}

const sameNamespace = (a: CmObject, b: CmObject) => (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
const newestFirst = (a: CmObject, b: CmObject) => Date.parse(b.metadata?.creationTimestamp ?? '') - Date.parse(a.metadata?.creationTimestamp ?? '') || 0;

/**
 * The request of the issuance under way: revision `status.revision + 1` (1 for a Certificate never
 * issued), owned by the Certificate or annotated with its name. Several: the newest.
 */
export function findRequest(certificate: CmObject, requests: CmObject[]): CmObject | undefined {
  const revision = Number(certificate.status?.revision ?? 0) + 1;
  return requests
    .filter((r) => sameNamespace(r, certificate))
    .filter((r) => ownedBy(r, certificate, 'Certificate') || r.metadata?.annotations?.[CERTIFICATE_NAME] === certificate.metadata?.name)
    .filter((r) => r.metadata?.annotations?.[CERTIFICATE_REVISION] === String(revision))
    .sort(newestFirst)[0];
}

export function findOrder(request: CmObject, orders: CmObject[]): CmObject | undefined {
  return orders.filter((o) => sameNamespace(o, request) && ownedBy(o, request, 'CertificateRequest')).sort(newestFirst)[0];
}

export function findChallenges(order: CmObject, challenges: CmObject[]): CmObject[] {
  return challenges.filter((c) => sameNamespace(c, order) && ownedBy(c, order, 'Order'));
}

/** The retry time an ACME CA puts in a rateLimited problem ("retry after 2025-01-20 22:00:44 UTC"). */
export function retryAfter(message: string): string | undefined {
  const m = /retry after (\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z| ?UTC|[+-]\d{2}:?\d{2})?)/i.exec(message);
  if (!m) return undefined;
  const iso = m[1].replace(' ', 'T').replace(/ ?UTC$/i, 'Z');
  const time = Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(iso) ? iso : `${iso}Z`);
  return Number.isFinite(time) ? new Date(time).toISOString() : m[1];
}

function rateLimited(object: CmObject, message: string): IssuanceCause {
  const retry = retryAfter(message);
  return {
    kind: 'rate-limited',
    step: object.kind === 'Challenge' ? 'challenge' : object.kind === 'Order' ? 'order' : 'request',
    reason: 'rateLimited',
    inProgress: true,
    object: where(object),
    summary: `the ACME CA's rate limit is reached${retry ? `, retry after ${retry}` : ''}: ${escapeLine(message)}`,
    retryAfter: retry,
    advice: `Wait${retry ? ` until ${retry}` : ' (the CA\'s message says how long)'}: cert-manager tries again by itself. Meanwhile do not delete Certificates, their secrets or requests (every new order counts against the limit); try changes against the CA's staging directory first.`,
  };
}

function challengeCause(challenge: CmObject, ingressClass: string): IssuanceCause | undefined {
  const spec = challenge.spec ?? {};
  const status = challenge.status ?? {};
  const reason = String(status.reason ?? '');
  const dnsName = text(spec.dnsName) || undefined;
  const type = String(spec.type ?? '');
  const state = String(status.state ?? '');
  const object = where(challenge);
  const name = dnsName ?? '?';
  const base = { object, dnsName, step: 'challenge' as const, reason: shortReason(reason) || state || 'pending' };
  if (RATE_LIMITED.test(reason)) return { ...rateLimited(challenge, reason), dnsName };
  if (state === 'invalid') {
    return {
      ...base,
      kind: 'authorization',
      summary: `the ACME CA refused the authorization for ${name} (${type || 'challenge'}): ${escapeLine(reason) || 'no reason given'}`,
      advice: type === 'HTTP-01'
        ? `The CA could not fetch http://${name}/.well-known/acme-challenge/...: the name must resolve publicly to the ingress controller with port 80 open. cert-manager tries a new order after its back-off; "cmctl renew" starts one at once.`
        : `The CA did not find the TXT record _acme-challenge.${name} in the public DNS: check that the solver writes the zone the world resolves (cloudgate doctor --only acme). cert-manager tries a new order after its back-off; "cmctl renew" starts one at once.`,
    };
  }
  if (state === 'errored' || state === 'expired') {
    return { ...base, kind: 'errored', summary: `the challenge for ${name} is ${state}: ${escapeLine(reason) || 'no reason given'}`, advice: 'Read the reason; cert-manager starts a new order after its back-off ("cmctl renew" starts one at once).' };
  }
  if (state === 'valid') return undefined;
  if (status.presented !== true && reason && type === 'DNS-01' && DNS_REFUSED.test(reason)) {
    return {
      ...base,
      kind: 'dns-permission',
      summary: `the DNS provider refused to write _acme-challenge.${name}: ${escapeLine(reason)}`,
      advice: 'The DNS provider refused cert-manager\'s credentials: check the solver\'s credentials Secret in the cert-manager namespace and that they may change records of the zone (cloudgate doctor --only acme). cert-manager keeps trying by itself once they are right.',
    };
  }
  if (status.presented !== true && reason) {
    return {
      ...base,
      kind: 'presenting',
      summary: `cert-manager could not present the ${type ? `${type} ` : ''}challenge for ${name}: ${escapeLine(reason)}`,
      advice: type === 'HTTP-01'
        ? 'cert-manager could not create the solver\'s pod, service or ingress: read the reason and the cert-manager log (kubectl logs -n cert-manager deploy/cert-manager).'
        : 'The DNS provider refused the record: check the solver\'s credentials Secret and its permissions on the zone (cloudgate doctor --only acme,kube).',
    };
  }
  if (/self[- ]check/i.test(reason) || (type === 'HTTP-01' && /propagation/i.test(reason))) {
    const code = /wrong status code '?(\d{3})'?/i.exec(reason)?.[1];
    return {
      ...base,
      reason: code ? `self-check got HTTP ${code}` : base.reason,
      kind: 'self-check',
      summary: `cert-manager's own check of ${name} fails: ${escapeLine(reason)}`,
      advice: `From inside the cluster http://${name}/.well-known/acme-challenge/... must reach the ingress controller on port 80 (split DNS or hairpin NAT often stop it), and the solver's ingress class ${escapeLine(ingressClass)} must be served by that controller. cert-manager keeps checking by itself.`,
    };
  }
  if (/propagat/i.test(reason)) {
    return {
      ...base,
      kind: 'dns-propagation',
      inProgress: true,
      summary: `DNS propagation pending for _acme-challenge.${name}: ${escapeLine(reason)}`,
      advice: `cert-manager wrote the TXT record but its nameservers do not see it yet: "dig TXT _acme-challenge.${name}" against the zone's authoritative servers; a record that never shows is written to another zone than the one served (check the solver's zone). Minutes are normal; cert-manager's recursive nameservers (--dns01-recursive-nameservers) must reach the zone.`,
    };
  }
  return { ...base, kind: 'pending', inProgress: true, summary: `the challenge for ${name} is ${state || 'pending'}${status.processing === true ? ' (processing)' : ''}${reason ? `: ${escapeLine(reason)}` : ''}`, advice: 'cert-manager is still working on it: look again in a few minutes ("cmctl status certificate" shows the same walk).' };
}

const CHALLENGE_PRIORITY: CauseKind[] = ['rate-limited', 'authorization', 'errored', 'presenting', 'self-check', 'dns-propagation', 'pending'];

function orderCause(order: CmObject, challenges: CmObject[], ingressClass: string): IssuanceCause | undefined {
  const state = String(order.status?.state ?? '');
  const reason = String(order.status?.reason ?? '');
  if (RATE_LIMITED.test(reason)) return rateLimited(order, reason);
  if (EAB.test(reason)) return { kind: 'eab', step: 'order', reason: state || 'errored', object: where(order), summary: `the ACME CA requires External Account Binding: ${escapeLine(reason)}`, advice: EAB_ADVICE };
  const fromChallenges = challenges
    .map((c) => challengeCause(c, ingressClass))
    .filter((c): c is IssuanceCause => c !== undefined)
    .sort((a, b) => CHALLENGE_PRIORITY.indexOf(a.kind) - CHALLENGE_PRIORITY.indexOf(b.kind))[0];
  if (fromChallenges && (fromChallenges.kind !== 'pending' || !['invalid', 'errored'].includes(state))) return fromChallenges;
  if (state === 'invalid') {
    return {
      kind: 'authorization',
      step: 'order',
      reason: 'invalid',
      object: where(order),
      summary: `the order is invalid (an authorization failed): ${escapeLine(reason) || 'no failure detail'}`,
      advice: 'The ACME CA refused to validate a name: read the detail above; cert-manager tries a new order after its back-off ("cmctl renew" starts one at once).',
    };
  }
  if (state === 'errored') {
    return { kind: 'errored', step: 'order', reason: 'errored', object: where(order), summary: `the order errored: ${escapeLine(reason) || 'no reason given'}`, advice: 'Read the reason; cert-manager starts a new order after its back-off ("cmctl renew" starts one at once).' };
  }
  return fromChallenges;
}

/**
 * The deepest reason the issuance of `certificate` is stuck, or undefined when no request of the
 * current revision exists (the Certificate's own condition is then all there is).
 */
export function issuanceCause(certificate: CmObject, objects: IssuanceObjects, ingressClass = 'atmosphere'): IssuanceCause | undefined {
  const request = findRequest(certificate, objects.requests);
  if (!request) return undefined;
  const object = where(request);
  const denied = conditionOf(request, 'Denied');
  if (denied?.status === 'True') {
    return {
      kind: 'denied',
      step: 'approval',
      reason: text(denied.reason) || 'Denied',
      object,
      summary: `the request was denied (${text(denied.reason) || 'Denied'}${denied.message ? `: ${text(denied.message)}` : ''})`,
      advice: 'An approver refused the request (cert-manager\'s approver or a policy such as approver-policy): allow it in the policy (a CertificateRequestPolicy matching this issuer, bound to cert-manager\'s service account) or change the Certificate. cert-manager issues a new request after its back-off; "cmctl renew" starts one at once.',
    };
  }
  const invalid = conditionOf(request, 'InvalidRequest');
  if (invalid?.status === 'True') {
    return {
      kind: 'invalid-request',
      step: 'request',
      reason: text(invalid.reason) || 'InvalidRequest',
      object,
      summary: `the issuer refused the request as invalid (${text(invalid.reason) || 'InvalidRequest'}${invalid.message ? `: ${text(invalid.message)}` : ''})`,
      advice: 'Fix what the message names in the Certificate (names, usages, issuerRef; for the platform\'s ingresses the subject annotations in atmosphere_ingress_annotations), then "cmctl renew".',
    };
  }
  const order = findOrder(request, objects.orders);
  const approved = conditionOf(request, 'Approved');
  const ready = conditionOf(request, 'Ready');
  // An Order exists only once the request was approved: without both, the request waits for an approver.
  if (approved?.status !== 'True' && !order && ready?.status !== 'True' && ready?.reason !== 'Failed') {
    return {
      kind: 'not-approved',
      step: 'approval',
      reason: 'NotApproved',
      object,
      summary: 'the request waits for approval: no approver has approved or denied it',
      advice: 'cert-manager\'s own approver is disabled here (an approver such as approver-policy replaces it): add a policy that approves requests for this issuer (a CertificateRequestPolicy bound to cert-manager\'s service account), or approve it by hand with "cmctl approve".',
    };
  }
  const deeper = order ? orderCause(order, findChallenges(order, objects.challenges), ingressClass) : undefined;
  if (deeper) return deeper;
  const said = `${text(ready?.reason) || 'no reason'}${ready?.message ? `: ${text(ready.message)}` : ''}`;
  if (ready?.status === 'False' && RATE_LIMITED.test(ready.message ?? '')) return rateLimited(request, ready.message ?? '');
  if (ready?.status === 'False' && EAB.test(ready.message ?? '')) return { kind: 'eab', step: 'request', reason: 'Failed', object, summary: `the ACME CA requires External Account Binding (${said})`, advice: EAB_ADVICE };
  if (ready?.status === 'False' && ready.reason === 'Failed') {
    return { kind: 'request-failed', step: 'request', reason: 'Failed', object, summary: `the request failed (${said})`, advice: 'Read the message; cert-manager issues a new request after its back-off ("cmctl renew" starts one at once).' };
  }
  if (ready?.status === 'True') return undefined;
  return {
    kind: 'request-pending',
    step: 'issuer',
    reason: text(ready?.reason) || 'Pending',
    inProgress: true,
    object,
    summary: `the request is approved and waits for the issuer (${ready ? said : 'no Ready condition yet'})${order ? '' : '; no Order yet'}`,
    advice: 'The issuer has not signed it yet: cert-manager keeps asking; if it stays so, read the issuer\'s state (kube.issuer) and the cert-manager controller log.',
  };
}
