/**
 * Doctor group `kube`: every check of a cluster in the doctor's one shape, `{id, group, title, gate,
 * needs?, after?, timeoutMs?, run}`, over one set of reads per run (kube/reads.ts). The runner decides
 * from the gate: `cluster(...)` skips with `no-cluster` when kubectl reaches none (asked once per run,
 * whatever the group) and hands on the context that answered; a gate closed for this inventory skips
 * with `not-configured` and the area's sentence.
 */
import { memberOf, textOf } from '../../records.js';
import type { DoctorInput } from '../../doctor/input.js';
import type { CheckProvider } from '../../doctor/area.js';
import type { Check, CheckContext, RunResult, RunnableCheck } from '../../doctor/types.js';
import { CLOSED, CRDS_MISSING, NO_CLUSTER_LEAD, refusedRead, TEMPLATED_NAME, TITLES } from './messages.js';
import { always, appliesWhen, cluster, firstClosed, notConfigured, type Gate } from '../../doctor/gates.js';
import { setting } from '../../config/settings.js';
import { discoverySettings, keylessGate } from '../../config/discovery-settings.js';
import { expectationsFrom } from '../../config/expectations.js';
import { inventoryView } from '../../inventory/inventory.js';
import type { KubectlOptions } from '../../kube/kubectl.js';
import { kubeOptionsFor } from '../../kube/options.js';
import { CERT_MANAGER_NAMESPACE, ingressClassOf, issuerNameOf, PLATFORM_NAMESPACE } from '../../kube/platform.js';
import { clusterReads, itemsOf, type ClusterReads } from '../../kube/reads.js';
import { contextCheck } from './context.js';
import { crdVersion, serviceAccountExists, tokenPermission } from './keyless.js';
import { certManagerHealthResult, controllerDown } from './health.js';
import { issuerResult, issuersResult, judgeIssuer, missingIssuerResult } from './issuer.js';
import {
  readLiveIssuer,
  selfSignedCaSecrets,
  SELF_SIGNED_CLUSTER_ISSUER,
  type IssuerHints,
} from '../../kube/live-issuer.js';
import { readCondition, type CmObject } from '../../kube/objects.js';
import { webhookProbe } from './webhook.js';
import { issuerDriftCheck } from './issuer-drift.js';
import { certificatesResult } from './certificates.js';
import { wildcardCopiesResult } from './wildcard.js';
import { ingressSecretsResult, judgeIngresses } from './ingress-secrets.js';
import {
  certManagerObjects,
  ingressSecretLookups,
  scopeOf,
  tlsSecretsIn,
  wildcardCopies,
  type PlatformFacts,
} from './snapshots.js';

const GROUP = 'kube';
type OnCluster = (reads: ClusterReads, kube: KubectlOptions, ctx: CheckContext) => Promise<RunResult<object>>;

/** Which secrets hold the platform's self-signed CA: the cluster's self-signed CA Certificates, and the inventory's name for it. */
function hintsFrom(items: CmObject[], inventorySecret: string | undefined): IssuerHints {
  return { selfSignedCaSecrets: [...selfSignedCaSecrets(items), ...(inventorySecret ? [inventorySecret] : [])] };
}

/** A Certificate cert-manager is working on or that is not Ready: its events are read. */
const unsettled = (c: CmObject) =>
  readCondition(c, 'Ready')?.status !== 'True' ||
  readCondition(c, 'Issuing')?.status === 'True' ||
  (typeof c.status?.failedIssuanceAttempts === 'number' && c.status.failedIssuanceAttempts > 0);

/**
 * A check's `run` behind the cluster gate: the run's shared reads and kubectl, both at the context the
 * gate found answering (ctx.cluster), with the check's own signal and log for its own kubectl calls.
 */
function onCluster(reads: ClusterReads, input: DoctorInput, body: OnCluster): RunnableCheck['run'] {
  return (ctx: CheckContext) => {
    const context = ctx.cluster?.context;
    if (!context) throw new Error("a kube check ran without the cluster gate's context");
    return body(
      reads.at(context),
      { ...kubeOptionsFor(input, { signal: ctx.signal, log: (line) => ctx.log(line) }), context },
      ctx,
    );
  };
}

export const provideChecks: CheckProvider = async (input) => {
  const view = await inventoryView(input);
  const expected = expectationsFrom(view.values, input.inventoryPath);
  const facts: PlatformFacts = {
    issuerName: issuerNameOf(view.values),
    ingressClass: ingressClassOf(view.values),
    issuerType: expected.issuerType,
    suppliedSecret: expected.suppliedSecret,
  };
  const issuerName = facts.issuerName;
  const shownIssuer = issuerName ?? TEMPLATED_NAME;
  const discovery = await discoverySettings(input);
  const controllerAccount = setting(input, 'discovery', 'controller_service_account') ?? 'cert-manager';
  const selfSignedSecret = textOf(view.values.cluster_issuer_self_signed_secret_name);

  // When the inventory calls for a check at all, decided now; the cluster is asked once per run by the gate.
  const keyless = keylessGate(discovery, 'inventory or issuer URL');
  const noIssuer = appliesWhen(expected.issuerType !== 'none', CLOSED.noIssuer);
  const templated = issuerName === null ? notConfigured(CLOSED.templatedIssuer) : always;
  const supplied = appliesWhen(
    expected.issuerType === 'none' && Boolean(expected.suppliedSecret),
    CLOSED.noSuppliedWildcard,
  );
  const reachable = cluster(kubeOptionsFor(input), { lead: NO_CLUSTER_LEAD });
  const gate = (...first: Gate[]): Gate => firstClosed(...first, reachable);

  // Shared by every check, so logged for the run (kubectl redacts the lines) rather than for one check.
  const reads = clusterReads(
    kubeOptionsFor(input, { log: input.network.verbose ? (line) => input.network.log(line) : undefined }),
  );
  const withCluster = (body: OnCluster) => onCluster(reads, input, body);
  const twice = input.network.timeoutMs * 2;
  const thrice = input.network.timeoutMs * 3;
  const hints = (certificates: CmObject[]) => hintsFrom(certificates, selfSignedSecret);
  /** The Certificates kube.certificates judges: the platform's namespaces, and its CA Certificates in cert-manager's. */
  const certificateScope = async (r: ClusterReads) => {
    const scope = await scopeOf(r, facts);
    return [...new Set([...scope.namespaces, CERT_MANAGER_NAMESPACE])];
  };

  const checks: Check[] = [
    {
      id: 'kube.crd-version',
      group: GROUP,
      title: TITLES.crdVersion,
      gate: gate(keyless),
      run: withCluster((_, kube) => crdVersion(kube)),
    },
    {
      id: 'kube.service-account',
      group: GROUP,
      title: TITLES.serviceAccount(discovery.namespace, discovery.serviceAccount),
      gate: gate(keyless),
      run: withCluster((_, kube) => serviceAccountExists(kube, discovery)),
    },
    {
      id: 'kube.token-permission',
      group: GROUP,
      title: TITLES.tokenPermission(discovery.serviceAccount),
      gate: gate(keyless),
      run: withCluster((_, kube) => tokenPermission(kube, discovery, controllerAccount)),
    },
    {
      id: 'kube.cert-manager',
      group: GROUP,
      title: TITLES.certManager,
      gate: gate(),
      timeoutMs: twice,
      run: withCluster(async (r) => {
        const list = await r.list('workloads');
        if (!list.ok)
          return refusedRead(
            'list the Deployments of the cert-manager namespace',
            list.error,
            'list deployments -n cert-manager',
          );
        return certManagerHealthResult(list.items);
      }),
    },
    {
      id: 'kube.webhook',
      group: GROUP,
      title: TITLES.webhook,
      gate: gate(),
      after: ['kube.cert-manager'],
      timeoutMs: twice,
      run: withCluster((_, kube) => webhookProbe(kube)),
    },
    {
      id: 'kube.issuer',
      group: GROUP,
      title: TITLES.issuer(shownIssuer),
      gate: gate(noIssuer, templated),
      timeoutMs: twice,
      run: withCluster(async (r) => {
        const list = await r.list('certManager');
        if (!list.ok && !list.missingKind)
          return refusedRead("read cert-manager's objects", list.error, 'list clusterissuers');
        const live = itemsOf(list, 'ClusterIssuer').find((i) => i.metadata?.name === issuerName);
        const certificates = itemsOf(list, 'Certificate');
        // Open only for a plain name (the gate `templated`).
        const name = issuerName!;
        return live
          ? issuerResult(live, expected.issuerType, name, hints(certificates), certificates)
          : missingIssuerResult(name, !list.ok);
      }),
    },
    {
      id: 'kube.issuers',
      group: GROUP,
      title: TITLES.issuers,
      gate: gate(),
      timeoutMs: twice,
      run: withCluster(async (r) => {
        const list = await r.list('certManager');
        if (!list.ok)
          return list.missingKind
            ? CRDS_MISSING
            : refusedRead("read cert-manager's objects", list.error, 'list issuers --all-namespaces');
        return otherIssuers(
          itemsOf(list, 'ClusterIssuer'),
          itemsOf(list, 'Issuer'),
          itemsOf(list, 'Certificate'),
          await certificateScope(r),
        );
      }),
    },
    {
      id: 'kube.issuer-drift',
      group: GROUP,
      title: TITLES.issuerDrift(shownIssuer),
      gate: gate(templated),
      timeoutMs: twice,
      run: withCluster(async (r, kube) => {
        const list = await r.list('certManager');
        if (!list.ok && !list.missingKind)
          return refusedRead('read the ClusterIssuers', list.error, 'list clusterissuers');
        const live = itemsOf(list, 'ClusterIssuer').find((i) => i.metadata?.name === issuerName);
        return issuerDriftCheck(kube, view, issuerName!, facts.ingressClass, live);
      }),
    },
    {
      id: 'kube.certificates',
      group: GROUP,
      title: TITLES.certificates,
      gate: gate(),
      after: ['kube.cert-manager'],
      timeoutMs: thrice,
      run: withCluster(async (r, _kube, ctx) => {
        const [list, namespaces, workloads] = await Promise.all([
          r.list('certManager'),
          certificateScope(r),
          r.list('workloads'),
        ]);
        if (!list.ok)
          return list.missingKind
            ? CRDS_MISSING
            : refusedRead('list the Certificates', list.error, 'list certificates --all-namespaces');
        const objects = certManagerObjects(list.items);
        const inScope = objects.certificates.filter((c) => namespaces.includes(c.metadata?.namespace ?? ''));
        // Events say what conditions do not (an Order that never got a Challenge): read for any Certificate not settled.
        const events = inScope.some(unsettled) ? await r.list('events') : undefined;
        return certificatesResult({
          ...objects,
          certificates: inScope,
          secrets: await tlsSecretsIn(r, namespaces),
          events: events?.ok ? events.items : [],
          namespaces,
          platformIssuer: issuerName ?? '',
          ingressClass: facts.ingressClass ?? "(the inventory's ingress class)",
          issuerType: expected.issuerType,
          controllerDown: workloads.ok && controllerDown(workloads.items),
          now: ctx.services.clock.now(),
          issuerHints: hints(objects.certificates),
          allCertificates: objects.certificates,
        });
      }),
    },
    {
      id: 'kube.wildcard-secret',
      group: GROUP,
      title: TITLES.wildcardSecret,
      gate: gate(supplied),
      run: withCluster(async (r, kube, ctx) => {
        // Open only with a supplied secret (the gate `supplied`).
        const secret = expected.suppliedSecret!;
        const scope = await scopeOf(r, facts);
        const copies = await wildcardCopies(secret, scope.ingresses, await tlsSecretsIn(r, scope.namespaces), kube);
        return wildcardCopiesResult(
          secret,
          copies,
          expected.wildcardDomain,
          PLATFORM_NAMESPACE,
          ctx.services.clock.now(),
        );
      }),
    },
    {
      id: 'kube.ingress-secrets',
      group: GROUP,
      title: TITLES.ingressSecrets,
      gate: gate(),
      timeoutMs: thrice,
      run: withCluster(async (r, kube) => {
        const scope = await scopeOf(r, facts);
        if (scope.error) return refusedRead('list the ingresses', scope.error, 'list ingresses --all-namespaces');
        const [secrets, list] = await Promise.all([tlsSecretsIn(r, scope.namespaces), r.list('certManager')]);
        const snapshot = {
          ingresses: scope.ingresses,
          namespaces: scope.namespaces,
          platformIssuer: issuerName ?? '',
          managedSecrets: new Set(
            itemsOf(list, 'Certificate').map((c) => `${c.metadata?.namespace}/${textOf(c.spec?.secretName)}`),
          ),
          secrets: await ingressSecretLookups(r, scope.ingresses, secrets, kube),
          issuerType: expected.issuerType,
          suppliedSecret: expected.suppliedSecret,
          platformIssuerExists:
            issuerName !== null && itemsOf(list, 'ClusterIssuer').some((i) => i.metadata?.name === issuerName),
        };
        return ingressSecretsResult(snapshot, judgeIngresses(snapshot));
      }),
    },
  ];
  // Present only when a context is named: without one kubectl's current context is used, which the other checks judge.
  const named = setting(input, 'kube', 'context');
  if (named) {
    // `always`: it asks kubectl about the kubeconfig only, and says which context is missing when none answers.
    checks.unshift({
      id: 'kube.context',
      group: GROUP,
      title: TITLES.context,
      gate: always,
      run: (ctx) => contextCheck(input, named, ctx.signal, (line) => ctx.log(line)),
    });
  }
  return checks;

  /** kube.issuers: the issuers besides the platform's ClusterIssuer that the platform makes or its Certificates use. */
  function otherIssuers(
    clusterIssuers: CmObject[],
    issuers: CmObject[],
    certificates: CmObject[],
    namespaces: string[],
  ) {
    const inScope = certificates.filter((c) => namespaces.includes(c.metadata?.namespace ?? ''));
    const byClusterIssuer = inScope.filter((c) => textOf(memberOf(c.spec?.issuerRef, 'kind')) === 'ClusterIssuer');
    const referenced = new Set(byClusterIssuer.map((c) => textOf(memberOf(c.spec?.issuerRef, 'name'))));
    const named = (i: CmObject) => i.metadata?.name;
    const others = clusterIssuers.filter(
      (i) => named(i) !== issuerName && (named(i) === SELF_SIGNED_CLUSTER_ISSUER || referenced.has(named(i))),
    );
    const local = issuers.filter((i) => namespaces.includes(i.metadata?.namespace ?? ''));
    const verdicts = [...others, ...local].map((i) =>
      judgeIssuer(readLiveIssuer(i, hints(certificates)), certificates),
    );
    const selfSignedMissing =
      !clusterIssuers.some((i) => named(i) === SELF_SIGNED_CLUSTER_ISSUER) &&
      !referenced.has(SELF_SIGNED_CLUSTER_ISSUER);
    return issuersResult(verdicts, selfSignedMissing);
  }
};
