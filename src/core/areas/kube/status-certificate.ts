/**
 * `cloudgate status certificate NAMESPACE/NAME`: one Certificate gathered as `cmctl status certificate`
 * gathers it (the Certificate, its issuer as it names it, its secret, the CertificateRequest of its next
 * revision, the Order and Challenges below it, the events of each), then judged by the same walk as
 * `doctor`'s kube.certificates, so the verdict and the fix are the doctor's. Each part carries its own
 * error, so a part that cannot be read leaves the rest shown.
 */
import { UsageError } from '../../errors.js';
import { escapeLine } from '../../escape.js';
import { closest } from '../../closest.js';
import { firstLine, kubectl, kubectlGet, type KubectlOptions } from '../../kube/kubectl.js';
import type { CmObject } from '../../kube/objects.js';
import { refText, type ObjectRef } from '../../kube/object-ref.js';
import { CERT_MANAGER_NAMESPACE, ingressClassOf, PLATFORM_ISSUER } from '../../kube/platform.js';
import { readLiveIssuer, selfSignedCaSecrets } from '../../kube/live-issuer.js';
import { memberOf, numberOf, textOf, textsOf } from '../../records.js';
import { findChallenges, findOrder, findRequest } from './certificate-status.js';
import { judgeCertificate, type CertificateVerdict, type CertificatesSnapshot } from './certificates.js';
import { eventsOf, type EventLine } from './events.js';
import { controllerDown } from './health.js';
import { readSecretCertificate, type SecretCertificate } from './secret-certificate.js';
import { inspectionOf, type SecretInspection } from './inspect-secret.js';
import { STATUS } from './messages/inspect.js';

export interface ConditionLine {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CertificateStatus {
  schema: 'cloudgate.status-certificate/v1';
  certificate: {
    namespace: string;
    name: string;
    createdAt?: string;
    dnsNames: string[];
    commonName?: string;
    secretName?: string;
    issuerRef: { kind: string; name: string; group?: string };
    notBefore?: string;
    notAfter?: string;
    renewalTime?: string;
    revision?: number;
    failedIssuanceAttempts?: number;
    lastFailureTime?: string;
    conditions: ConditionLine[];
    events: EventLine[];
  };
  issuer: {
    ref: string;
    exists: boolean;
    type?: string;
    conditions: ConditionLine[];
    events: EventLine[];
    error?: string;
  };
  secret: {
    name?: string;
    exists: boolean;
    inspection?: Pick<SecretInspection, 'status' | 'findings' | 'key' | 'chain'> & {
      notBefore?: string;
      notAfter?: string;
      subject?: string;
      issuer?: string;
      dnsNames?: string[];
    };
    error?: string;
  };
  request?: { name: string; conditions: ConditionLine[]; events: EventLine[] };
  order?: {
    name: string;
    state?: string;
    reason?: string;
    authorizations: { identifier?: string; initialState?: string; wildcard?: boolean }[];
    events: EventLine[];
  };
  challenges: {
    name: string;
    type?: string;
    dnsName?: string;
    state?: string;
    reason?: string;
    presented?: boolean;
    processing?: boolean;
    events: EventLine[];
  }[];
  verdict: CertificateVerdict;
}

const conditionsOf = (o: CmObject | undefined): ConditionLine[] =>
  (o?.status?.conditions ?? []).map((c) => ({
    type: String(c.type ?? ''),
    status: String(c.status ?? ''),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}),
  }));

/** `kubectl get ... -o json` of a list: its items, with `kind` set (a list of several kinds keeps each item's). */
async function list(
  args: string[],
  kube: KubectlOptions,
  kind?: string,
): Promise<{ items: CmObject[]; error?: string }> {
  const result = await kubectl([...args, '-o', 'json'], kube);
  if (result.exitCode !== 0)
    return { items: [], error: firstLine(result.stderr) || STATUS.kubectlExitCode(result.exitCode) };
  try {
    // A list as kubectl prints it: objects the API server validated against their kind's schema.
    const items = (JSON.parse(result.stdout) as { items?: CmObject[] }).items ?? [];
    if (kind) for (const item of items) item.kind ??= kind;
    return { items };
  } catch {
    return { items: [], error: STATUS.notJson(args.slice(0, 2).join(' ')) };
  }
}

/** The Certificate, or a usage error naming the ones the namespace holds (with "did you mean"). */
async function getCertificate(kube: KubectlOptions, ref: ObjectRef): Promise<CmObject> {
  const got = await kubectlGet(
    ['get', 'certificates.cert-manager.io', `--namespace=${ref.namespace}`, '--', ref.name],
    kube,
  );
  // A Certificate as kubectl returned it: read member by member, unchecked.
  if (got.ok) return got.value as CmObject;
  if (!got.notFound) throw new Error(STATUS.cannotReadCertificate(refText(ref), got.error));
  const names = (await list(['get', 'certificates.cert-manager.io', `--namespace=${ref.namespace}`], kube)).items
    .map((c) => c.metadata?.name ?? '')
    .filter(Boolean);
  const guess = closest(ref.name, names);
  throw new UsageError(
    STATUS.noCertificate(refText(ref)),
    (guess ? STATUS.didYouMean(ref.namespace, guess) : '') +
      (names.length ? STATUS.certificatesOf(ref.namespace, names.slice(0, 20).join(', ')) : STATUS.howToList),
  );
}

export interface StatusOptions {
  /** The inventory's names when known (the platform's issuer, its ingress class), else the platform's defaults. */
  platformIssuer?: string;
  inventoryValues?: Record<string, unknown>;
  now?: Date;
}

/** Everything `status certificate` shows, read with a handful of kubectl calls, and the verdict. */
export async function certificateStatus(
  kube: KubectlOptions,
  ref: ObjectRef,
  options: StatusOptions = {},
): Promise<CertificateStatus> {
  const now = options.now ?? new Date();
  const certificate = await getCertificate(kube, ref);
  certificate.kind ??= 'Certificate';
  const spec = certificate.spec ?? {};
  const issuerRef = {
    kind: textOf(memberOf(spec.issuerRef, 'kind')) || 'Issuer',
    name: textOf(memberOf(spec.issuerRef, 'name')) ?? '',
    group: textOf(memberOf(spec.issuerRef, 'group')),
  };
  const secretName = textOf(spec.secretName);
  const namespaces = [...new Set([ref.namespace, CERT_MANAGER_NAMESPACE])];
  const [issuance, issuers, certificates, secretGot, events, clusterEvents, workloads] = await Promise.all([
    list(
      [
        'get',
        'certificaterequests.cert-manager.io,orders.acme.cert-manager.io,challenges.acme.cert-manager.io',
        `--namespace=${ref.namespace}`,
      ],
      kube,
    ),
    list(['get', 'clusterissuers.cert-manager.io,issuers.cert-manager.io', `--namespace=${ref.namespace}`], kube),
    Promise.all(
      namespaces.map((ns) => list(['get', 'certificates.cert-manager.io', `--namespace=${ns}`], kube, 'Certificate')),
    ),
    secretName
      ? kubectlGet(['get', 'secret', `--namespace=${ref.namespace}`, '--', secretName], { ...kube, secretOutput: true })
      : Promise.resolve(undefined),
    list(['get', 'events', `--namespace=${ref.namespace}`], kube, 'Event'),
    issuerRef.kind === 'ClusterIssuer'
      ? list(['get', 'events', '--namespace=default'], kube, 'Event')
      : Promise.resolve({ items: [] satisfies CmObject[] }),
    list(['get', 'deployments.apps', `--namespace=${CERT_MANAGER_NAMESPACE}`], kube, 'Deployment'),
  ]);
  const of = (kind: string) => issuance.items.filter((o) => o.kind === kind);
  const allCertificates = certificates.flatMap((c) => c.items);
  // The Secret as kubectl returned it (its key registered as a secret by kubectlGet).
  const secretObject = secretGot?.ok ? (secretGot.value as CmObject) : undefined;
  const secrets = new Map<string, SecretCertificate>();
  if (secretObject) secrets.set(`${ref.namespace}/${secretName}`, readSecretCertificate(secretObject));
  const allEvents = [...events.items, ...clusterEvents.items];
  const values = options.inventoryValues ?? {};
  const snapshot: CertificatesSnapshot = {
    certificates: [certificate],
    issuance: { requests: of('CertificateRequest'), orders: of('Order'), challenges: of('Challenge') },
    clusterIssuers: issuers.items.filter((i) => i.kind === 'ClusterIssuer'),
    issuers: issuers.items.filter((i) => i.kind === 'Issuer'),
    secrets,
    events: allEvents,
    platformIssuer: options.platformIssuer ?? PLATFORM_ISSUER,
    ingressClass: ingressClassOf(values) ?? STATUS.unknownIngressClass,
    namespaces: [ref.namespace],
    controllerDown: !workloads.error && controllerDown(workloads.items),
    now,
    issuerHints: { selfSignedCaSecrets: selfSignedCaSecrets(allCertificates) },
    allCertificates,
  };
  const verdict = judgeCertificate(certificate, snapshot);

  const request = findRequest(certificate, snapshot.issuance.requests);
  const order = request ? findOrder(request, snapshot.issuance.orders) : undefined;
  const challenges = order ? findChallenges(order, snapshot.issuance.challenges) : [];
  const liveIssuer = (issuerRef.kind === 'ClusterIssuer' ? snapshot.clusterIssuers : snapshot.issuers).find(
    (i) => i.metadata?.name === issuerRef.name,
  );
  const reading = liveIssuer ? readLiveIssuer(liveIssuer, snapshot.issuerHints) : undefined;
  const inspection = secretObject ? inspectionOf(secretObject, now) : undefined;
  const leaf = inspection?.certificates[0];
  const status = certificate.status ?? {};
  return {
    schema: 'cloudgate.status-certificate/v1',
    certificate: {
      ...ref,
      createdAt: certificate.metadata?.creationTimestamp,
      dnsNames: textsOf(spec.dnsNames),
      commonName: textOf(spec.commonName),
      secretName,
      issuerRef: { kind: issuerRef.kind, name: issuerRef.name, ...(issuerRef.group ? { group: issuerRef.group } : {}) },
      notBefore: textOf(status.notBefore),
      notAfter: textOf(status.notAfter),
      renewalTime: textOf(status.renewalTime),
      revision: numberOf(status.revision),
      failedIssuanceAttempts: numberOf(status.failedIssuanceAttempts),
      lastFailureTime: textOf(status.lastFailureTime),
      conditions: conditionsOf(certificate),
      events: eventsOf(allEvents, certificate),
    },
    issuer: {
      ref: verdict.issuer ?? '',
      exists: liveIssuer !== undefined,
      ...(reading ? { type: reading.platformType ?? reading.mechanism } : {}),
      conditions: conditionsOf(liveIssuer),
      events: liveIssuer ? eventsOf(allEvents, { ...liveIssuer, kind: issuerRef.kind }) : [],
      ...(issuers.error ? { error: issuers.error } : {}),
    },
    secret: {
      ...(secretName ? { name: secretName } : {}),
      exists: secretObject !== undefined,
      ...(inspection
        ? {
            inspection: {
              status: inspection.status,
              findings: inspection.findings,
              key: inspection.key,
              chain: inspection.chain,
              notBefore: leaf?.notBefore,
              notAfter: leaf?.notAfter,
              subject: leaf?.subject,
              issuer: leaf?.issuer,
              dnsNames: leaf?.dnsNames,
            },
          }
        : {}),
      ...(secretGot && !secretGot.ok && !secretGot.notFound ? { error: secretGot.error } : {}),
    },
    ...(request
      ? {
          request: {
            name: request.metadata?.name ?? '?',
            conditions: conditionsOf(request),
            events: eventsOf(allEvents, { ...request, kind: 'CertificateRequest' }),
          },
        }
      : {}),
    ...(order
      ? {
          order: {
            name: order.metadata?.name ?? '?',
            state: textOf(order.status?.state),
            reason: textOf(order.status?.reason),
            authorizations: (Array.isArray(order.status?.authorizations) ? order.status.authorizations : []).map(
              (a: unknown) => ({
                identifier: textOf(memberOf(a, 'identifier')),
                initialState: textOf(memberOf(a, 'initialState')),
                ...(typeof memberOf(a, 'wildcard') === 'boolean' ? { wildcard: memberOf(a, 'wildcard') === true } : {}),
              }),
            ),
            events: eventsOf(allEvents, { ...order, kind: 'Order' }),
          },
        }
      : {}),
    // Never the challenge's token or key authorization: they prove control of the name.
    challenges: challenges.map((c) => ({
      name: c.metadata?.name ?? '?',
      type: textOf(c.spec?.type),
      dnsName: textOf(c.spec?.dnsName),
      state: textOf(c.status?.state),
      reason: textOf(c.status?.reason),
      presented: c.status?.presented === true,
      processing: c.status?.processing === true,
      events: eventsOf(allEvents, { ...c, kind: 'Challenge' }),
    })),
    verdict,
  };
}

const e = escapeLine;
const conditionText = (c: ConditionLine) =>
  `${c.type}: ${c.status}${c.reason ? `, Reason: ${e(c.reason)}` : ''}${c.message ? `, Message: ${e(c.message)}` : ''}`;
function eventLines(events: EventLine[], indent: string): string[] {
  if (!events.length) return [`${indent}${STATUS.noEvents}`];
  return [
    `${indent}Events:`,
    ...events
      .slice(0, 10)
      .map(
        (v) => `${indent}  ${v.type} ${e(v.reason)}${v.count && v.count > 1 ? ` (x${v.count})` : ''}: ${e(v.message)}`,
      ),
  ];
}

/** The status as text, in cmctl's order (Certificate, issuer, secret, request, order, challenges), then the verdict. */
export function statusLines(s: CertificateStatus): string[] {
  const c = s.certificate;
  const out = [
    `Name: ${e(c.name)}`,
    `Namespace: ${e(c.namespace)}`,
    ...(c.createdAt ? [`Created at: ${c.createdAt}`] : []),
  ];
  out.push(
    'Conditions:',
    ...(c.conditions.length ? c.conditions.map((x) => `  ${conditionText(x)}`) : [`  ${STATUS.noConditionYet}`]),
  );
  if (c.dnsNames.length) out.push('DNS Names:', ...c.dnsNames.map((n) => `- ${e(n)}`));
  out.push(...eventLines(c.events, ''));
  out.push(
    'Issuer:',
    `  Name: ${e(c.issuerRef.name)}`,
    `  Kind: ${e(c.issuerRef.kind)}${c.issuerRef.group && c.issuerRef.group !== 'cert-manager.io' ? ` (${e(c.issuerRef.group)})` : ''}`,
  );
  if (!s.issuer.exists) out.push(`  ${s.issuer.error ? STATUS.cannotBeRead(e(s.issuer.error)) : STATUS.doesNotExist}`);
  else
    out.push(
      ...(s.issuer.type ? [`  Type: ${e(s.issuer.type)}`] : []),
      '  Conditions:',
      ...s.issuer.conditions.map((x) => `    ${conditionText(x)}`),
      ...eventLines(s.issuer.events, '  '),
    );
  out.push('Secret:', `  Name: ${e(c.secretName ?? '(none)')}`);
  const i = s.secret.inspection;
  if (!s.secret.exists) out.push(`  ${s.secret.error ? STATUS.cannotBeRead(e(s.secret.error)) : STATUS.doesNotExist}`);
  else if (i) {
    out.push(
      ...(i.subject ? [`  Subject: ${e(i.subject)}`] : []),
      ...(i.issuer ? [`  Issued by: ${e(i.issuer)}`] : []),
      ...(i.dnsNames?.length ? [`  DNS names: ${i.dnsNames.map(e).join(', ')}`] : []),
    );
    out.push(
      ...(i.notAfter ? [`  Valid: ${i.notBefore} to ${i.notAfter}`] : []),
      `  Key: ${i.key.state}; chain ${i.chain.inOrder ? 'in order' : 'out of order'}`,
    );
  }
  out.push(
    ...(c.notBefore ? [`Not Before: ${c.notBefore}`] : []),
    ...(c.notAfter ? [`Not After: ${c.notAfter}`] : []),
    ...(c.renewalTime ? [`Renewal Time: ${c.renewalTime}`] : []),
  );
  if (c.failedIssuanceAttempts) out.push(STATUS.failedAttempts(c.failedIssuanceAttempts, c.lastFailureTime ?? '?'));
  if (s.request)
    out.push(
      'CertificateRequest:',
      `  Name: ${e(s.request.name)}`,
      '  Conditions:',
      ...s.request.conditions.map((x) => `    ${conditionText(x)}`),
      ...eventLines(s.request.events, '  '),
    );
  else out.push(STATUS.noRequest);
  if (s.order) {
    out.push(
      'Order:',
      `  Name: ${e(s.order.name)}`,
      `  State: ${e(s.order.state ?? '(none yet)')}${s.order.reason ? `, Reason: ${e(s.order.reason)}` : ''}`,
    );
    if (s.order.authorizations.length)
      out.push(
        '  Authorizations:',
        ...s.order.authorizations.map(
          (a) => `    ${e(a.identifier ?? '?')}: ${e(a.initialState ?? '?')}${a.wildcard ? ', wildcard' : ''}`,
        ),
      );
    out.push(...eventLines(s.order.events, '  '));
    out.push(s.challenges.length ? 'Challenges:' : STATUS.noChallenges);
    for (const ch of s.challenges) {
      out.push(
        `- Name: ${e(ch.name)}, Type: ${e(ch.type ?? '?')}, Name validated: ${e(ch.dnsName ?? '?')}, State: ${e(ch.state ?? '(none yet)')}, Presented: ${ch.presented}, Processing: ${ch.processing}`,
      );
      if (ch.reason) out.push(`  Reason: ${e(ch.reason)}`);
      out.push(...eventLines(ch.events, '  '));
    }
  }
  const v = s.verdict;
  out.push(
    '',
    v.status === 'ok'
      ? STATUS.verdictOk(v.summary ? e(v.summary) : STATUS.fine)
      : STATUS.verdict(v.status, e(v.summary ?? '')),
  );
  if (v.stuck) out.push(STATUS.stuckAt(v.stuck.step, e(v.stuck.object), e(v.stuck.reason)));
  if (v.retryAt) out.push(STATUS.triesAgain(v.retryAt));
  if (v.advice) out.push(STATUS.fix(e(v.advice)));
  return out;
}
