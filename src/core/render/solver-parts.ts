/**
 * The webhook solvers (godaddy, infoblox): the role installs the webhook's Helm chart, then writes the
 * credentials Secret, a Role that lets the webhook read it and the RoleBinding to the webhook's service
 * account, all in the release's namespace, with the names the inventory gives (or the role's defaults).
 */
import { isDnsLabel, isDnsSubdomain } from '../kube/names.js';
import { secret } from './objects.js';
import { isUnknownValue, type RoleValues } from './values.js';
import { mergeRecords } from '../records.js';
import { aliasOfObjectName, type Solver } from '../config/vocabulary.js';

export interface WebhookNames {
  release: string;
  namespace: string;
  chart: string;
  values: Record<string, unknown>;
  groupName: string;
  solverName: string;
  secret: string;
  role: string;
  roleBinding: string;
  serviceAccount: string;
}

export type WebhookSolver = Extract<Solver, 'godaddy' | 'infoblox'>;

/** The solver name each webhook serves: fixed by its chart (with --names spec, in the neutral words). */
const SOLVER_NAMES: Record<WebhookSolver, string> = { godaddy: 'godaddy', infoblox: 'infoblox-wapi' };

export function webhookNames(ctx: RoleValues, provider: WebhookSolver): WebhookNames {
  const p = `cluster_issuer_acme_${provider}_`;
  const release = ctx.name(`${p}helm_release_name`, `the ${provider} webhook's Helm release`);
  const groupName = String(ctx.optional(`${p}group_name`, `the ${provider} webhook's API group`, 'error') ?? '');
  const overrides = ctx.value(`${p}helm_values`);
  if (!isUnknownValue(release) && !(release.length <= 53 && isDnsLabel(release))) {
    ctx.finding(`${p}helm_release_name`, 'error', `${p}helm_release_name is "${release}", which Helm refuses as a release name (lower-case letters, digits and "-", at most 53 characters).`, `Choose a name such as ${provider}-webhook.`);
  }
  if (!isUnknownValue(groupName) && !isDnsSubdomain(groupName)) {
    ctx.finding(`${p}group_name`, 'error', `${p}group_name is "${groupName}", which is not a DNS name: the webhook's API group cannot be registered.`, 'Use a DNS name, e.g. acme.example.com.');
  }
  return {
    release,
    namespace: ctx.name(`${p}helm_release_namespace`, `the ${provider} webhook's namespace`),
    chart: ctx.text(`${p}helm_chart_ref`),
    values: mergeRecords({ groupName }, overrides), // Ansible's combine(recursive=True)
    groupName,
    solverName: ctx.profile === 'spec' ? aliasOfObjectName(SOLVER_NAMES[provider]) : SOLVER_NAMES[provider],
    secret: ctx.name(`${p}secret_name`, `the ${provider} credentials' Secret`),
    role: ctx.name(`${p}role_name`, `the ${provider} webhook's Role`),
    roleBinding: ctx.name(`${p}role_binding_name`, `the ${provider} webhook's RoleBinding`),
    serviceAccount: ctx.name(`${p}service_account_name`, `the ${provider} webhook's service account`),
  };
}

/** The Helm release, the credentials Secret, the Role and the RoleBinding, in the role's order. */
export function clusterIssuerSolverParts(ctx: RoleValues, provider: WebhookSolver, n: WebhookNames, data: Record<string, unknown>, from: string[]): void {
  const p = `cluster_issuer_acme_${provider}_`;
  ctx.out.helm.push({ name: n.release, namespace: n.namespace, chart: n.chart, values: n.values });
  ctx.add(secret(n.secret, data, 'Opaque', n.namespace), [...from, `${p}secret_name`], { nameFrom: `${p}secret_name` });
  ctx.add({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: n.role, namespace: n.namespace },
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'watch'], resourceNames: [n.secret] }],
  }, ['cluster_issuer_acme_solver', `${p}role_name`], { nameFrom: `${p}role_name` });
  ctx.add({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: n.roleBinding, namespace: n.namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: n.role },
    subjects: [{ kind: 'ServiceAccount', name: n.serviceAccount, namespace: n.namespace }],
  }, ['cluster_issuer_acme_solver', `${p}role_binding_name`, `${p}service_account_name`], { nameFrom: ctx.source(`${p}role_binding_name`) });
}


