/**
 * The Kubernetes objects the platform's deployment creates from the certificate variables: its
 * `cluster_issuer` role task by task (ClusterIssuer `self-signed` first, then `type/<type>/main.yml`
 * and for ACME `solver/<solver>.yml`), then, in wildcard mode, the ingress role's Certificate. Each
 * task applies its objects only when everything it templates is defined (values.ts); the first task
 * that fails stops the deployment, as it stops the role. Names come from the inventory or the role's
 * defaults (the variables table). docs/platform.md describes each branch.
 */
import {
  CERT_MANAGER_NAMESPACE,
  PLATFORM_NAMESPACE,
  SELF_SIGNED_ISSUER,
  WILDCARD_CERTIFICATE,
  type NamingProfile,
} from './names.js';
import { SOLVER_BRANCHES } from './solvers.js';
import { ISSUER_TYPE_VALUES, SOLVER_VALUES, type IssuerType } from '../config/vocabulary.js';
import { isOneOf } from '../records.js';
import type { KubeObject, Rendered, RenderedObject } from './types.js';
import { RoleValues, isUnknownValue, made, type RoleOptions } from './values.js';

export { VAULTED_VALUE } from './values.js';

type Values = Record<string, unknown>;

/** The role's default ACME server: the public certificate authority. */
export const DEFAULT_ACME_SERVER = 'https://acme-v02.api.letsencrypt.org/directory';
const CM = 'cert-manager.io/v1';

export interface RenderOptions extends RoleOptions {
  /**
   * The choosing variables (issuer type, solver, auth mode) whose value is written in the other words
   * (a neutral alias for the platform; the platform's word with --names spec), so that the role finds no
   * task for it: the deployment stops there (the naming finding says so).
   */
  foreign?: ReadonlySet<string>;
}

/** What the model renders, with what it read and where the deployment stops. */
export interface ModelRendered extends Rendered {
  /** Every variable the role's tasks read (a finding about a value matters only when it is read). */
  read: Set<string>;
  /** Whether a task failed (nothing after it is applied). */
  stopped: boolean;
}

export function renderPlatform(
  values: Values,
  profile: NamingProfile = 'platform',
  options: RenderOptions = {},
): ModelRendered {
  const out: Rendered = { objects: [], helm: [], findings: [] };
  const ctx = new RoleValues(values, profile, out, options);
  ctx.task(() => ({ objects: [made(clusterIssuer(SELF_SIGNED_ISSUER, { selfSigned: {} }), [])] }));
  // include_tasks: "type/{{ cluster_issuer_type }}/main.yml", on every host
  const type = ctx.text('cluster_issuer_type', 'the include of type/<cluster_issuer_type>/main.yml');
  const branch =
    !options.foreign?.has('cluster_issuer_type') && isOneOf(ISSUER_TYPE_VALUES, type) ? BRANCHES[type] : undefined;
  if (branch) branch(ctx, options);
  else if (!ctx.stop)
    noTask(
      ctx,
      'cluster_issuer_type',
      values.cluster_issuer_type,
      type,
      `type/${type}/main.yml`,
      ISSUER_TYPE_VALUES,
      options,
    );
  if (!ctx.stop && (type === 'self-signed' || type === 'ca')) bootstrapPki(ctx, type);
  // The ingress role, in a later play: only when this role went through.
  if (!ctx.stop && ctx.inInventory('openstack_helm_ingress_wildcard_domain')) wildcard(ctx, type);
  return { ...out, read: ctx.read, stopped: ctx.stop !== undefined };
}

/** The role includes a task file named after the value: none exists for it, so the deployment stops there. */
export function noTask(
  ctx: RoleValues,
  name: string,
  raw: unknown,
  text: string,
  file: string,
  known: readonly string[],
  options: RenderOptions,
): void {
  // A value known only at deploy time is not judged; a word of the other naming is said by the naming finding.
  if (isUnknownValue(text) || options.foreign?.has(name)) {
    ctx.halt({
      variable: name,
      severity: 'info',
      rule: 'not-checked',
      message: `${name} is known only when the deployment runs, or names no task file: cloudgate renders nothing more.`,
    });
    return;
  }
  const shown = raw === null ? 'null' : `"${text}"`;
  ctx.stopHere({
    variable: name,
    severity: 'error',
    rule: 'platform-no-task',
    message: `${name} is ${shown}: the platform's role has no ${file}, so the deployment stops there (after the self-signed ClusterIssuer).`,
    advice: `Set ${name} to one of: ${known.join(', ')}.`,
  });
}

/** self-signed and ca: the role waits for the CA Secret and copies its certificate to every host's trust store. */
function bootstrapPki(ctx: RoleValues, type: string): void {
  ctx.task(() => {
    // ternary() evaluates both of its arguments.
    ctx.field('cluster_issuer_self_signed_secret_name', 'the CA Secret the role waits for');
    ctx.field('cluster_issuer_ca_secret_name', 'the CA Secret the role waits for');
    void type;
  });
}

/** Wildcard mode: the ingress role's Certificate for `*.<domain>`, issued by the ClusterIssuer the ingresses name. */
function wildcard(ctx: RoleValues, type: string): void {
  if (type === 'none' && ctx.inInventory('openstack_helm_ingress_secret_name')) {
    // A warning, not an error: the walkthrough still keeps the domain of a supplied certificate (to check what it covers).
    ctx.finding(
      'openstack_helm_ingress_wildcard_domain',
      'warning',
      'never-issues',
      'openstack_helm_ingress_wildcard_domain is set with a supplied certificate (cluster_issuer_type none): the ingress role still creates the wildcard Certificate from a ClusterIssuer that none does not make, and points every ingress at its secret instead of openstack_helm_ingress_secret_name.',
      'Remove openstack_helm_ingress_wildcard_domain: a supplied wildcard needs only openstack_helm_ingress_secret_name and cluster_issuer_type: none.',
    );
  }
  ctx.task(() => {
    const domain = ctx.text('openstack_helm_ingress_wildcard_domain', 'the wildcard Certificate');
    const issuer = ctx.name('openstack_helm_ingress_cluster_issuer', "the wildcard Certificate's issuer");
    return {
      objects: [
        made(
          {
            apiVersion: CM,
            kind: 'Certificate',
            metadata: { name: WILDCARD_CERTIFICATE, namespace: PLATFORM_NAMESPACE },
            spec: {
              secretName: WILDCARD_CERTIFICATE,
              issuerRef: { kind: 'ClusterIssuer', name: issuer },
              dnsNames: [`*.${domain}`],
            },
          },
          ['openstack_helm_ingress_wildcard_domain', 'cluster_issuer_type'],
          { part: 'wildcard' },
        ),
      ],
    };
  });
}

/** The ingresses name the issuer through the platform-wide variable: another issuer name leaves them pending. */
export function issuerNamesAgree(ctx: RoleValues, created: string): void {
  const named = ctx.field('openstack_helm_ingress_cluster_issuer', 'the issuer the ingresses name');
  if (typeof named !== 'string' || isUnknownValue(named) || isUnknownValue(created) || named === created) return;
  ctx.finding(
    'cluster_issuer_name',
    'error',
    'never-issues',
    `The role creates the ClusterIssuer "${created}" (cluster_issuer_name), but the ingresses and the wildcard Certificate ask for "${named}" (openstack_helm_ingress_cluster_issuer, by default atmosphere_ingress_cluster_issuer): their certificates would never be issued.`,
    'Set only atmosphere_ingress_cluster_issuer (both follow it), or give cluster_issuer_name and openstack_helm_ingress_cluster_issuer the same value.',
  );
}

/** The platform's ClusterIssuer, named by `cluster_issuer_name`, with the checks on its name. */
export function platformIssuer(ctx: RoleValues, spec: Record<string, unknown>, from: string[]): RenderedObject {
  const name = ctx.name('cluster_issuer_name', 'the ClusterIssuer');
  if (name === SELF_SIGNED_ISSUER) {
    ctx.finding(
      'cluster_issuer_name',
      'error',
      'never-issues',
      `cluster_issuer_name is "${SELF_SIGNED_ISSUER}": the role would overwrite its own self-signed ClusterIssuer with the platform's issuer.`,
      'Choose another name (the default is the value of atmosphere_ingress_cluster_issuer).',
    );
  }
  issuerNamesAgree(ctx, name);
  return made(clusterIssuer(name, spec), ['cluster_issuer_type', ...from], {
    nameFrom: ctx.source('cluster_issuer_name'),
    part: 'issuer',
  });
}

type Branch = (ctx: RoleValues, options: RenderOptions) => void;

/** One per task file of the role (`type/<cluster_issuer_type>/main.yml`). */
const BRANCHES: Record<IssuerType, Branch> = {
  acme: acmeIssuer,
  venafi: venafiIssuer,
  ca: (ctx) => {
    ctx.task(() => {
      const secretName = ctx.name('cluster_issuer_ca_secret_name', 'the CA Secret');
      const cert = ctx.field('cluster_issuer_ca_certificate', 'the CA issuer secret');
      const key = ctx.field('cluster_issuer_ca_private_key', 'the CA issuer secret');
      return {
        objects: [
          made(
            secret(secretName, { 'tls.crt': cert, 'tls.key': key }, 'kubernetes.io/tls'),
            ['cluster_issuer_ca_certificate', 'cluster_issuer_ca_private_key'],
            { nameFrom: 'cluster_issuer_ca_secret_name' },
          ),
          platformIssuer(ctx, { ca: { secretName } }, ['cluster_issuer_ca_secret_name']),
        ],
      };
    });
  },
  'self-signed': (ctx) => {
    ctx.task(() => {
      const certificate = ctx.name('cluster_issuer_self_signed_certificate_name', "the self-signed CA's Certificate");
      const secretName = ctx.name('cluster_issuer_self_signed_secret_name', "the self-signed CA's Secret");
      return {
        objects: [
          made(
            {
              apiVersion: CM,
              kind: 'Certificate',
              metadata: { name: certificate, namespace: CERT_MANAGER_NAMESPACE },
              spec: {
                isCA: true,
                commonName: 'selfsigned-ca',
                secretName,
                duration: '87600h0m0s',
                renewBefore: '360h0m0s',
                privateKey: { algorithm: 'ECDSA', size: 256 },
                issuerRef: { kind: 'ClusterIssuer', name: SELF_SIGNED_ISSUER },
              },
            },
            [
              'cluster_issuer_type',
              'cluster_issuer_self_signed_certificate_name',
              'cluster_issuer_self_signed_secret_name',
            ],
            { nameFrom: 'cluster_issuer_self_signed_certificate_name' },
          ),
          platformIssuer(ctx, { ca: { secretName } }, ['cluster_issuer_self_signed_secret_name']),
        ],
      };
    });
  },
  none: () => undefined,
};

function acmeIssuer(ctx: RoleValues, options: RenderOptions): void {
  // include_tasks: "solver/{{ cluster_issuer_acme_solver }}.yml"
  const solver = ctx.text('cluster_issuer_acme_solver', 'the include of solver/<cluster_issuer_acme_solver>.yml');
  const branch =
    !options.foreign?.has('cluster_issuer_acme_solver') && isOneOf(SOLVER_VALUES, solver)
      ? SOLVER_BRANCHES[solver]
      : undefined;
  if (branch) branch(ctx, options);
  else if (!ctx.stop)
    noTask(
      ctx,
      'cluster_issuer_acme_solver',
      ctx.values.cluster_issuer_acme_solver,
      solver,
      `solver/${solver}.yml`,
      SOLVER_VALUES,
      options,
    );
}

/** The ACME ClusterIssuer every solver task writes, with its one solver. */
export function acmeIssuerObject(ctx: RoleValues, solver: Record<string, unknown>, from: string[]): RenderedObject {
  return platformIssuer(
    ctx,
    {
      acme: {
        email: ctx.field('cluster_issuer_acme_email', 'the ACME account (acme.email)'),
        server: ctx.optional('cluster_issuer_acme_server', 'acme.server (the ACME directory)'),
        privateKeySecretRef: {
          name: ctx.name('cluster_issuer_acme_private_key_secret_name', "the ACME account key's Secret"),
        },
        solvers: [solver],
      },
    },
    [
      'cluster_issuer_acme_email',
      'cluster_issuer_acme_server',
      'cluster_issuer_acme_private_key_secret_name',
      'cluster_issuer_acme_solver',
      ...from,
    ],
  );
}

function venafiIssuer(ctx: RoleValues): void {
  const p = 'cluster_issuer_venafi_';
  const [token, user, password] = [`${p}access_token`, `${p}username`, `${p}password`].map((n) => ctx.defined(n));
  const from = [`${p}secret_name`];
  if (user && password && !token) {
    ctx.task(() => {
      const secretName = ctx.name(`${p}secret_name`, 'the Venafi credentials Secret');
      return {
        objects: [
          made(
            secret(
              secretName,
              {
                username: ctx.field(`${p}username`, 'the Venafi credentials'),
                password: ctx.field(`${p}password`, 'the Venafi credentials'),
              },
              null,
            ),
            [`${p}username`, `${p}password`, ...from],
            { nameFrom: `${p}secret_name` },
          ),
        ],
      };
    });
  } else if (token && !user && !password) {
    ctx.task(() => {
      const secretName = ctx.name(`${p}secret_name`, 'the Venafi credentials Secret');
      return {
        objects: [
          made(
            secret(secretName, { 'access-token': ctx.field(`${p}access_token`, 'the Venafi credentials') }, null),
            [`${p}access_token`, ...from],
            { nameFrom: `${p}secret_name` },
          ),
        ],
      };
    });
  } else {
    const set = [token && `${p}access_token`, user && `${p}username`, password && `${p}password`]
      .filter(Boolean)
      .join(', ');
    ctx.finding(
      `${p}access_token`,
      'error',
      'never-issues',
      set
        ? `The inventory defines ${set}: the role creates the credentials Secret only for an access token alone or a username and password together (a key counts even when empty or null), so it creates none and the issuer cannot authenticate.`
        : 'None of the Venafi credentials is defined: the role creates no credentials Secret, and the issuer cannot authenticate.',
      `Keep only ${p}access_token (recommended), or only ${p}username and ${p}password; remove the other lines entirely.`,
    );
  }
  ctx.task(() => ({
    objects: [
      platformIssuer(
        ctx,
        {
          venafi: {
            zone: ctx.field(`${p}zone`, 'the Venafi issuer'),
            tpp: {
              url: ctx.field(`${p}tpp_url`, 'the Venafi issuer'),
              caBundle: ctx.field(`${p}tpp_ca_bundle`, 'the Venafi issuer (it is passed to the issuer as written)'),
              credentialsRef: { name: ctx.name(`${p}secret_name`, 'the Venafi credentials Secret') },
            },
          },
        },
        [`${p}zone`, `${p}tpp_url`, `${p}tpp_ca_bundle`, ...from],
      ),
    ],
  }));
  // Copy CA certificate on host: every host, after the ClusterIssuer.
  ctx.task(() => {
    const ca = ctx.field(`${p}ca`, "the hosts' trust store (the role copies the CA there)");
    if (ca === null) {
      ctx.stopHere({
        variable: `${p}ca`,
        severity: 'error',
        rule: 'platform-needs',
        message: `${p}ca is null (a key with no value): the role's copy of the CA to every host fails ("src (or content) is required"), after the ClusterIssuer was applied, and the deployment stops there.`,
        advice: `Give ${p}ca the issuing CA certificate (PEM).`,
      });
    }
  });
}

export function clusterIssuer(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: CM, kind: 'ClusterIssuer', metadata: { name }, spec };
}

/** A Secret as the role writes it: `type` is left out where the role leaves it out (the Venafi one's). */
export function secret(
  name: string,
  stringData: Record<string, unknown>,
  type: string | null = 'Opaque',
  namespace = CERT_MANAGER_NAMESPACE,
): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, ...(type ? { type } : {}), stringData };
}
