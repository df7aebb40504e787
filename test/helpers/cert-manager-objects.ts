/**
 * cert-manager's objects as a real cluster holds them, for the kube checks' tests and the bench: its
 * three Deployments and the webhook's endpoints, a ClusterIssuer, Certificates with the requests,
 * orders and challenges below them, their TLS secrets (real certificates) and ingresses.
 */
import { X509Certificate } from 'node:crypto';
import { DAY, issue, type Issued } from './pki.js';
import { certManagerCrds, namespace, type KubeObject } from '../servers/kube-api.js';

const CM = 'cert-manager.io/v1';
const ACME = 'acme.cert-manager.io/v1';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, 'Z');
export const HOUR = 3_600_000;

type Component = 'controller' | 'webhook' | 'cainjector';
const NAMES: Record<Component, string> = {
  controller: 'cert-manager',
  webhook: 'cert-manager-webhook',
  cainjector: 'cert-manager-cainjector',
};

/** The Deployments of a cert-manager install (Available unless `down`) and the webhook's ready EndpointSlice. */
export function certManagerWorkloads(
  options: { version?: string; down?: Component[]; webhookEndpoints?: boolean; staleRollout?: Component[] } = {},
): KubeObject[] {
  const version = options.version ?? 'v1.15.5';
  const deployments = (Object.keys(NAMES) as Component[]).map((component): KubeObject => {
    const down = options.down?.includes(component);
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: NAMES[component],
        namespace: 'cert-manager',
        generation: 3,
        labels: {
          'app.kubernetes.io/component': component,
          'app.kubernetes.io/instance': 'cert-manager',
          'app.kubernetes.io/version': version,
        },
      },
      spec: {
        replicas: 1,
        template: {
          spec: { containers: [{ name: component, image: `quay.io/jetstack/cert-manager-${component}:${version}` }] },
        },
      },
      status: {
        observedGeneration: options.staleRollout?.includes(component) ? 2 : 3,
        replicas: 1,
        readyReplicas: down ? 0 : 1,
        conditions: [
          {
            type: 'Available',
            status: down ? 'False' : 'True',
            reason: down ? 'MinimumReplicasUnavailable' : 'MinimumReplicasAvailable',
            message: down ? 'Deployment does not have minimum availability.' : 'Deployment has minimum availability.',
          },
        ],
      },
    };
  });
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'cert-manager-webhook-abcde',
      namespace: 'cert-manager',
      labels: { 'kubernetes.io/service-name': 'cert-manager-webhook' },
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.7'], conditions: { ready: true } }],
    ports: [{ name: 'https', port: 10250 }],
  };
  return [namespace('cert-manager'), ...deployments, ...(options.webhookEndpoints === false ? [] : [slice])];
}

/**
 * A cluster with cert-manager installed and healthy, the platform's namespaces, and the ClusterIssuer
 * self-signed the platform always creates (it issues the platform's CA Certificates).
 */
export const certManagerCluster = (...extra: string[]) => [
  ...certManagerCrds(),
  ...certManagerWorkloads(),
  ...['openstack', 'auth-system', 'monitoring', ...extra].map(namespace),
  clusterIssuer('self-signed', { selfSigned: {} }, condition('Ready', 'True', 'IsReady', '')),
];

export const condition = (type: string, status: string, reason: string, message = '', observedGeneration?: number) => ({
  type,
  status,
  reason,
  message,
  ...(observedGeneration !== undefined ? { observedGeneration } : {}),
});

export function clusterIssuer(
  name: string,
  spec: Record<string, unknown> = {
    acme: { server: 'https://acme.test/directory', solvers: [{ http01: { ingress: { class: 'atmosphere' } } }] },
  },
  ready = condition('Ready', 'True', 'ACMEAccountRegistered', 'The ACME account was registered with the ACME server'),
): KubeObject {
  return {
    apiVersion: CM,
    kind: 'ClusterIssuer',
    metadata: { name, generation: 1 },
    spec,
    status: { conditions: [{ ...ready, observedGeneration: 1 }] },
  };
}

export interface CertificateOptions {
  namespace?: string;
  issuer?: string;
  issuerKind?: string;
  hosts?: string[];
  conditions?: ReturnType<typeof condition>[];
  status?: Record<string, unknown>;
  generation?: number;
}

/** A Certificate (Ready and current unless told) as the ingress-shim makes it from an annotated ingress. */
export function certificate(name: string, o: CertificateOptions = {}): KubeObject {
  const hosts = o.hosts ?? [`${name}.cloud.test`];
  return {
    apiVersion: CM,
    kind: 'Certificate',
    metadata: {
      name,
      namespace: o.namespace ?? 'openstack',
      generation: o.generation ?? 1,
      uid: `uid-${o.namespace ?? 'openstack'}-${name}`,
    },
    spec: {
      secretName: `${name}-certs`,
      dnsNames: hosts,
      issuerRef: { name: o.issuer ?? 'atmosphere', kind: o.issuerKind ?? 'ClusterIssuer', group: 'cert-manager.io' },
    },
    status: {
      conditions: o.conditions ?? [
        condition('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired', 1),
      ],
      notAfter: new Date(Date.now() + 60 * DAY).toISOString().replace(/\.\d+Z$/, 'Z'),
      renewalTime: new Date(Date.now() + 30 * DAY).toISOString().replace(/\.\d+Z$/, 'Z'),
      revision: 1,
      ...o.status,
    },
  };
}

/** The TLS secret of a Certificate, holding `issued` (or a fresh certificate for the hosts). */
export function tlsSecret(
  name: string,
  namespace: string,
  issued: Pick<Issued, 'cert' | 'key'>,
  annotations: Record<string, string> = {},
  type = 'kubernetes.io/tls',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type,
    metadata: { name, namespace, annotations },
    data: {
      'tls.crt': Buffer.from(issued.cert).toString('base64'),
      'tls.key': Buffer.from(issued.key).toString('base64'),
    },
  };
}

/** A leaf for `hosts` valid for `days` (negative: expired). */
export const leafFor = (hosts: string[], days = 60) =>
  issue({
    kind: 'p256',
    cn: hosts[0] ?? 'leaf',
    dns: hosts,
    notBefore: new Date(Date.now() - 10 * DAY),
    notAfter: new Date(Date.now() + days * DAY),
  });

/** A Certificate with its secret, issued by `issuer`. */
export function issuedCertificate(name: string, o: CertificateOptions & { days?: number } = {}): KubeObject[] {
  const cert = certificate(name, o);
  const hosts = (cert.spec as { dnsNames: string[] }).dnsNames;
  const leaf = leafFor(hosts, o.days);
  (cert.status as Record<string, unknown>).notAfter = new Date(new X509Certificate(leaf.cert).validTo)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  return [
    cert,
    tlsSecret(`${name}-certs`, o.namespace ?? 'openstack', leaf, {
      'cert-manager.io/issuer-name': o.issuer ?? 'atmosphere',
      'cert-manager.io/certificate-name': name,
    }),
  ];
}

const owned = (owner: KubeObject) => [
  {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
  },
];

export function certificateRequest(
  cert: KubeObject,
  revision: number,
  conditions: ReturnType<typeof condition>[],
): KubeObject {
  return {
    apiVersion: CM,
    kind: 'CertificateRequest',
    metadata: {
      name: `${cert.metadata.name}-${revision}`,
      namespace: cert.metadata.namespace,
      uid: `uid-cr-${cert.metadata.name}-${revision}`,
      creationTimestamp: ago(HOUR),
      annotations: {
        'cert-manager.io/certificate-name': cert.metadata.name,
        'cert-manager.io/certificate-revision': String(revision),
      },
      ownerReferences: owned(cert),
    },
    spec: { issuerRef: (cert.spec as { issuerRef: unknown }).issuerRef, request: 'LS0tLS1CRUdJTi...' },
    status: { conditions },
  };
}

export function order(request: KubeObject, status: Record<string, unknown>): KubeObject {
  return {
    apiVersion: ACME,
    kind: 'Order',
    metadata: {
      name: `${request.metadata.name}-1234`,
      namespace: request.metadata.namespace,
      uid: `uid-order-${request.metadata.name}`,
      ownerReferences: owned(request),
    },
    spec: {},
    status,
  };
}

export function challenge(
  ord: KubeObject,
  type: 'HTTP-01' | 'DNS-01',
  dnsName: string,
  status: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: ACME,
    kind: 'Challenge',
    metadata: {
      name: `${ord.metadata.name}-5678`,
      namespace: ord.metadata.namespace,
      uid: `uid-ch-${ord.metadata.name}`,
      ownerReferences: owned(ord),
    },
    spec: { type, dnsName, token: 'tok', key: 'keyauth' },
    status,
  };
}

export function event(about: KubeObject, reason: string, message: string, type = 'Warning'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${about.metadata.name}.${reason.toLowerCase()}`,
      namespace: about.metadata.namespace ?? 'default',
    },
    involvedObject: {
      kind: about.kind,
      name: about.metadata.name,
      namespace: about.metadata.namespace,
      uid: about.metadata.uid,
    },
    reason,
    message,
    type,
    lastTimestamp: ago(60_000),
  };
}

/** An ingress of the platform: annotated for `issuer` (unless null) with one TLS entry. */
export function ingress(
  name: string,
  namespace: string,
  host: string,
  secretName: string,
  issuer: string | null = 'atmosphere',
): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace, annotations: issuer ? { 'cert-manager.io/cluster-issuer': issuer } : {} },
    spec: { ingressClassName: 'atmosphere', tls: [{ hosts: [host], secretName }], rules: [{ host }] },
  };
}
