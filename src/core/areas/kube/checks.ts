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
import type { Check, CheckContext, RunResult, RunnableCheck, Unavailable } from '../../doctor/types.js';
import { always, cluster, firstClosed, notApplicable, notConfigured, type Gate } from '../../doctor/gates.js';
import { setting } from '../../config/settings.js';
import { discoverySettings, keylessGate } from '../../config/discovery-settings.js';
import { expectationsFrom } from '../../config/expectations.js';
import { inventoryView } from '../../inventory/inventory.js';
import type { KubectlOptions } from '../../kube/kubectl.js';
import { kubeOptionsFor } from '../../kube/options.js';
import { CERT_MANAGER_NAMESPACE, ingressClassOf, issuerNameOf, MIN_CERT_MANAGER, PLATFORM_NAMESPACE } from '../../kube/platform.js';
import { clusterReads, itemsOf, type ClusterReads } from '../../kube/reads.js';
import { contextCheck } from './context.js';
import { crdVersion, serviceAccountExists, tokenPermission } from './keyless.js';
import { certManagerHealthResult, controllerDown } from './health.js';
import { issuerResult, issuersResult, judgeIssuer, missingIssuerResult } from './issuer.js';
import { readLiveIssuer, selfSignedCaSecrets, SELF_SIGNED_CLUSTER_ISSUER, type IssuerHints } from '../../kube/live-issuer.js';
import { readCondition, type CmObject } from '../../kube/objects.js';
import { webhookProbe } from './webhook.js';
import { issuerDriftCheck } from './issuer-drift.js';
import { certificatesResult, type CertificatesSnapshot } from './certificates.js';
import { wildcardCopiesResult } from './wildcard.js';
import { ingressSecretsResult, judgeIngresses } from './ingress-secrets.js';
import { certManagerObjects, ingressSecretLookups, scopeOf, tlsSecretsIn, wildcardCopies, type PlatformFacts } from './snapshots.js';

const GROUP = 'kube';
/** The no-cluster skip of this group reads "No cluster to ask: <why>". */
const LEAD = 'No cluster to ask';
type OnCluster = (reads: ClusterReads, kube: KubectlOptions, ctx: CheckContext) => Promise<RunResult<object>>;

/** Found only on the cluster: cert-manager's CRDs are not there, so nothing of cert-manager can be read (kube.issuer fails on it). */
const CRDS_MISSING: Unavailable = {
  unavailable: 'needs-failed',
  message: 'cert-manager\'s CRDs are not installed (kube.issuer says so).',
  text: 'Install cert-manager with its CRDs (the platform does it first).',
};

/** Which secrets hold the platform's self-signed CA: the cluster's self-signed CA Certificates, and the inventory's name for it. */
function hintsFrom(items: CmObject[], inventorySecret: string | undefined): IssuerHints {
  return { selfSignedCaSecrets: [...selfSignedCaSecrets(items), ...(inventorySecret ? [inventorySecret] : [])] };
}

/** A Certificate cert-manager is working on or that is not Ready: its events are read. */
const unsettled = (c: CmObject) => readCondition(c, 'Ready')?.status !== 'True' || readCondition(c, 'Issuing')?.status === 'True'
  || (typeof c.status?.failedIssuanceAttempts === 'number' && c.status.failedIssuanceAttempts > 0);

/**
 * A check's `run` behind the cluster gate: the run's shared reads and kubectl, both at the context the
 * gate found answering (ctx.cluster), with the check's own signal and log for its own kubectl calls.
 */
function onCluster(reads: ClusterReads, input: DoctorInput, body: OnCluster): RunnableCheck['run'] {
  return (ctx: CheckContext) => {
    const context = ctx.cluster?.context;
    if (!context) throw new Error('a kube check ran without the cluster gate\'s context');
    return body(reads.at(context), { ...kubeOptionsFor(input, { signal: ctx.signal, log: (line) => ctx.log(line) }), context }, ctx);
  };
}

export const provideChecks: CheckProvider = async (input) => {
  const view = await inventoryView(input);
  const expected = expectationsFrom(view.values, input.inventoryPath);
  const facts: PlatformFacts = { issuerName: issuerNameOf(view.values), ingressClass: ingressClassOf(view.values), issuerType: expected.issuerType, suppliedSecret: expected.suppliedSecret };
  const issuerName = facts.issuerName;
  const shownIssuer = issuerName ?? '(a template)';
  const discovery = await discoverySettings(input);
  const controllerAccount = textOf(memberOf(input.config.discovery, 'controller_service_account')) || 'cert-manager';
  const keyless = keylessGate(discovery, 'inventory or issuer URL');
  const noIssuer = expected.issuerType === 'none' ? notApplicable('cluster_issuer_type is none: the platform issues nothing (see kube.wildcard-secret).') : always;
  const templated = issuerName === null
    ? notConfigured('The inventory makes the issuer\'s name a template, known only when the deployment runs: set cluster_issuer_name to a plain name to check it.')
    : always;
  const supplied = expected.issuerType === 'none' && expected.suppliedSecret
    ? always
    : notApplicable('No supplied wildcard: the inventory does not set cluster_issuer_type: none with openstack_helm_ingress_secret_name.');
  // Shared by every check, so logged for the run (kubectl redacts the lines) rather than for one check.
  const reads = clusterReads(kubeOptionsFor(input, { log: input.network.verbose ? (line) => input.network.log(line) : undefined }));
  const withCluster = (body: OnCluster) => onCluster(reads, input, body);
  /** Behind the cluster gate, unless the inventory does not call for the check (its closed gate says why). */
  const reachable = cluster(kubeOptionsFor(input), { lead: LEAD });
  const gate = (...first: Gate[]): Gate => firstClosed(...first, reachable);
  const netTimeout = input.network.timeoutMs;
  const selfSignedSecret = textOf(view.values.cluster_issuer_self_signed_secret_name);
  /** The Certificates kube.certificates judges: the platform's namespaces, and its CA Certificates in cert-manager's. */
  const certificateScope = async (r: ClusterReads) => {
    const scope = await scopeOf(r, facts);
    return [...new Set([...scope.namespaces, CERT_MANAGER_NAMESPACE])];
  };

  const checks: Check[] = [
    { id: 'kube.crd-version', group: GROUP, title: `cert-manager CRDs are ${MIN_CERT_MANAGER} or newer`, gate: gate(keyless), run: withCluster((_, kube) => crdVersion(kube)) },
    { id: 'kube.service-account', group: GROUP, title: `Service account ${discovery.namespace}/${discovery.serviceAccount} exists`, gate: gate(keyless), run: withCluster((_, kube) => serviceAccountExists(kube, discovery)) },
    { id: 'kube.token-permission', group: GROUP, title: `cert-manager may request tokens for ${discovery.serviceAccount}`, gate: gate(keyless), run: withCluster((_, kube) => tokenPermission(kube, discovery, controllerAccount)) },
    { id: 'kube.cert-manager', group: GROUP, title: 'cert-manager\'s controller, webhook and cainjector run', gate: gate(), timeoutMs: netTimeout * 2, run: withCluster(async (r) => {
      const list = await r.list('workloads');
      if (!list.ok) return { status: 'fail', message: `Cannot list the Deployments of the cert-manager namespace: ${list.error}`, advice: 'Check your access to the cluster (kubectl auth can-i list deployments -n cert-manager).' };
      return certManagerHealthResult(list.items);
    }) },
    { id: 'kube.webhook', group: GROUP, title: 'cert-manager\'s webhook admits its objects (a dry-run create)', gate: gate(), after: ['kube.cert-manager'], timeoutMs: netTimeout * 2, run: withCluster((_, kube) => webhookProbe(kube)) },
    { id: 'kube.issuer', group: GROUP, title: `ClusterIssuer "${shownIssuer}" is Ready`, gate: gate(noIssuer, templated), timeoutMs: netTimeout * 2, run: withCluster(async (r) => {
      const list = await r.list('certManager');
      if (!list.ok && !list.missingKind) return { status: 'fail', message: `Cannot read cert-manager's objects: ${list.error}`, advice: 'Check your access to the cluster (kubectl auth can-i list clusterissuers).' };
      const live = itemsOf(list, 'ClusterIssuer').find((i) => i.metadata?.name === issuerName);
      const certificates = itemsOf(list, 'Certificate');
      return live ? issuerResult(live, expected.issuerType, issuerName!, hintsFrom(certificates, selfSignedSecret), certificates) : missingIssuerResult(issuerName!, !list.ok);
    }) },
    { id: 'kube.issuers', group: GROUP, title: 'The other issuers the platform makes and its Certificates use are Ready', gate: gate(), timeoutMs: netTimeout * 2, run: withCluster(async (r) => {
      const list = await r.list('certManager');
      if (!list.ok) {
        return list.missingKind
          ? CRDS_MISSING
          : { status: 'fail', message: `Cannot read cert-manager's objects: ${list.error}`, advice: 'Check your access to the cluster (kubectl auth can-i list issuers --all-namespaces).' };
      }
      const namespaces = await certificateScope(r);
      const certificates = itemsOf(list, 'Certificate');
      const inScope = certificates.filter((c) => namespaces.includes(c.metadata?.namespace ?? ''));
      const referenced = new Set(inScope.filter((c) => textOf(memberOf(c.spec?.issuerRef, 'kind')) === 'ClusterIssuer').map((c) => textOf(memberOf(c.spec?.issuerRef, 'name'))));
      const clusterIssuers = itemsOf(list, 'ClusterIssuer')
        .filter((i) => i.metadata?.name !== issuerName && (i.metadata?.name === SELF_SIGNED_CLUSTER_ISSUER || referenced.has(i.metadata?.name)));
      const issuers = itemsOf(list, 'Issuer').filter((i) => namespaces.includes(i.metadata?.namespace ?? ''));
      const hints = hintsFrom(certificates, selfSignedSecret);
      const verdicts = [...clusterIssuers, ...issuers].map((i) => judgeIssuer(readLiveIssuer(i, hints), certificates));
      const missingSelfSigned = !itemsOf(list, 'ClusterIssuer').some((i) => i.metadata?.name === SELF_SIGNED_CLUSTER_ISSUER) && !referenced.has(SELF_SIGNED_CLUSTER_ISSUER);
      return issuersResult(verdicts, missingSelfSigned);
    }) },
    { id: 'kube.issuer-drift', group: GROUP, title: `ClusterIssuer "${shownIssuer}" matches the inventory`, gate: gate(templated), timeoutMs: netTimeout * 2, run: withCluster(async (r, kube) => {
      const list = await r.list('certManager');
      if (!list.ok && !list.missingKind) return { status: 'fail', message: `Cannot read the ClusterIssuers: ${list.error}`, advice: 'Check your access to the cluster (kubectl auth can-i list clusterissuers).' };
      return issuerDriftCheck(kube, view, issuerName!, facts.ingressClass, itemsOf(list, 'ClusterIssuer').find((i) => i.metadata?.name === issuerName));
    }) },
    { id: 'kube.certificates', group: GROUP, title: 'Certificates of the platform\'s namespaces are Ready and current', gate: gate(), after: ['kube.cert-manager'], timeoutMs: netTimeout * 3, run: withCluster(async (r, _kube, ctx) => {
      const [list, namespaces, workloads] = await Promise.all([r.list('certManager'), certificateScope(r), r.list('workloads')]);
      if (!list.ok) {
        return list.missingKind
          ? CRDS_MISSING
          : { status: 'fail', message: `Cannot list the Certificates: ${list.error}`, advice: 'Check your access to the cluster (kubectl auth can-i list certificates --all-namespaces).' };
      }
      const objects = certManagerObjects(list.items);
      const inScope = objects.certificates.filter((c) => namespaces.includes(c.metadata?.namespace ?? ''));
      // Events say what conditions do not (an Order that never got a Challenge): read for any Certificate not settled.
      const events = inScope.some(unsettled) ? await r.list('events') : undefined;
      const snapshot: CertificatesSnapshot = {
        ...objects, certificates: inScope, secrets: await tlsSecretsIn(r, namespaces), events: events?.ok ? events.items : [], namespaces,
        platformIssuer: issuerName ?? '', ingressClass: facts.ingressClass ?? '(the inventory\'s ingress class)', issuerType: expected.issuerType,
        controllerDown: workloads.ok && controllerDown(workloads.items), now: ctx.services.clock.now(), issuerHints: hintsFrom(objects.certificates, selfSignedSecret), allCertificates: objects.certificates,
      };
      return certificatesResult(snapshot);
    }) },
    {
      id: 'kube.wildcard-secret', group: GROUP, title: 'Supplied wildcard certificate secret (each copy)',
      gate: gate(supplied),
      run: withCluster(async (r, kube, ctx) => {
      const scope = await scopeOf(r, facts);
      const secrets = await tlsSecretsIn(r, scope.namespaces);
      const copies = await wildcardCopies(expected.suppliedSecret!, scope.ingresses, secrets, kube);
      return wildcardCopiesResult(expected.suppliedSecret!, copies, expected.wildcardDomain, PLATFORM_NAMESPACE, ctx.services.clock.now());
      }),
    },
    { id: 'kube.ingress-secrets', group: GROUP, title: 'TLS secrets of the platform\'s ingresses', gate: gate(), timeoutMs: netTimeout * 3, run: withCluster(async (r, kube) => {
      const scope = await scopeOf(r, facts);
      if (scope.error) return { status: 'fail', message: `Cannot list the ingresses: ${scope.error}`, advice: 'Check your access to the cluster (kubectl auth can-i list ingresses --all-namespaces).' };
      const [secrets, list] = await Promise.all([tlsSecretsIn(r, scope.namespaces), r.list('certManager')]);
      const managed = new Set(itemsOf(list, 'Certificate').map((c) => `${c.metadata?.namespace}/${textOf(c.spec?.secretName)}`));
      const snapshot = {
        ingresses: scope.ingresses, namespaces: scope.namespaces, platformIssuer: issuerName ?? '', managedSecrets: managed,
        secrets: await ingressSecretLookups(r, scope.ingresses, secrets, kube), issuerType: expected.issuerType, suppliedSecret: expected.suppliedSecret,
        platformIssuerExists: issuerName !== null && itemsOf(list, 'ClusterIssuer').some((i) => i.metadata?.name === issuerName),
      };
      return ingressSecretsResult(snapshot, judgeIngresses(snapshot));
    }) },
  ];
  // Present only when a context is named: without one kubectl's current context is used, which the other checks judge.
  const named = setting(input, 'kube', 'context');
  if (named) {
    // `always`: it asks kubectl about the kubeconfig only, and says which context is missing when none answers.
    checks.unshift({
      id: 'kube.context', group: GROUP, title: 'The kubectl context exists', gate: always,
      run: (ctx) => contextCheck(input, named, ctx.signal, (line) => ctx.log(line)),
    });
  }
  return checks;
};
