/**
 * The webhook solvers (godaddy, infoblox), as the role's three tasks: it uploads the webhook's chart to
 * the hosts, installs it with Helm (values: the role's `{groupName}` combined recursively with
 * `helm_values`), then applies the credentials Secret, a Role that lets the webhook read it, the
 * RoleBinding to the webhook's service account (all in the release's namespace) and the ClusterIssuer.
 */
import { isDnsLabel, isDnsSubdomain } from '../kube/names.js';
import { acmeIssuerObject, secret } from './objects.js';
import { isUnknownValue, made, type RoleValues } from './values.js';
import { isRecord, mergeRecords } from '../records.js';
import { aliasOfObjectName, type Solver } from '../config/vocabulary.js';

export type WebhookSolver = Extract<Solver, 'godaddy' | 'infoblox'>;

/** The solver name each webhook serves: fixed by its chart (with --names spec, in the neutral words). */
export const SOLVER_NAMES: Record<WebhookSolver, string> = { godaddy: 'godaddy', infoblox: 'infoblox-wapi' };

export function webhookSolver(ctx: RoleValues, provider: WebhookSolver): void {
  const p = `cluster_issuer_acme_${provider}_`;
  // Upload Helm chart (vexxhost.kubernetes.upload_helm_chart): no object, but its templates must render.
  ctx.task(() => {
    ctx.text(`${p}helm_chart_path`, `the ${provider} webhook's chart`);
    ctx.text(`${p}helm_chart_ref`, `the ${provider} webhook's chart`);
  });
  // Deploy Helm chart
  ctx.task(() => {
    const release = ctx.name(`${p}helm_release_name`, `the ${provider} webhook's Helm release`);
    if (!isUnknownValue(release) && release !== '' && !(release.length <= 53 && isDnsLabel(release))) {
      ctx.finding(
        `${p}helm_release_name`,
        'error',
        'helm-refuses',
        `${p}helm_release_name is "${release}", which Helm refuses as a release name (lower-case letters, digits and "-", at most 53 characters): the deployment stops at the Helm task.`,
        `Choose a name such as ${provider}-webhook.`,
      );
    }
    const own = ctx.field(`_cluster_issuer_acme_${provider}_helm_values`, `the ${provider} webhook's Helm values`);
    const overrides =
      ctx.inInventory(`${p}helm_values`) || ctx.roleDefault(`${p}helm_values`) !== undefined
        ? ctx.field(`${p}helm_values`, `the ${provider} webhook's Helm values`)
        : {};
    return {
      helm: [
        {
          name: release,
          namespace: ctx.name(`${p}helm_release_namespace`, `the ${provider} webhook's namespace`),
          chart: ctx.text(`${p}helm_chart_ref`, `the ${provider} webhook's chart`),
          values: mergeRecords(isRecord(own) ? own : {}, isRecord(overrides) ? overrides : {}), // combine(recursive=True)
        },
      ],
    };
  });
  // Apply manifests for the integration: Secret, Role, RoleBinding, ClusterIssuer
  ctx.task(() => {
    const namespace = ctx.name(`${p}helm_release_namespace`, `the ${provider} webhook's namespace`);
    const secretName = ctx.name(`${p}secret_name`, `the ${provider} credentials' Secret`);
    const role = ctx.name(`${p}role_name`, `the ${provider} webhook's Role`);
    const data =
      provider === 'godaddy'
        ? {
            token: `${ctx.text(`${p}api_key`, 'the godaddy API key secret')}:${ctx.text(`${p}secret_key`, 'the godaddy API key secret')}`,
          }
        : {
            username: ctx.field(`${p}username`, 'the infoblox credentials secret'),
            password: ctx.field(`${p}password`, 'the infoblox credentials secret'),
          };
    const credentials = provider === 'godaddy' ? [`${p}api_key`, `${p}secret_key`] : [`${p}username`, `${p}password`];
    const groupName = ctx.field(`${p}group_name`, `the ${provider} webhook's API group`);
    if (typeof groupName === 'string' && !isUnknownValue(groupName) && groupName !== '' && !isDnsSubdomain(groupName)) {
      ctx.finding(
        `${p}group_name`,
        'error',
        'never-issues',
        `${p}group_name is "${groupName}", which is not a DNS name: the webhook's API group cannot be registered.`,
        'Use a DNS name, e.g. acme.example.com.',
      );
    }
    const solverName = ctx.profile === 'spec' ? aliasOfObjectName(SOLVER_NAMES[provider]) : SOLVER_NAMES[provider];
    const config =
      provider === 'godaddy'
        ? {
            apiKeySecretRef: { name: secretName, key: 'token' },
            production: ctx.field(`${p}is_production`, 'config.production'),
            ttl: ctx.field(`${p}ttl`, 'config.ttl'),
          }
        : {
            host: ctx.field(`${p}host`, 'the infoblox solver'),
            view: ctx.field(`${p}view`, 'the infoblox solver'),
            usernameSecretRef: { name: secretName, key: 'username' },
            passwordSecretRef: { name: secretName, key: 'password' },
          };
    return {
      objects: [
        made(secret(secretName, data, 'Opaque', namespace), [...credentials, `${p}secret_name`], {
          nameFrom: `${p}secret_name`,
        }),
        made(
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'Role',
            metadata: { name: role, namespace },
            rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'watch'], resourceNames: [secretName] }],
          },
          ['cluster_issuer_acme_solver', `${p}role_name`],
          { nameFrom: `${p}role_name` },
        ),
        made(
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: ctx.name(`${p}role_binding_name`, `the ${provider} webhook's RoleBinding`), namespace },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
            subjects: [
              {
                kind: 'ServiceAccount',
                name: ctx.name(`${p}service_account_name`, `the ${provider} webhook's service account`),
                namespace,
              },
            ],
          },
          ['cluster_issuer_acme_solver', `${p}role_binding_name`, `${p}service_account_name`],
          { nameFrom: ctx.source(`${p}role_binding_name`) },
        ),
        acmeIssuerObject(
          ctx,
          { dns01: { webhook: { groupName, solverName, config } } },
          provider === 'godaddy'
            ? [`${p}group_name`, `${p}secret_name`, `${p}is_production`, `${p}ttl`]
            : [`${p}host`, `${p}view`, `${p}group_name`, `${p}secret_name`],
        ),
      ],
    };
  });
}
