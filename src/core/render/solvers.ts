/**
 * The ACME solvers of the platform's role, one task file each: the objects each creates before the
 * ClusterIssuer and the solver entry it writes into it. Undefined returned: the task stops the deployment.
 */
import { CERT_MANAGER_NAMESPACE } from './names.js';
import { ROUTE53_AUTH_MODES, type Solver } from '../config/vocabulary.js';
import { isOneOf } from '../records.js';
import { clusterIssuerSolverParts, webhookNames } from './solver-parts.js';
import { secret, type IssuerSpec, type RenderOptions } from './objects.js';
import { isUnknownValue, type RoleValues } from './values.js';

type SolverBranch = (ctx: RoleValues, options: RenderOptions) => IssuerSpec | undefined;

const dns01 = (provider: Record<string, unknown>) => ({ dns01: provider });

/** One per task file of the role (`type/acme/solver/<cluster_issuer_acme_solver>.yml`). */
export const SOLVER_BRANCHES: Record<Solver, SolverBranch> = {
  http01: (ctx) => ({
    spec: { http01: { ingress: { class: ctx.optional('cluster_issuer_acme_http01_ingress_class', 'the HTTP-01 ingress class', 'error') } } },
    from: ['cluster_issuer_acme_http01_ingress_class'],
  }),
  azuredns: (ctx) => {
    const p = 'cluster_issuer_acme_azuredns_';
    const v = (suffix: string) => ctx.needed(`${p}${suffix}`, 'the azuredns solver');
    const name = ctx.name(`${p}secret_name`, "the azuredns credentials' Secret");
    ctx.add(secret(name, { 'client-secret': v('client_secret') }), [`${p}client_secret`, `${p}secret_name`], { nameFrom: `${p}secret_name` });
    return {
      spec: dns01({
        azureDNS: {
          clientID: v('client_id'), clientSecretSecretRef: { name, key: 'client-secret' },
          subscriptionID: v('subscription_id'), tenantID: v('tenant_id'), resourceGroupName: v('resourcegroup_name'),
          hostedZoneName: v('hostedzone_name'), environment: ctx.optional(`${p}environment`, 'azureDNS.environment', 'error'),
        },
      }),
      from: ['client_id', 'subscription_id', 'tenant_id', 'resourcegroup_name', 'hostedzone_name', 'environment', 'secret_name'].map((s) => `${p}${s}`),
    };
  },
  rfc2136: (ctx) => {
    const p = 'cluster_issuer_acme_rfc2136_';
    const name = ctx.name(`${p}secret_name`, "the TSIG key's Secret");
    ctx.add(secret(name, { 'tsig-secret-key': ctx.needed(`${p}tsig_secret_key`, 'the TSIG secret') }), [`${p}tsig_secret_key`, `${p}secret_name`], { nameFrom: `${p}secret_name` });
    return {
      spec: dns01({
        rfc2136: {
          nameserver: ctx.needed(`${p}nameserver`, 'the rfc2136 solver'),
          tsigAlgorithm: ctx.needed(`${p}tsig_algorithm`, 'the rfc2136 solver (the platform has no default for it)'),
          tsigKeyName: ctx.needed(`${p}tsig_key_name`, 'the rfc2136 solver'),
          tsigSecretSecretRef: { name, key: 'tsig-secret-key' },
        },
      }),
      from: [`${p}nameserver`, `${p}tsig_algorithm`, `${p}tsig_key_name`, `${p}secret_name`],
    };
  },
  route53: route53Solver,
  cloudflare: (ctx) => {
    const p = 'cluster_issuer_acme_cloudflare_';
    const name = ctx.name(`${p}secret_name`, "the cloudflare API token's Secret");
    ctx.add(secret(name, { 'api-token': ctx.needed(`${p}api_token`, 'the cloudflare API token secret') }), [`${p}api_token`, `${p}secret_name`], { nameFrom: `${p}secret_name` });
    const email = ctx.defined(`${p}email`) ? ctx.optional(`${p}email`, 'cloudflare.email')
      : ctx.needed('cluster_issuer_acme_email', 'cloudflare.email (the default of cluster_issuer_acme_cloudflare_email)');
    return {
      spec: dns01({ cloudflare: { email, apiTokenSecretRef: { name, key: 'api-token' } } }),
      from: [`${p}email`, `${p}secret_name`],
    };
  },
  godaddy: (ctx) => {
    const p = 'cluster_issuer_acme_godaddy_';
    const n = webhookNames(ctx, 'godaddy');
    ctx.needed(`${p}api_key`, 'the godaddy API key secret');
    ctx.needed(`${p}secret_key`, 'the godaddy API key secret');
    const token = `${ctx.text(`${p}api_key`)}:${ctx.text(`${p}secret_key`)}`;
    clusterIssuerSolverParts(ctx, 'godaddy', n, { token }, [`${p}api_key`, `${p}secret_key`]);
    return {
      spec: dns01({
        webhook: {
          groupName: n.groupName, solverName: n.solverName,
          config: {
            apiKeySecretRef: { name: n.secret, key: 'token' },
            production: ctx.optional(`${p}is_production`, 'config.production', 'error'),
            ttl: ctx.optional(`${p}ttl`, 'config.ttl', 'error'),
          },
        },
      }),
      from: [`${p}group_name`, `${p}secret_name`, `${p}is_production`, `${p}ttl`],
    };
  },
  infoblox: (ctx) => {
    const p = 'cluster_issuer_acme_infoblox_';
    const n = webhookNames(ctx, 'infoblox');
    const data = { username: ctx.needed(`${p}username`, 'the infoblox credentials secret'), password: ctx.needed(`${p}password`, 'the infoblox credentials secret') };
    clusterIssuerSolverParts(ctx, 'infoblox', n, data, [`${p}username`, `${p}password`]);
    return {
      spec: dns01({
        webhook: {
          groupName: n.groupName, solverName: n.solverName,
          config: {
            host: ctx.needed(`${p}host`, 'the infoblox solver'), view: ctx.needed(`${p}view`, 'the infoblox solver'),
            usernameSecretRef: { name: n.secret, key: 'username' }, passwordSecretRef: { name: n.secret, key: 'password' },
          },
        },
      }),
      from: [`${p}host`, `${p}view`, `${p}group_name`, `${p}secret_name`],
    };
  },
};

const MODES = `${ROUTE53_AUTH_MODES.slice(0, -1).join(', ')} or ${ROUTE53_AUTH_MODES.at(-1)}`;

function route53Solver(ctx: RoleValues, options: RenderOptions): IssuerSpec | undefined {
  const p = 'cluster_issuer_acme_route53_';
  const auth = ctx.value(`${p}auth`);
  // The role's first task asserts the mode: anything else stops the deployment before any object.
  if (typeof auth !== 'string' || !isOneOf(ROUTE53_AUTH_MODES, auth) || options.foreign?.has(`${p}auth`)) {
    if (isUnknownValue(auth) || options.foreign?.has(`${p}auth`)) return undefined;
    ctx.finding(`${p}auth`, 'error',
      `${p}auth is ${auth === null ? 'null' : `"${String(auth)}"`}: the role asserts ${MODES} and stops the deployment there (nothing of the solver is created).`,
      `Set ${p}auth to ${MODES}.`);
    return undefined;
  }
  const route53: Record<string, unknown> = {
    region: ctx.needed(`${p}region`, 'the route53 solver (whatever the auth mode)'),
    hostedZoneID: ctx.needed(`${p}hosted_zone_id`, 'the route53 solver (whatever the auth mode)'),
  };
  // `| default('')`, then left out when empty: an empty or null role ARN is the same as none.
  const role = ctx.value(`${p}role_arn`);
  if (role !== undefined && role !== null && role !== '') route53.role = role;
  const from = [`${p}auth`, `${p}region`, `${p}hosted_zone_id`, `${p}role_arn`];
  if (auth === 'static') {
    const name = ctx.name(`${p}secret_name`, 'the static credentials Secret');
    ctx.add(secret(name, { 'secret-access-key': ctx.needed(`${p}secret_access_key`, 'the static credentials secret') }), [`${p}secret_name`, `${p}secret_access_key`], { nameFrom: `${p}secret_name` });
    const keyId = ctx.value(`${p}access_key_id`);
    route53.accessKeyID = keyId === undefined || keyId === null ? '' : keyId;
    route53.secretAccessKeySecretRef = { name, key: 'secret-access-key' };
    from.push(`${p}access_key_id`, `${p}secret_name`);
  } else if (auth === 'kubernetes') {
    const sa = ctx.name(`${p}service_account_name`, 'the keyless service account');
    if (route53.role === undefined) {
      ctx.finding(`${p}role_arn`, 'error', `${p}role_arn is not set: keyless credentials (auth kubernetes) need a role to assume, and cert-manager refuses the issuer without it.`, `Set ${p}role_arn to the role created for the cluster's OIDC provider ("cloudgate oidc" prints it).`);
    }
    route53.auth = { kubernetes: { serviceAccountRef: { name: sa } } };
    ctx.add({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: CERT_MANAGER_NAMESPACE } }, [`${p}service_account_name`], { nameFrom: `${p}service_account_name` });
    const roleName = `${sa}-tokenrequest`;
    ctx.add({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: roleName, namespace: CERT_MANAGER_NAMESPACE },
      rules: [{ apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: [sa], verbs: ['create'] }],
    }, [`${p}service_account_name`], { nameFrom: `${p}service_account_name` });
    ctx.add({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: roleName, namespace: CERT_MANAGER_NAMESPACE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
      subjects: [{ kind: 'ServiceAccount', name: 'cert-manager', namespace: CERT_MANAGER_NAMESPACE }],
    }, [`${p}service_account_name`], { nameFrom: `${p}service_account_name` });
    from.push(`${p}service_account_name`);
  }
  return { spec: dns01({ route53 }), from };
}
