/**
 * The ACME solvers of the platform's role, one task file each (`type/acme/solver/<solver>.yml`), task
 * by task: the objects each task applies, the ClusterIssuer with its one solver last. A task whose
 * templates fail applies nothing, and the deployment stops there (values.ts).
 */
import { CERT_MANAGER_NAMESPACE } from './names.js';
import { ROUTE53_AUTH_MODES, type Solver } from '../config/vocabulary.js';
import { isOneOf } from '../records.js';
import { webhookSolver } from './solver-parts.js';
import { acmeIssuerObject, secret, type RenderOptions } from './objects.js';
import { isUnknownValue, made, type RoleValues } from './values.js';

type SolverBranch = (ctx: RoleValues, options: RenderOptions) => void;

const dns01 = (provider: Record<string, unknown>) => ({ dns01: provider });

/** One per task file of the role (`type/acme/solver/<cluster_issuer_acme_solver>.yml`). */
export const SOLVER_BRANCHES: Record<Solver, SolverBranch> = {
  http01: (ctx) => {
    ctx.task(() => ({
      objects: [
        acmeIssuerObject(
          ctx,
          {
            http01: {
              ingress: { class: ctx.optional('cluster_issuer_acme_http01_ingress_class', 'the HTTP-01 ingress class') },
            },
          },
          ['cluster_issuer_acme_http01_ingress_class'],
        ),
      ],
    }));
  },
  azuredns: (ctx) => {
    const p = 'cluster_issuer_acme_azuredns_';
    const v = (suffix: string) => ctx.field(`${p}${suffix}`, 'the azuredns solver');
    ctx.task(() => {
      const name = ctx.name(`${p}secret_name`, "the azuredns credentials' Secret");
      return {
        objects: [
          made(secret(name, { 'client-secret': v('client_secret') }), [`${p}client_secret`, `${p}secret_name`], {
            nameFrom: `${p}secret_name`,
          }),
          acmeIssuerObject(
            ctx,
            dns01({
              azureDNS: {
                clientID: v('client_id'),
                clientSecretSecretRef: { name, key: 'client-secret' },
                subscriptionID: v('subscription_id'),
                tenantID: v('tenant_id'),
                resourceGroupName: v('resourcegroup_name'),
                hostedZoneName: v('hostedzone_name'),
                environment: ctx.optional(`${p}environment`, 'azureDNS.environment'),
              },
            }),
            [
              'client_id',
              'subscription_id',
              'tenant_id',
              'resourcegroup_name',
              'hostedzone_name',
              'environment',
              'secret_name',
            ].map((s) => `${p}${s}`),
          ),
        ],
      };
    });
  },
  rfc2136: (ctx) => {
    const p = 'cluster_issuer_acme_rfc2136_';
    ctx.task(() => {
      const name = ctx.name(`${p}secret_name`, "the TSIG key's Secret");
      return {
        objects: [
          made(
            secret(name, { 'tsig-secret-key': ctx.field(`${p}tsig_secret_key`, 'the TSIG secret') }),
            [`${p}tsig_secret_key`, `${p}secret_name`],
            { nameFrom: `${p}secret_name` },
          ),
          acmeIssuerObject(
            ctx,
            dns01({
              rfc2136: {
                nameserver: ctx.field(`${p}nameserver`, 'the rfc2136 solver'),
                tsigAlgorithm: ctx.field(
                  `${p}tsig_algorithm`,
                  "the rfc2136 solver (the platform has no default for it, so cert-manager's own default never applies)",
                ),
                tsigKeyName: ctx.field(`${p}tsig_key_name`, 'the rfc2136 solver'),
                tsigSecretSecretRef: { name, key: 'tsig-secret-key' },
              },
            }),
            [`${p}nameserver`, `${p}tsig_algorithm`, `${p}tsig_key_name`, `${p}secret_name`],
          ),
        ],
      };
    });
  },
  route53: route53Solver,
  cloudflare: (ctx) => {
    const p = 'cluster_issuer_acme_cloudflare_';
    ctx.task(() => {
      const name = ctx.name(`${p}secret_name`, "the cloudflare API token's Secret");
      return {
        objects: [
          made(
            secret(name, { 'api-token': ctx.field(`${p}api_token`, 'the cloudflare API token secret') }),
            [`${p}api_token`, `${p}secret_name`],
            { nameFrom: `${p}secret_name` },
          ),
          acmeIssuerObject(
            ctx,
            dns01({
              cloudflare: {
                email: ctx.field(`${p}email`, 'cloudflare.email'),
                apiTokenSecretRef: { name, key: 'api-token' },
              },
            }),
            [`${p}email`, `${p}secret_name`],
          ),
        ],
      };
    });
  },
  godaddy: (ctx) => webhookSolver(ctx, 'godaddy'),
  infoblox: (ctx) => webhookSolver(ctx, 'infoblox'),
};

const MODES = `${ROUTE53_AUTH_MODES.slice(0, -1).join(', ')} or ${ROUTE53_AUTH_MODES.at(-1)}`;

function route53Solver(ctx: RoleValues, options: RenderOptions): void {
  const p = 'cluster_issuer_acme_route53_';
  const auth = ctx.field(`${p}auth`, 'the route53 auth mode');
  // The role's first task asserts the mode: anything else stops the deployment before any object.
  if (ctx.stop) return;
  if (typeof auth !== 'string' || !isOneOf(ROUTE53_AUTH_MODES, auth) || options.foreign?.has(`${p}auth`)) {
    if (isUnknownValue(auth) || options.foreign?.has(`${p}auth`)) {
      ctx.halt({
        variable: `${p}auth`,
        severity: 'info',
        rule: 'not-checked',
        message: `${p}auth is known only when the deployment runs: cloudgate renders nothing more.`,
      });
      return;
    }
    ctx.stopHere({
      variable: `${p}auth`,
      severity: 'error',
      rule: 'platform-assert',
      message: `${p}auth is ${auth === null ? 'null' : `"${String(auth)}"`}: the role asserts ${MODES} and stops the deployment there ("cluster_issuer_acme_route53_auth must be one of: "static", "ambient", "kubernetes"."; nothing of the solver is created).`,
      advice: `Set ${p}auth to ${MODES}.`,
    });
    return;
  }
  if (auth === 'static') {
    ctx.task(() => {
      const name = ctx.name(`${p}secret_name`, 'the static credentials Secret');
      return {
        objects: [
          made(
            secret(name, { 'secret-access-key': ctx.field(`${p}secret_access_key`, 'the static credentials secret') }),
            [`${p}secret_name`, `${p}secret_access_key`],
            { nameFrom: `${p}secret_name` },
          ),
        ],
      };
    });
  }
  if (auth === 'kubernetes') {
    ctx.task(() => {
      const sa = ctx.name(`${p}service_account_name`, 'the keyless service account');
      return {
        objects: [
          made(
            { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: CERT_MANAGER_NAMESPACE } },
            [`${p}service_account_name`],
            { nameFrom: `${p}service_account_name` },
          ),
        ],
      };
    });
    ctx.task(() => {
      const sa = ctx.text(`${p}service_account_name`, 'the keyless service account');
      const roleName = `${sa}-tokenrequest`;
      return {
        objects: [
          made(
            {
              apiVersion: 'rbac.authorization.k8s.io/v1',
              kind: 'Role',
              metadata: { name: roleName, namespace: CERT_MANAGER_NAMESPACE },
              rules: [
                {
                  apiGroups: [''],
                  resources: ['serviceaccounts/token'],
                  resourceNames: [ctx.field(`${p}service_account_name`, 'the keyless service account')],
                  verbs: ['create'],
                },
              ],
            },
            [`${p}service_account_name`],
            { nameFrom: `${p}service_account_name` },
          ),
          made(
            {
              apiVersion: 'rbac.authorization.k8s.io/v1',
              kind: 'RoleBinding',
              metadata: { name: roleName, namespace: CERT_MANAGER_NAMESPACE },
              roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
              subjects: [{ kind: 'ServiceAccount', name: 'cert-manager', namespace: CERT_MANAGER_NAMESPACE }],
            },
            [`${p}service_account_name`],
            { nameFrom: `${p}service_account_name` },
          ),
        ],
      };
    });
  }
  ctx.task(() => {
    const route53: Record<string, unknown> = {
      region: ctx.field(`${p}region`, 'the route53 solver (whatever the auth mode)'),
      hostedZoneID: ctx.field(`${p}hosted_zone_id`, 'the route53 solver (whatever the auth mode)'),
    };
    // `| default('')`, then left out when empty: an empty or null role ARN is the same as none.
    const role = ctx.withDefault(`${p}role_arn`, '');
    if (role !== undefined && role !== null && role !== '') route53.role = role;
    const from = [`${p}auth`, `${p}region`, `${p}hosted_zone_id`, `${p}role_arn`];
    if (auth === 'static') {
      route53.accessKeyID = ctx.withDefault(`${p}access_key_id`, '');
      route53.secretAccessKeySecretRef = {
        name: ctx.name(`${p}secret_name`, 'the static credentials Secret'),
        key: 'secret-access-key',
      };
      from.push(`${p}access_key_id`, `${p}secret_name`);
    } else if (auth === 'kubernetes') {
      route53.auth = {
        kubernetes: {
          serviceAccountRef: { name: ctx.name(`${p}service_account_name`, 'the keyless service account') },
        },
      };
      from.push(`${p}service_account_name`);
    }
    return { objects: [acmeIssuerObject(ctx, dns01({ route53 }), from)] };
  });
}
