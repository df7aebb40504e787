/**
 * The Kubernetes objects the platform's deployment creates from the certificate variables, in the
 * order it applies them: ClusterIssuer `self-signed` first, then the branch's credential and RBAC
 * objects, then the platform's ClusterIssuer, then (wildcard mode, made later by the ingress role) the
 * wildcard Certificate. Every name comes from the inventory or the role's default (the variables
 * table); values follow Ansible's rules (values.ts). docs/platform.md describes each branch.
 */
import { CERT_MANAGER_NAMESPACE, PLATFORM_NAMESPACE, SELF_SIGNED_ISSUER, WILDCARD_CERTIFICATE, type NamingProfile } from './names.js';
import { SOLVER_BRANCHES } from './solvers.js';
import { ISSUER_TYPE_VALUES, SOLVER_VALUES, type IssuerType } from '../config/vocabulary.js';
import { isOneOf } from '../records.js';
import type { KubeObject, Rendered } from './types.js';
import { RoleValues, isUnknownValue } from './values.js';

export { VAULTED_VALUE } from './values.js';

type Values = Record<string, unknown>;

/** The role's default ACME server: the public certificate authority. */
export const DEFAULT_ACME_SERVER = 'https://acme-v02.api.letsencrypt.org/directory';
const CM = 'cert-manager.io/v1';

export interface RenderOptions {
  /**
   * The choosing variables (issuer type, solver, auth mode) whose value is written in the other words
   * (a neutral alias for the platform; the platform's word with --names spec), so that the role finds no
   * task for it: the deployment stops there (the naming finding says so).
   */
  foreign?: ReadonlySet<string>;
}

export function renderPlatform(values: Values, profile: NamingProfile = 'platform', options: RenderOptions = {}): Rendered {
  const out: Rendered = { objects: [], helm: [], findings: [] };
  const ctx = new RoleValues(values, profile, out);
  out.objects.push({ object: clusterIssuer(SELF_SIGNED_ISSUER, { selfSigned: {} }), from: [] });
  const type = ctx.value('cluster_issuer_type');
  const branch = typeof type === 'string' && !options.foreign?.has('cluster_issuer_type') && isOneOf(ISSUER_TYPE_VALUES, type) ? BRANCHES[type] : undefined;
  if (!branch) noTask(ctx, 'cluster_issuer_type', type, `type/${String(type ?? '')}/main.yml`, ISSUER_TYPE_VALUES, options);
  const spec = branch?.(ctx, options);
  if (spec) {
    const name = ctx.name('cluster_issuer_name', 'the ClusterIssuer');
    if (name === SELF_SIGNED_ISSUER) {
      ctx.finding('cluster_issuer_name', 'error', `cluster_issuer_name is "${SELF_SIGNED_ISSUER}": the role would overwrite its own self-signed ClusterIssuer with the platform's issuer.`, 'Choose another name (the default is the value of atmosphere_ingress_cluster_issuer).');
    }
    ctx.add(clusterIssuer(name, spec.spec), ['cluster_issuer_type', ...spec.from], { nameFrom: ctx.source('cluster_issuer_name'), part: 'issuer' });
    issuerNamesAgree(ctx, name);
  }
  if (ctx.defined('openstack_helm_ingress_wildcard_domain')) wildcard(ctx, type);
  return out;
}

/** The role includes a task file named after the value: none exists for it, so the deployment stops there. */
export function noTask(ctx: RoleValues, variable: string, value: unknown, file: string, known: readonly string[], options: RenderOptions): void {
  // A word of the other naming is said by the naming finding (respelling would garble it here).
  if (isUnknownValue(value) || options.foreign?.has(variable)) return;
  const shown = value === null ? 'null' : `"${String(value)}"`;
  ctx.finding(variable, 'error',
    `${variable} is ${shown}: the platform's role has no ${file}, so the deployment stops there (after the self-signed ClusterIssuer).`,
    `Set ${variable} to one of: ${known.join(', ')}.`);
}

/** Wildcard mode: the ingress role's Certificate for `*.<domain>`, issued by the ClusterIssuer the ingresses name. */
function wildcard(ctx: RoleValues, type: unknown): void {
  if (type === 'none' && ctx.defined('openstack_helm_ingress_secret_name')) {
    // A warning, not an error: the walkthrough still keeps the domain of a supplied certificate (to check what it covers).
    ctx.finding('openstack_helm_ingress_wildcard_domain', 'warning',
      'openstack_helm_ingress_wildcard_domain is set with a supplied certificate (cluster_issuer_type none): the ingress role still creates the wildcard Certificate from a ClusterIssuer that none does not make, and points every ingress at its secret instead of openstack_helm_ingress_secret_name.',
      'Remove openstack_helm_ingress_wildcard_domain: a supplied wildcard needs only openstack_helm_ingress_secret_name and cluster_issuer_type: none.');
  }
  const domain = ctx.needed('openstack_helm_ingress_wildcard_domain', 'the wildcard Certificate');
  const issuer = ctx.name('openstack_helm_ingress_cluster_issuer', "the wildcard Certificate's issuer");
  ctx.add({
    apiVersion: CM, kind: 'Certificate', metadata: { name: WILDCARD_CERTIFICATE, namespace: PLATFORM_NAMESPACE },
    spec: { secretName: WILDCARD_CERTIFICATE, issuerRef: { kind: 'ClusterIssuer', name: issuer }, dnsNames: [`*.${domain === null ? '' : String(domain)}`] },
  }, ['openstack_helm_ingress_wildcard_domain', 'cluster_issuer_type'], { part: 'wildcard' });
}

/** The ingresses name the issuer through the platform-wide variable: another issuer name leaves them pending. */
function issuerNamesAgree(ctx: RoleValues, created: string): void {
  const named = ctx.value('openstack_helm_ingress_cluster_issuer');
  if (typeof named !== 'string' || isUnknownValue(named) || isUnknownValue(created) || named === created) return;
  ctx.finding('cluster_issuer_name', 'error',
    `The role creates the ClusterIssuer "${created}" (cluster_issuer_name), but the ingresses and the wildcard Certificate ask for "${named}" (openstack_helm_ingress_cluster_issuer, by default atmosphere_ingress_cluster_issuer): their certificates would never be issued.`,
    'Set only atmosphere_ingress_cluster_issuer (both follow it), or give cluster_issuer_name and openstack_helm_ingress_cluster_issuer the same value.');
}

export interface IssuerSpec {
  spec: Record<string, unknown>;
  from: string[];
}

type Branch = (ctx: RoleValues, options: RenderOptions) => IssuerSpec | undefined;

/** One per task file of the role (`type/<cluster_issuer_type>/main.yml`). */
const BRANCHES: Record<IssuerType, Branch> = {
  acme: acmeIssuer,
  venafi: venafiIssuer,
  ca: (ctx) => {
    const secretName = ctx.name('cluster_issuer_ca_secret_name', 'the CA Secret');
    const cert = ctx.needed('cluster_issuer_ca_certificate', 'the CA issuer secret');
    const key = ctx.needed('cluster_issuer_ca_private_key', 'the CA issuer secret');
    ctx.add(secret(secretName, { 'tls.crt': cert, 'tls.key': key }, 'kubernetes.io/tls'), ['cluster_issuer_ca_certificate', 'cluster_issuer_ca_private_key'], { nameFrom: 'cluster_issuer_ca_secret_name' });
    return { spec: { ca: { secretName } }, from: ['cluster_issuer_ca_secret_name'] };
  },
  'self-signed': (ctx) => {
    const certificate = ctx.name('cluster_issuer_self_signed_certificate_name', "the self-signed CA's Certificate");
    const secretName = ctx.name('cluster_issuer_self_signed_secret_name', "the self-signed CA's Secret");
    ctx.add({
      apiVersion: CM, kind: 'Certificate', metadata: { name: certificate, namespace: CERT_MANAGER_NAMESPACE },
      spec: {
        isCA: true, commonName: 'selfsigned-ca', secretName,
        duration: '87600h0m0s', renewBefore: '360h0m0s', privateKey: { algorithm: 'ECDSA', size: 256 },
        issuerRef: { kind: 'ClusterIssuer', name: SELF_SIGNED_ISSUER },
      },
    }, ['cluster_issuer_type', 'cluster_issuer_self_signed_certificate_name', 'cluster_issuer_self_signed_secret_name'], { nameFrom: 'cluster_issuer_self_signed_certificate_name' });
    return { spec: { ca: { secretName } }, from: ['cluster_issuer_self_signed_secret_name'] };
  },
  none: () => undefined,
};

function acmeIssuer(ctx: RoleValues, options: RenderOptions): IssuerSpec | undefined {
  const solver = ctx.value('cluster_issuer_acme_solver');
  const branch = typeof solver === 'string' && !options.foreign?.has('cluster_issuer_acme_solver') && isOneOf(SOLVER_VALUES, solver) ? SOLVER_BRANCHES[solver] : undefined;
  if (!branch) {
    noTask(ctx, 'cluster_issuer_acme_solver', solver, `solver/${String(solver ?? '')}.yml`, SOLVER_VALUES, options);
    return undefined;
  }
  const solverSpec = branch(ctx, options);
  if (!solverSpec) return undefined;
  const email = ctx.needed('cluster_issuer_acme_email', 'the ACME account (acme.email)');
  return {
    spec: {
      acme: {
        email,
        server: ctx.optional('cluster_issuer_acme_server', 'acme.server (the ACME directory)', 'error'),
        privateKeySecretRef: { name: ctx.name('cluster_issuer_acme_private_key_secret_name', "the ACME account key's Secret") },
        solvers: [solverSpec.spec],
      },
    },
    from: ['cluster_issuer_acme_email', 'cluster_issuer_acme_server', 'cluster_issuer_acme_private_key_secret_name', 'cluster_issuer_acme_solver', ...solverSpec.from],
  };
}

function venafiIssuer(ctx: RoleValues): IssuerSpec {
  const p = 'cluster_issuer_venafi_';
  const [token, user, password] = [`${p}access_token`, `${p}username`, `${p}password`].map((n) => ctx.defined(n));
  const secretName = ctx.name(`${p}secret_name`, "the Venafi credentials Secret");
  const from = [`${p}secret_name`];
  if (user && password && !token) {
    ctx.add(secret(secretName, { username: ctx.value(`${p}username`), password: ctx.value(`${p}password`) }, null), [`${p}username`, `${p}password`, ...from], { nameFrom: `${p}secret_name` });
  } else if (token && !user && !password) {
    ctx.add(secret(secretName, { 'access-token': ctx.value(`${p}access_token`) }, null), [`${p}access_token`, ...from], { nameFrom: `${p}secret_name` });
  } else {
    const set = [token && `${p}access_token`, user && `${p}username`, password && `${p}password`].filter(Boolean).join(', ');
    ctx.finding(`${p}access_token`, 'error',
      set ? `The inventory defines ${set}: the role creates the credentials Secret only for an access token alone or a username and password together (a key counts even when empty or null), so it creates none and the issuer cannot authenticate.`
        : 'None of the Venafi credentials is defined: the role creates no credentials Secret, and the issuer cannot authenticate.',
      `Keep only ${p}access_token (recommended), or only ${p}username and ${p}password; remove the other lines entirely.`);
  }
  ctx.needed(`${p}ca`, "the hosts' trust store (the role copies the CA there)");
  return {
    spec: {
      venafi: {
        zone: ctx.needed(`${p}zone`, 'the Venafi issuer'),
        tpp: {
          url: ctx.needed(`${p}tpp_url`, 'the Venafi issuer'),
          caBundle: ctx.needed(`${p}tpp_ca_bundle`, 'the Venafi issuer (it is passed to the issuer as written)'),
          credentialsRef: { name: secretName },
        },
      },
    },
    from: [`${p}zone`, `${p}tpp_url`, `${p}tpp_ca_bundle`, ...from],
  };
}

export function clusterIssuer(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: CM, kind: 'ClusterIssuer', metadata: { name }, spec };
}

/** A Secret as the role writes it: `type` is left out where the role leaves it out (the Venafi one's). */
export function secret(name: string, stringData: Record<string, unknown>, type: string | null = 'Opaque', namespace = CERT_MANAGER_NAMESPACE): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, ...(type ? { type } : {}), stringData };
}
