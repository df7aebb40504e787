/**
 * The Kubernetes objects the platform's deployment creates from the certificate variables, in the
 * order it applies them: ClusterIssuer `self-signed` first, then the branch's credential and RBAC
 * objects, then ClusterIssuer `atmosphere`, then (wildcard mode, made later by the ingress role) the
 * wildcard Certificate. docs/platform.md describes each branch.
 */
import { isTagged, isVaulted } from '../inventory/ansible-tagged.js';
import { isSet } from '../config/validate.js';
import { choicesOf } from '../config/variables.js';
import { CERT_MANAGER_NAMESPACE, PLATFORM_ISSUER, PLATFORM_NAMESPACE, SELF_SIGNED_ISSUER, WILDCARD_CERTIFICATE, objectNames, type NamingProfile, type ObjectNames } from './names.js';
import type { KubeObject, Rendered, RenderFinding, RenderedObject } from './types.js';

type Values = Record<string, unknown>;

/** Used when the inventory leaves the ACME server unset: the public certificate authority. */
export const DEFAULT_ACME_SERVER = 'https://acme-v02.api.letsencrypt.org/directory';
const CM = 'cert-manager.io/v1';
/** Shown for a vaulted value: Ansible decrypts it only at deploy time. */
export const VAULTED_VALUE = '(vaulted: decrypted at deploy time)';

export function renderPlatform(values: Values, profile: NamingProfile = 'spec'): Rendered {
  const names = objectNames(profile);
  const out: Rendered = { objects: [], helm: [], findings: [] };
  out.objects.push({ object: clusterIssuer(SELF_SIGNED_ISSUER, { selfSigned: {} }), from: [] });
  const { issuer } = choicesOf(values);
  const ctx = new Context(values, out);
  const spec = BRANCHES[issuer]?.(ctx, names);
  if (!spec) return out;
  out.objects.push({ object: clusterIssuer(PLATFORM_ISSUER, spec.spec), from: ['cluster_issuer_type', ...spec.from] });
  const domain = ctx.text('cloud_helm_ingress_wildcard_domain');
  if (domain !== undefined) out.objects.push({ object: wildcardCertificate(domain), from: ['cloud_helm_ingress_wildcard_domain', 'cluster_issuer_type'] });
  return out;
}

/** Wildcard mode: one certificate for `*.<domain>`, issued by the platform's ClusterIssuer, used by every OpenStack ingress. */
function wildcardCertificate(domain: string): KubeObject {
  return {
    apiVersion: CM, kind: 'Certificate', metadata: { name: WILDCARD_CERTIFICATE, namespace: PLATFORM_NAMESPACE },
    spec: { dnsNames: [`*.${domain}`], issuerRef: { kind: 'ClusterIssuer', name: PLATFORM_ISSUER }, secretName: WILDCARD_CERTIFICATE },
  };
}

/** Reads values for one render and records the variables the platform would fail on. */
class Context {
  constructor(readonly values: Values, readonly out: Rendered) {}

  /** The value as the platform passes it on (unset: undefined). */
  get(name: string): unknown {
    return isSet(this.values[name]) ? this.values[name] : undefined;
  }

  /**
   * The value as the platform passes it into an object: as written (a number stays a number, so the
   * schema judges it as the API server would); a vaulted value is known only at deploy time.
   */
  text(name: string, fallback?: string): string | undefined {
    const v = this.get(name);
    if (v === undefined) return fallback;
    if (isVaulted(v)) return VAULTED_VALUE;
    if (isTagged(v)) return v.text;
    return v as string;
  }

  /** A value the platform's templates reference without a default: unset stops the deployment. */
  needed(name: string, what: string): string {
    const v = this.text(name);
    if (v === undefined) this.finding(name, 'error', `${name} is not set, but the platform needs it for ${what}: the deployment would stop with "undefined variable".`, `Set ${name} in the inventory.`);
    return v ?? '';
  }

  finding(variable: string, severity: RenderFinding['severity'], message: string, advice?: string): void {
    this.out.findings.push({ variable, severity, message, ...(advice ? { advice } : {}) });
  }

  add(object: KubeObject, from: string[]): void {
    this.out.objects.push({ object, from } satisfies RenderedObject);
  }
}

interface IssuerSpec {
  spec: Record<string, unknown>;
  from: string[];
}

type Branch = (ctx: Context, names: ObjectNames) => IssuerSpec | undefined;

const BRANCHES: Record<string, Branch> = {
  acme: acmeIssuer,
  commercialca: commercialcaIssuer,
  ca: (ctx, names) => {
    const cert = ctx.needed('cluster_issuer_ca_certificate', 'the CA issuer secret');
    const key = ctx.needed('cluster_issuer_ca_private_key', 'the CA issuer secret');
    ctx.add(secret(names.caSecret, { 'tls.crt': cert, 'tls.key': key }, 'kubernetes.io/tls'), ['cluster_issuer_ca_certificate', 'cluster_issuer_ca_private_key']);
    return { spec: { ca: { secretName: names.caSecret } }, from: [] };
  },
  'self-signed': (ctx, names) => {
    ctx.add({
      apiVersion: CM, kind: 'Certificate', metadata: { name: names.selfSignedCa.certificate, namespace: CERT_MANAGER_NAMESPACE },
      spec: {
        isCA: true, commonName: 'selfsigned-ca', secretName: names.selfSignedCa.secret,
        duration: '87600h0m0s', renewBefore: '360h0m0s', privateKey: { algorithm: 'ECDSA', size: 256 },
        issuerRef: { kind: 'ClusterIssuer', name: SELF_SIGNED_ISSUER },
      },
    }, ['cluster_issuer_type']);
    return { spec: { ca: { secretName: names.selfSignedCa.secret } }, from: [] };
  },
  none: () => undefined,
};

function acmeIssuer(ctx: Context, names: ObjectNames): IssuerSpec {
  const { solver, auth } = choicesOf(ctx.values);
  const email = ctx.text('cluster_issuer_acme_email');
  if (email === undefined) {
    ctx.finding('cluster_issuer_acme_email', 'error', 'cluster_issuer_acme_email is not set: the ACME account cannot be registered, so no certificate is issued.', 'Set cluster_issuer_acme_email to a mailbox you read.');
  }
  const solverSpec = SOLVER_BRANCHES[solver]?.(ctx, names, auth) ?? { spec: {}, from: [] };
  return {
    spec: {
      acme: {
        ...(email !== undefined ? { email } : {}),
        server: ctx.text('cluster_issuer_acme_server', DEFAULT_ACME_SERVER),
        privateKeySecretRef: { name: names.acmeAccountKey },
        solvers: [solverSpec.spec],
      },
    },
    from: ['cluster_issuer_acme_email', 'cluster_issuer_acme_server', 'cluster_issuer_acme_solver', ...solverSpec.from],
  };
}

type SolverBranch = (ctx: Context, names: ObjectNames, auth: string) => IssuerSpec;

const SOLVER_BRANCHES: Record<string, SolverBranch> = {
  http01: () => ({ spec: { http01: { ingress: { class: PLATFORM_ISSUER } } }, from: [] }),
  clouddnsa: (ctx, names) => {
    const v = (suffix: string) => ctx.needed(`cluster_issuer_acme_clouddnsa_${suffix}`, 'the clouddnsa solver');
    const from = ['client_id', 'client_secret', 'subscription_id', 'tenant_id', 'resourcegroup_name', 'hostedzone_name'].map((s) => `cluster_issuer_acme_clouddnsa_${s}`);
    ctx.add(secret(names.clouddnsaSecret, { 'client-secret': v('client_secret') }), ['cluster_issuer_acme_clouddnsa_client_secret']);
    return {
      spec: dns01({
        azureDNS: {
          clientID: v('client_id'), clientSecretSecretRef: { name: names.clouddnsaSecret, key: 'client-secret' },
          subscriptionID: v('subscription_id'), tenantID: v('tenant_id'), resourceGroupName: v('resourcegroup_name'),
          hostedZoneName: v('hostedzone_name'), environment: 'AzurePublicCloud',
        },
      }),
      from,
    };
  },
  rfc2136: (ctx, names) => {
    const p = 'cluster_issuer_acme_rfc2136_';
    ctx.add(secret(names.tsigSecret, { 'tsig-secret-key': ctx.needed(`${p}tsig_secret_key`, 'the TSIG secret') }), [`${p}tsig_secret_key`]);
    return {
      spec: dns01({
        rfc2136: {
          nameserver: ctx.needed(`${p}nameserver`, 'the rfc2136 solver'),
          tsigAlgorithm: ctx.needed(`${p}tsig_algorithm`, 'the rfc2136 solver (the platform has no default for it)'),
          tsigKeyName: ctx.needed(`${p}tsig_key_name`, 'the rfc2136 solver'),
          tsigSecretSecretRef: { name: names.tsigSecret, key: 'tsig-secret-key' },
        },
      }),
      from: [`${p}nameserver`, `${p}tsig_algorithm`, `${p}tsig_key_name`, `${p}tsig_secret_key`],
    };
  },
  clouddnsb: clouddnsbSolver,
  dnsc: (ctx, names) => {
    const email = ctx.text('cluster_issuer_acme_dnsc_email') ?? ctx.text('cluster_issuer_acme_email');
    ctx.add(secret(names.dnscSecret, { 'api-token': ctx.needed('cluster_issuer_acme_dnsc_api_token', 'the dnsc API token secret') }), ['cluster_issuer_acme_dnsc_api_token']);
    return {
      spec: dns01({ cloudflare: { ...(email !== undefined ? { email } : {}), apiTokenSecretRef: { name: names.dnscSecret, key: 'api-token' } } }),
      from: ['cluster_issuer_acme_dnsc_email', 'cluster_issuer_acme_dnsc_api_token'],
    };
  },
  dnsd: (ctx, names) => {
    const n = names.dnsd;
    const key = ctx.needed('cluster_issuer_acme_dnsd_api_key', 'the dnsd API key secret');
    const secretKey = ctx.needed('cluster_issuer_acme_dnsd_secret_key', 'the dnsd API key secret');
    ctx.out.helm.push({ name: n.release, namespace: CERT_MANAGER_NAMESPACE, values: { groupName: n.groupName } });
    ctx.add(secret(n.secret, { token: `${key}:${secretKey}` }), ['cluster_issuer_acme_dnsd_api_key', 'cluster_issuer_acme_dnsd_secret_key']);
    addSecretReader(ctx, n.role, n.secret, n.serviceAccount);
    return {
      spec: dns01({ webhook: { groupName: n.groupName, solverName: n.solverName, config: { apiKeySecretRef: { name: n.secret, key: 'token' }, production: true, ttl: 600 } } }),
      from: [],
    };
  },
  dnse: (ctx, names) => {
    const n = names.dnse;
    const p = 'cluster_issuer_acme_dnse_';
    ctx.out.helm.push({ name: n.release, namespace: CERT_MANAGER_NAMESPACE, values: { groupName: n.groupName } });
    ctx.add(secret(n.secret, { username: ctx.needed(`${p}username`, 'the dnse credentials secret'), password: ctx.needed(`${p}password`, 'the dnse credentials secret') }), [`${p}username`, `${p}password`]);
    addSecretReader(ctx, n.role, n.secret, n.serviceAccount);
    return {
      spec: dns01({
        webhook: {
          groupName: n.groupName, solverName: n.solverName,
          config: {
            host: ctx.needed(`${p}host`, 'the dnse solver'), view: ctx.needed(`${p}view`, 'the dnse solver'),
            usernameSecretRef: { name: n.secret, key: 'username' }, passwordSecretRef: { name: n.secret, key: 'password' },
          },
        },
      }),
      from: [`${p}host`, `${p}view`],
    };
  },
};

function clouddnsbSolver(ctx: Context, names: ObjectNames, auth: string): IssuerSpec {
  const p = 'cluster_issuer_acme_clouddnsb_';
  const route53: Record<string, unknown> = {
    region: ctx.needed(`${p}region`, 'the clouddnsb solver (whatever the auth mode)'),
    hostedZoneID: ctx.needed(`${p}hosted_zone_id`, 'the clouddnsb solver (whatever the auth mode)'),
  };
  const role = ctx.text(`${p}role_arn`);
  const from = [`${p}auth`, `${p}region`, `${p}hosted_zone_id`, `${p}role_arn`];
  if (auth === 'static') {
    const secretName = ctx.text(`${p}secret_name`, names.clouddnsbSecret)!;
    ctx.add(secret(secretName, { 'secret-access-key': ctx.needed(`${p}secret_access_key`, 'the static credentials secret') }), [`${p}secret_name`, `${p}secret_access_key`]);
    Object.assign(route53, role !== undefined ? { role } : {}, {
      accessKeyID: ctx.text(`${p}access_key_id`, ''),
      secretAccessKeySecretRef: { name: secretName, key: 'secret-access-key' },
    });
    from.push(`${p}access_key_id`);
  } else if (auth === 'ambient') {
    if (role !== undefined) route53.role = role;
  } else {
    const sa = ctx.text(`${p}service_account_name`, names.clouddnsbServiceAccount)!;
    if (role === undefined) {
      ctx.finding(`${p}role_arn`, 'error', `${p}role_arn is not set: keyless (clusteroidc) credentials need a role to assume, and the certificate manager refuses the issuer without it.`, `Set ${p}role_arn to the role created for the cluster's OIDC provider ("cloudgate oidc" prints it).`);
    }
    route53.role = role ?? '';
    route53.auth = { kubernetes: { serviceAccountRef: { name: sa } } };
    ctx.add({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: CERT_MANAGER_NAMESPACE } }, [`${p}service_account_name`]);
    const roleName = `${sa}-tokenrequest`;
    ctx.add({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: roleName, namespace: CERT_MANAGER_NAMESPACE },
      rules: [{ apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: [sa], verbs: ['create'] }],
    }, [`${p}service_account_name`]);
    ctx.add(roleBinding(roleName, names.controllerServiceAccount), [`${p}service_account_name`]);
    from.push(`${p}service_account_name`);
  }
  return { spec: dns01({ route53 }), from };
}

function commercialcaIssuer(ctx: Context, names: ObjectNames): IssuerSpec {
  const p = 'cluster_issuer_commercialca_';
  const token = ctx.get(`${p}access_token`);
  const user = ctx.get(`${p}username`);
  const password = ctx.get(`${p}password`);
  ctx.needed(`${p}ca`, 'the hosts\' trust store (the platform copies the CA there)');
  if (token !== undefined && user === undefined && password === undefined) {
    ctx.add(secret(names.commercialcaSecret, { 'access-token': ctx.text(`${p}access_token`)! }), [`${p}access_token`]);
  } else if (token === undefined && user !== undefined && password !== undefined) {
    ctx.add(secret(names.commercialcaSecret, { username: ctx.text(`${p}username`)!, password: ctx.text(`${p}password`)! }), [`${p}username`, `${p}password`]);
  } else {
    const both = token !== undefined;
    ctx.finding(`${p}access_token`, 'error',
      both ? `Both ${p}access_token and ${p}username/${p}password are set: the platform then creates no credentials secret, and the issuer cannot authenticate.`
        : `Neither ${p}access_token nor both ${p}username and ${p}password are set: the platform creates no credentials secret, and the issuer cannot authenticate.`,
      `Set only ${p}access_token (recommended), or only ${p}username and ${p}password.`);
  }
  return {
    spec: {
      venafi: {
        zone: ctx.needed(`${p}zone`, 'the commercial CA issuer'),
        tpp: {
          url: ctx.needed(`${p}tpp_url`, 'the commercial CA issuer'),
          caBundle: ctx.needed(`${p}tpp_ca_bundle`, 'the commercial CA issuer (it is passed to the issuer as written)'),
          credentialsRef: { name: names.commercialcaSecret },
        },
      },
    },
    from: [`${p}zone`, `${p}tpp_url`, `${p}tpp_ca_bundle`],
  };
}

function dns01(provider: Record<string, unknown>): Record<string, unknown> {
  return { dns01: provider };
}

function clusterIssuer(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: CM, kind: 'ClusterIssuer', metadata: { name }, spec };
}

function secret(name: string, stringData: Record<string, string>, type = 'Opaque'): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: CERT_MANAGER_NAMESPACE }, type, stringData };
}

function roleBinding(role: string, serviceAccount: string): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: role, namespace: CERT_MANAGER_NAMESPACE },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
    subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: CERT_MANAGER_NAMESPACE }],
  };
}

/**
 * A webhook solver reads its credentials secret through a Role bound to the webhook's service account;
 * both exist only for that solver, so the solver variable made them.
 */
function addSecretReader(ctx: Context, role: string, secretName: string, serviceAccount: string): void {
  ctx.add({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: role, namespace: CERT_MANAGER_NAMESPACE },
    rules: [{ apiGroups: [''], resources: ['secrets'], resourceNames: [secretName], verbs: ['get', 'watch'] }],
  }, ['cluster_issuer_acme_solver']);
  ctx.add(roleBinding(role, serviceAccount), ['cluster_issuer_acme_solver']);
}
