/**
 * Clusters as cert-manager v1.15 leaves them (some as v1.21 does), for the kube checks and the cmctl-like
 * commands: healthy platforms of every issuer type, states cert-manager is still working on, and broken
 * ones. The reasons, messages and states are the texts cert-manager's source writes; the objects are the
 * ones the platform makes (the ClusterIssuer atmosphere, ClusterIssuer self-signed, the octavia and
 * libvirt CA issuers of openstack, their CA Certificates).
 */
import { X509Certificate } from 'node:crypto';
import { DAY, issue, type Issued } from './pki.js';
import {
  certificate,
  certificateRequest,
  certManagerCluster,
  challenge,
  clusterIssuer,
  condition,
  event,
  HOUR,
  ingress,
  order,
  tlsSecret,
  type CertificateOptions,
} from './cert-manager-objects.js';
import type { KubeObject, KubeState } from '../servers/kube-api.js';

export type StateKind = 'healthy' | 'transient' | 'broken';

export interface ClusterState {
  name: string;
  kind: StateKind;
  /** The inventory (group_vars), in the platform's words. */
  inventory: string;
  objects: KubeObject[];
  /** Changes to the API emulation itself (cert-manager's webhook). */
  tune?: (state: KubeState) => void;
}

const CM = 'cert-manager.io/v1';
const iso = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z');
const approved = condition(
  'Approved',
  'True',
  'cert-manager.io',
  'Certificate request has been approved by cert-manager.io',
);

export const ACME_HTTP01 =
  'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@cloud.test\ncluster_issuer_acme_server: https://acme.test/directory\n';
const ACME_ROUTE53 = `${ACME_HTTP01}cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_region: us-east-1\ncluster_issuer_acme_route53_hosted_zone_id: Z0CLOUDTEST\ncluster_issuer_acme_route53_access_key_id: AKIACLOUDTEST\ncluster_issuer_acme_route53_secret_access_key: cloudtest-secret\n`;

const acmeSpec = (solver: Record<string, unknown> = { http01: { ingress: { class: 'atmosphere' } } }) => ({
  acme: {
    email: 'ops@cloud.test',
    server: 'https://acme.test/directory',
    privateKeySecretRef: { name: 'cert-manager-issuer-account-key' },
    solvers: [solver],
  },
});
const route53Solver = {
  dns01: {
    route53: {
      region: 'us-east-1',
      hostedZoneID: 'Z0CLOUDTEST',
      accessKeyID: 'AKIACLOUDTEST',
      secretAccessKeySecretRef: { name: 'cert-manager-issuer-route53-credentials', key: 'secret-access-key' },
    },
  },
};
const acmeReady = condition(
  'Ready',
  'True',
  'ACMEAccountRegistered',
  'The ACME account was registered with the ACME server',
);
const caReady = condition('Ready', 'True', 'KeyPairVerified', 'Signing CA verified');

function secret(name: string, namespace: string, data: Record<string, string>, type = 'Opaque'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type,
    metadata: { name, namespace },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

/** A CA Certificate issued by ClusterIssuer self-signed, Ready, with its secret (a real CA and key). */
function caCertificate(name: string, namespace: string, secretName: string, ca: Issued): KubeObject[] {
  const cert = certificate(name, { namespace, issuer: 'self-signed', hosts: [] });
  cert.spec = {
    isCA: true,
    commonName: ca.subject.slice(3),
    secretName,
    duration: '87600h0m0s',
    privateKey: { algorithm: 'ECDSA', size: 256 },
    issuerRef: { name: 'self-signed', kind: 'ClusterIssuer', group: 'cert-manager.io' },
  };
  (cert.status as Record<string, unknown>).notAfter = new Date(new X509Certificate(ca.cert).validTo)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  return [
    cert,
    tlsSecret(secretName, namespace, ca, {
      'cert-manager.io/issuer-name': 'self-signed',
      'cert-manager.io/issuer-kind': 'ClusterIssuer',
      'cert-manager.io/certificate-name': name,
    }),
  ];
}

/** A namespaced CA Issuer over `<name>-ca`, as the octavia and libvirt roles make them in openstack. */
export function namespacedCaIssuer(name: string, ready = caReady): KubeObject {
  return {
    apiVersion: CM,
    kind: 'Issuer',
    metadata: { name, namespace: 'openstack', generation: 1 },
    spec: { ca: { secretName: `${name}-ca` } },
    status: { conditions: [{ ...ready, observedGeneration: 1 }] },
  };
}

/** A Certificate issued by `signer` (a real chain), with its secret annotated as cert-manager writes it. */
export function signedCertificate(
  name: string,
  signer: Issued,
  o: CertificateOptions & { days?: number; secretName?: string } = {},
): KubeObject[] {
  const cert = certificate(name, o);
  const hosts = (cert.spec as { dnsNames: string[] }).dnsNames;
  if (o.secretName) (cert.spec as Record<string, unknown>).secretName = o.secretName;
  const leaf = issue({
    cn: hosts[0] ?? name,
    dns: hosts,
    issuer: signer,
    notBefore: new Date(Date.now() - 10 * DAY),
    notAfter: new Date(Date.now() + (o.days ?? 60) * DAY),
  });
  (cert.status as Record<string, unknown>).notAfter = new Date(new X509Certificate(leaf.cert).validTo)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  const annotations = {
    'cert-manager.io/issuer-name': o.issuer ?? 'atmosphere',
    'cert-manager.io/issuer-kind': o.issuerKind ?? 'ClusterIssuer',
    'cert-manager.io/certificate-name': name,
    'cert-manager.io/alt-names': hosts.join(','),
  };
  return [
    cert,
    tlsSecret(
      o.secretName ?? `${name}-certs`,
      o.namespace ?? 'openstack',
      { cert: `${leaf.cert}${signer.cert}`, key: leaf.key },
      annotations,
    ),
  ];
}

/** The octavia and libvirt CA issuers of openstack with their CA Certificates, and the Certificates they issue. */
function namespacedIssuers(): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const name of ['octavia-client', 'octavia-server', 'libvirt-api', 'libvirt-vnc']) {
    const ca = issue({
      cn: name === 'octavia-client' || name === 'octavia-server' ? `${name}-ca` : 'libvirt',
      ca: true,
      notAfter: new Date(Date.now() + 3650 * DAY),
    });
    objects.push(...caCertificate(`${name}-ca`, 'openstack', `${name}-ca`, ca), namespacedCaIssuer(name));
    if (name === 'octavia-client')
      objects.push(
        ...signedCertificate('octavia-client-certs', ca, {
          issuer: 'octavia-client',
          issuerKind: 'Issuer',
          hosts: ['octavia-client'],
          secretName: 'octavia-client-certs',
        }),
      );
    if (name === 'libvirt-vnc')
      objects.push(
        ...signedCertificate('nova-novncproxy-vencrypt', ca, {
          issuer: 'libvirt-vnc',
          issuerKind: 'Issuer',
          hosts: ['nova-novncproxy'],
          secretName: 'nova-novncproxy-vencrypt',
        }),
      );
  }
  return objects;
}

/** The ACME platform's API endpoints: Certificates issued by ClusterIssuer atmosphere, and their ingresses. */
function endpoints(signer: Issued, names = ['keystone-api', 'nova-api']): KubeObject[] {
  return names.flatMap((name) => [
    ...signedCertificate(name, signer, { hosts: [`${name}.cloud.test`] }),
    ingress(name, 'openstack', `${name}.cloud.test`, `${name}-certs`),
  ]);
}

/** A public-CA stand-in that signs the ACME and venafi platforms' certificates. */
const acmeCa = () => issue({ cn: 'Test ACME CA', ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });

/** Certificate openstack/nova-api that cert-manager is issuing for the first time (no secret yet). */
function firstIssuance(
  o: {
    hosts?: string[];
    name?: string;
    issuer?: string;
    issuerKind?: string;
    ready?: ReturnType<typeof condition>;
    issuing?: ReturnType<typeof condition>;
    status?: Record<string, unknown>;
  } = {},
): KubeObject {
  return certificate(o.name ?? 'nova-api', {
    hosts: o.hosts,
    issuer: o.issuer,
    issuerKind: o.issuerKind,
    conditions: [
      o.ready ?? condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist', 1),
      ...(o.issuing === undefined
        ? [condition('Issuing', 'True', 'DoesNotExist', 'Issuing certificate as Secret does not exist', 1)]
        : [o.issuing]),
    ],
    status: { revision: undefined, notAfter: undefined, renewalTime: undefined, ...o.status },
  });
}

const withCreated = (o: KubeObject, msAgo: number): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, creationTimestamp: iso(-msAgo) },
});

/** The request, order and challenge of an ACME issuance under way, with the challenge's status. */
function acmeIssuance(
  cert: KubeObject,
  challengeStatus: Record<string, unknown> | undefined,
  o: {
    type?: 'HTTP-01' | 'DNS-01';
    orderStatus?: Record<string, unknown>;
    requestReady?: ReturnType<typeof condition>;
    revision?: number;
    age?: number;
    dnsName?: string;
  } = {},
): KubeObject[] {
  const age = o.age ?? 5 * 60_000;
  const req = withCreated(
    certificateRequest(cert, o.revision ?? 1, [
      approved,
      o.requestReady ??
        condition(
          'Ready',
          'False',
          'Pending',
          `Waiting on certificate issuance from order openstack/${cert.metadata.name}-${o.revision ?? 1}-1234: "pending"`,
        ),
    ]),
    age,
  );
  const ord = withCreated(order(req, o.orderStatus ?? { state: 'pending' }), age);
  const ch = challengeStatus
    ? [
        withCreated(
          challenge(ord, o.type ?? 'HTTP-01', o.dnsName ?? `${cert.metadata.name}.cloud.test`, challengeStatus),
          age,
        ),
      ]
    : [];
  return [req, ord, ...ch];
}

/** An ACME platform with two healthy endpoints, ready for one more Certificate in trouble. */
function acmePlatform(solver?: Record<string, unknown>): KubeObject[] {
  const credentials =
    solver === route53Solver
      ? [secret('cert-manager-issuer-route53-credentials', 'cert-manager', { 'secret-access-key': 'cloudtest-secret' })]
      : [];
  return [
    ...certManagerCluster(),
    ...credentials,
    clusterIssuer('atmosphere', acmeSpec(solver), acmeReady),
    ...endpoints(acmeCa()),
  ];
}

const failedAttempts = (attempts: number, lastAgo = 30 * 60_000) => ({
  failedIssuanceAttempts: attempts,
  lastFailureTime: iso(-lastAgo),
});

/** Every state, by kind. Each call builds new objects (and new keys). */
export function clusterStates(): ClusterState[] {
  return [...healthyStates(), ...transientStates(), ...brokenStates()];
}

export function healthyStates(): ClusterState[] {
  const selfSignedCaKey = issue({ cn: 'selfsigned-ca', ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const caIssuerKey = issue({ cn: 'Cloud Test Issuing CA', ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const venafiCa = issue({ cn: 'Venafi Test CA', ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const supplied = chainFor('*.cloud.test');
  return [
    {
      name: 'self-signed platform (a ca: issuer over cert-manager-selfsigned-ca)',
      kind: 'healthy',
      inventory: 'cluster_issuer_type: self-signed\n',
      objects: [
        ...certManagerCluster(),
        ...caCertificate('self-signed-ca', 'cert-manager', 'cert-manager-selfsigned-ca', selfSignedCaKey),
        clusterIssuer('atmosphere', { ca: { secretName: 'cert-manager-selfsigned-ca' } }, caReady),
        ...endpoints(selfSignedCaKey),
      ],
    },
    {
      name: 'CA platform',
      kind: 'healthy',
      inventory: `cluster_issuer_type: ca\ncluster_issuer_ca_certificate: |\n${indent(caIssuerKey.cert)}cluster_issuer_ca_private_key: |\n${indent(caIssuerKey.key)}`,
      objects: [
        ...certManagerCluster(),
        tlsSecret('cert-manager-issuer-ca', 'cert-manager', caIssuerKey),
        clusterIssuer('atmosphere', { ca: { secretName: 'cert-manager-issuer-ca' } }, caReady),
        ...endpoints(caIssuerKey),
      ],
    },
    { name: 'ACME platform, HTTP-01', kind: 'healthy', inventory: ACME_HTTP01, objects: acmePlatform() },
    {
      name: 'ACME platform, route53 wildcard',
      kind: 'healthy',
      inventory: `${ACME_ROUTE53}openstack_helm_ingress_wildcard_domain: cloud.test\n`,
      objects: [
        ...certManagerCluster(),
        clusterIssuer('atmosphere', acmeSpec(route53Solver), acmeReady),
        secret('cert-manager-issuer-route53-credentials', 'cert-manager', { 'secret-access-key': 'cloudtest-secret' }),
        ...signedCertificate('atmosphere-wildcard', acmeCa(), {
          hosts: ['*.cloud.test'],
          secretName: 'atmosphere-wildcard',
        }),
        ingress('keystone', 'openstack', 'keystone.cloud.test', 'atmosphere-wildcard', null),
        ingress('nova', 'openstack', 'nova.cloud.test', 'atmosphere-wildcard', null),
      ],
    },
    {
      name: 'venafi platform',
      kind: 'healthy',
      inventory: `cluster_issuer_type: venafi\ncluster_issuer_venafi_zone: atmosphere\ncluster_issuer_venafi_tpp_url: https://tpp.cloud.test/vedsdk\ncluster_issuer_venafi_access_token: cloudtest-token\ncluster_issuer_venafi_ca: |\n${indent(venafiCa.cert)}cluster_issuer_venafi_tpp_ca_bundle: ${Buffer.from(venafiCa.cert).toString('base64')}\n`,
      objects: [
        ...certManagerCluster(),
        secret('cert-manager-venafi-credentials', 'cert-manager', { 'access-token': 'cloudtest-token' }),
        clusterIssuer(
          'atmosphere',
          {
            venafi: {
              zone: 'atmosphere',
              tpp: {
                url: 'https://tpp.cloud.test/vedsdk',
                caBundle: Buffer.from(venafiCa.cert).toString('base64'),
                credentialsRef: { name: 'cert-manager-venafi-credentials' },
              },
            },
          },
          condition('Ready', 'True', 'Venafi issuer started', 'Venafi issuer started'),
        ),
        ...endpoints(venafiCa),
      ],
    },
    {
      name: 'supplied wildcard (issuer none)',
      kind: 'healthy',
      inventory:
        'cluster_issuer_type: none\nopenstack_helm_ingress_wildcard_domain: cloud.test\nopenstack_helm_ingress_secret_name: wildcard-certs\n',
      objects: [
        ...certManagerCluster(),
        ...['openstack', 'auth-system', 'monitoring'].map((ns) => tlsSecret('wildcard-certs', ns, supplied)),
        ingress('keystone', 'openstack', 'keystone.cloud.test', 'wildcard-certs', null),
        ingress('keycloak', 'auth-system', 'sso.cloud.test', 'wildcard-certs', null),
      ],
    },
    {
      name: 'ACME platform with the octavia and libvirt issuers of openstack',
      kind: 'healthy',
      inventory: ACME_HTTP01,
      objects: [...acmePlatform(), ...namespacedIssuers()],
    },
  ];
}

/** A supplied wildcard's chain file: leaf, intermediate, root; `reversed` puts the root first. */
export function chainFor(name: string, reversed = false): { cert: string; key: string } {
  const root = issue({ cn: 'Supplied Test Root', ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const intermediate = issue({ cn: 'Supplied Test Intermediate', ca: true, issuer: root });
  const leaf = issue({ cn: name, dns: [name], issuer: intermediate });
  const certs = [leaf.cert, intermediate.cert, root.cert];
  return { cert: (reversed ? certs.reverse() : certs).join(''), key: leaf.key };
}

const indent = (pem: string) =>
  pem
    .split('\n')
    .filter(Boolean)
    .map((l) => `  ${l}\n`)
    .join('');

export function transientStates(): ClusterState[] {
  const renewing = () => {
    const [cert, sec] = signedCertificate('glance-api', acmeCa(), { hosts: ['glance-api.cloud.test'] });
    (cert!.status as { conditions: unknown[] }).conditions.push(
      condition('Issuing', 'True', 'Renewing', `Renewing certificate as renewal was scheduled at ${iso(-60_000)}`, 1),
    );
    return [
      cert!,
      sec!,
      ...acmeIssuance(cert!, { presented: true, processing: true, state: 'pending', reason: '' }, { revision: 2 }),
    ];
  };
  return [
    {
      name: 'first issuance, DNS-01 record not yet propagated',
      kind: 'transient',
      inventory: ACME_ROUTE53,
      objects: [
        ...acmePlatform(route53Solver),
        ...(() => {
          const c = firstIssuance();
          return [
            c,
            ...acmeIssuance(
              c,
              {
                presented: true,
                processing: true,
                state: 'pending',
                reason:
                  'Waiting for DNS-01 challenge propagation: DNS record for "nova-api.cloud.test" not yet propagated',
              },
              { type: 'DNS-01' },
            ),
          ];
        })(),
      ],
    },
    {
      name: 'renewal under way, the current certificate valid',
      kind: 'transient',
      inventory: ACME_HTTP01,
      objects: [...acmePlatform(), ...renewing()],
    },
    {
      name: 'issuer changed, cert-manager re-issuing',
      kind: 'transient',
      inventory: ACME_HTTP01,
      objects: [
        ...acmePlatform(),
        ...(() => {
          const [cert, sec] = signedCertificate('glance-api', acmeCa(), { hosts: ['glance-api.cloud.test'] });
          (cert!.status as { conditions: unknown[] }).conditions = [
            condition(
              'Ready',
              'False',
              'IncorrectIssuer',
              'Issuing certificate as Secret was previously issued by "ClusterIssuer.cert-manager.io/old-issuer"',
              1,
            ),
            condition(
              'Issuing',
              'True',
              'IncorrectIssuer',
              'Issuing certificate as Secret was previously issued by "ClusterIssuer.cert-manager.io/old-issuer"',
              1,
            ),
          ];
          return [
            cert!,
            sec!,
            ...acmeIssuance(
              cert!,
              { presented: true, processing: true, state: 'pending', reason: '' },
              { revision: 2 },
            ),
          ];
        })(),
      ],
    },
    {
      name: 'rate-limited renewal, the current certificate valid',
      kind: 'transient',
      inventory: ACME_HTTP01,
      objects: [
        ...acmePlatform(),
        ...(() => {
          const [cert, sec] = signedCertificate('glance-api', acmeCa(), {
            hosts: ['glance-api.cloud.test'],
            status: { ...failedAttempts(1), renewalTime: iso(-2 * HOUR) },
          });
          const message = `Failed to wait for order resource "glance-api-2-1234" to become ready: order is in "errored" state: Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, retry after ${new Date(
            Date.now() + 20 * HOUR,
          )
            .toISOString()
            .replace('T', ' ')
            .replace(/\.\d+Z$/, ' UTC')}: see https://letsencrypt.org/docs/rate-limits/`;
          (cert!.status as { conditions: unknown[] }).conditions.push(
            condition(
              'Issuing',
              'False',
              'Failed',
              `The certificate request has failed to complete and will be retried: ${message}`,
              1,
            ),
          );
          return [
            cert!,
            sec!,
            ...acmeIssuance(cert!, undefined, {
              revision: 2,
              requestReady: condition('Ready', 'False', 'Failed', message),
              orderStatus: { state: 'errored', reason: message.slice(message.indexOf('Failed to create Order')) },
            }),
          ];
        })(),
      ],
    },
    {
      name: 'renewal asked for by hand (cloudgate renew)',
      kind: 'transient',
      inventory: ACME_HTTP01,
      objects: [
        ...acmePlatform(),
        ...(() => {
          const [cert, sec] = signedCertificate('glance-api', acmeCa(), { hosts: ['glance-api.cloud.test'] });
          (cert!.status as { conditions: unknown[] }).conditions.push(
            condition('Issuing', 'True', 'ManuallyTriggered', 'Certificate re-issuance manually triggered', 1),
          );
          return [cert!, sec!];
        })(),
      ],
    },
    {
      name: 'first issuance, HTTP-01 challenge just scheduled',
      kind: 'transient',
      inventory: ACME_HTTP01,
      objects: [
        ...acmePlatform(),
        ...(() => {
          const c = firstIssuance();
          return [c, ...acmeIssuance(c, { presented: false, processing: true, state: 'pending', reason: '' })];
        })(),
      ],
    },
  ];
}

/** A broken state: the platform of `base` plus the objects in trouble. */
function broken(
  name: string,
  inventory: string,
  objects: KubeObject[],
  tune?: (state: KubeState) => void,
): ClusterState {
  return { name, kind: 'broken', inventory, objects, ...(tune ? { tune } : {}) };
}

export function brokenStates(): ClusterState[] {
  const acmeWith = (extra: KubeObject[], solver?: Record<string, unknown>) => [...acmePlatform(solver), ...extra];
  const expiredBackingOff = () => {
    const [cert, sec] = signedCertificate('glance-api', acmeCa(), {
      hosts: ['glance-api.cloud.test'],
      days: -3,
      status: { ...failedAttempts(4, 2 * HOUR), renewalTime: iso(-20 * DAY) },
    });
    const why =
      'Error accepting authorization: acme: authorization error for glance-api.cloud.test: 400 urn:ietf:params:acme:error:connection: 203.0.113.7: Fetching http://glance-api.cloud.test/.well-known/acme-challenge/tok: Timeout during connect (likely firewall problem)';
    (cert!.status as { conditions: unknown[] }).conditions = [
      condition(
        'Ready',
        'False',
        'Expired',
        `Certificate expired on ${new Date(Date.now() - 3 * DAY).toUTCString()}`,
        1,
      ),
      condition(
        'Issuing',
        'False',
        'Failed',
        'The certificate request has failed to complete and will be retried: Failed to wait for order resource "glance-api-2-1234" to become ready: order is in "invalid" state: ',
        1,
      ),
    ];
    return [
      cert!,
      sec!,
      ...acmeIssuance(
        cert!,
        { presented: false, processing: false, state: 'invalid', reason: why },
        {
          revision: 2,
          requestReady: condition(
            'Ready',
            'False',
            'Failed',
            'Failed to wait for order resource "glance-api-2-1234" to become ready: order is in "invalid" state: ',
          ),
          orderStatus: { state: 'invalid', reason: '' },
        },
      ),
    ];
  };
  const rateLimitedExpired = () => {
    const [cert, sec] = signedCertificate('glance-api', acmeCa(), {
      hosts: ['glance-api.cloud.test'],
      days: -1,
      status: { ...failedAttempts(2), renewalTime: iso(-20 * DAY) },
    });
    const reason = `Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, retry after ${new Date(
      Date.now() + 30 * HOUR,
    )
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')}: see https://letsencrypt.org/docs/rate-limits/`;
    (cert!.status as { conditions: unknown[] }).conditions = [
      condition('Ready', 'False', 'Expired', 'Certificate expired', 1),
      condition('Issuing', 'True', 'Expired', 'Certificate expired', 1),
    ];
    return [
      cert!,
      sec!,
      ...acmeIssuance(cert!, undefined, {
        revision: 2,
        requestReady: condition(
          'Ready',
          'False',
          'Failed',
          `Failed to wait for order resource "glance-api-2-1234" to become ready: order is in "errored" state: ${reason}`,
        ),
        orderStatus: { state: 'errored', reason },
      }),
    ];
  };
  const orderFailing = (reason: string) => {
    const c = firstIssuance();
    return [c, ...acmeIssuance(c, undefined, { orderStatus: { state: 'errored', reason } })];
  };
  const challengeFailing = (status: Record<string, unknown>, type: 'HTTP-01' | 'DNS-01' = 'HTTP-01', age?: number) => {
    const c = firstIssuance();
    return [c, ...acmeIssuance(c, status, { type, ...(age ? { age } : {}) })];
  };
  const bundle = Buffer.from(issue({ cn: 'Venafi TPP CA', ca: true }).cert).toString('base64');
  const notACa = issue({ cn: 'nova-api.cloud.test', dns: ['nova-api.cloud.test'] });
  const someCa = issue({ cn: 'Cloud Test Issuing CA', ca: true });
  const otherKey = issue({ cn: 'other', ca: true });
  const CA = (ca: Issued) =>
    `cluster_issuer_type: ca\ncluster_issuer_ca_certificate: |\n${indent(ca.cert)}cluster_issuer_ca_private_key: |\n${indent(ca.key)}`;
  const venafiPlatform = (ready: ReturnType<typeof condition>) => [
    ...certManagerCluster(),
    secret('cert-manager-venafi-credentials', 'cert-manager', { 'access-token': 'revoked-token' }),
    clusterIssuer(
      'atmosphere',
      {
        venafi: {
          zone: 'atmosphere',
          tpp: {
            url: 'https://tpp.cloud.test/vedsdk',
            caBundle: bundle,
            credentialsRef: { name: 'cert-manager-venafi-credentials' },
          },
        },
      },
      ready,
    ),
    firstIssuance(),
  ];
  const VENAFI = `cluster_issuer_type: venafi\ncluster_issuer_venafi_zone: atmosphere\ncluster_issuer_venafi_tpp_url: https://tpp.cloud.test/vedsdk\ncluster_issuer_venafi_access_token: revoked-token\ncluster_issuer_venafi_tpp_ca_bundle: ${bundle}\n`;
  return [
    broken(
      'wildcard order with no challenge: no solver for a wildcard',
      `${ACME_HTTP01}openstack_helm_ingress_wildcard_domain: cloud.test\n`,
      acmeWith(
        (() => {
          const c = firstIssuance({ name: 'atmosphere-wildcard', hosts: ['*.cloud.test'] });
          (c.spec as Record<string, unknown>).secretName = 'atmosphere-wildcard';
          const [req, ord] = acmeIssuance(c, undefined, { age: 2 * HOUR });
          return [
            c,
            req!,
            ord!,
            event(
              ord!,
              'Solver',
              'Failed to determine a valid solver configuration for the set of domains on the Order: no configured challenge solvers can be used for this challenge',
            ),
          ];
        })(),
      ),
    ),
    broken(
      'a Certificate naming a namespaced Issuer that does not exist (the ClusterIssuer of that name does)',
      ACME_HTTP01,
      acmeWith([firstIssuance({ issuer: 'atmosphere', issuerKind: 'Issuer' })]),
    ),
    broken(
      'a webhook solver whose API group is not served',
      `${ACME_HTTP01}cluster_issuer_acme_solver: godaddy\ncluster_issuer_acme_godaddy_api_key: k\ncluster_issuer_acme_godaddy_secret_key: s\n`,
      acmeWith(
        [
          secret('godaddy-api-key', 'cert-manager', { token: 'k:s' }),
          ...challengeFailing(
            {
              presented: false,
              processing: true,
              state: 'pending',
              reason:
                'the server could not find the requested resource (post godaddy.godaddy.cert-manager.atmosphere.dev)',
            },
            'DNS-01',
          ),
        ],
        {
          dns01: {
            webhook: {
              groupName: 'godaddy.cert-manager.atmosphere.dev',
              solverName: 'godaddy',
              config: { apiKeySecretRef: { name: 'godaddy-api-key', key: 'token' }, production: true, ttl: 600 },
            },
          },
        },
      ),
    ),
    broken('a CA issuer whose certificate is not a CA', CA(notACa), [
      ...certManagerCluster(),
      tlsSecret('cert-manager-issuer-ca', 'cert-manager', notACa),
      clusterIssuer(
        'atmosphere',
        { ca: { secretName: 'cert-manager-issuer-ca' } },
        condition(
          'Ready',
          'False',
          'ErrInvalidKeyPair',
          'Error getting keypair for CA issuer: certificate is not a CA',
        ),
      ),
      firstIssuance(),
    ]),
    broken(
      'a revoked Venafi access token (1.15 says ErrorSetup)',
      VENAFI,
      venafiPlatform(
        condition(
          'Ready',
          'False',
          'ErrorSetup',
          'Failed to setup Venafi issuer: client.VerifyCredentials: tppClient.VerifyAccessToken: failed to verify token: 401 Unauthorized',
        ),
      ),
    ),
    broken(
      'a refused Venafi token (1.21 says AuthFailed)',
      VENAFI,
      venafiPlatform(
        condition(
          'Ready',
          'False',
          'AuthFailed',
          'OAuth token request failed: tppClient.VerifyAccessToken: failed to verify token: 401 Unauthorized',
        ),
      ),
    ),
    broken('rate-limited while the served certificate expired', ACME_HTTP01, acmeWith(rateLimitedExpired())),
    broken(
      'a CAA record forbidding the CA',
      ACME_HTTP01,
      acmeWith(
        challengeFailing({
          presented: true,
          processing: false,
          state: 'invalid',
          reason:
            'Error accepting authorization: acme: authorization error for nova-api.cloud.test: 403 urn:ietf:params:acme:error:caa: CAA record for nova-api.cloud.test prevents issuance',
        }),
      ),
    ),
    broken(
      'a name the ACME CA rejects',
      ACME_HTTP01,
      acmeWith(
        orderFailing(
          'Failed to create Order: 400 urn:ietf:params:acme:error:rejectedIdentifier: Error creating new order :: Cannot issue for "nova-api.cloud.internal": Domain name does not end with a valid public suffix (TLD)',
        ),
      ),
    ),
    broken('an expired certificate backing off after a challenge timeout', ACME_HTTP01, acmeWith(expiredBackingOff())),
    broken(
      'a supplied wildcard whose chain is reversed',
      'cluster_issuer_type: none\nopenstack_helm_ingress_wildcard_domain: cloud.test\nopenstack_helm_ingress_secret_name: wildcard-certs\n',
      [
        ...certManagerCluster(),
        tlsSecret('wildcard-certs', 'openstack', chainFor('*.cloud.test', true)),
        ingress('keystone', 'openstack', 'keystone.cloud.test', 'wildcard-certs', null),
      ],
    ),
    broken('a namespaced CA issuer of openstack whose CA Secret is missing', ACME_HTTP01, [
      ...acmePlatform(),
      namespacedCaIssuer(
        'octavia-client',
        condition(
          'Ready',
          'False',
          'ErrGetKeyPair',
          'Error getting keypair for CA issuer: secret "octavia-client-ca" not found',
        ),
      ),
      ...(() => {
        const ca = firstIssuance({ name: 'octavia-client-ca', hosts: [], issuer: 'self-signed' });
        (ca.spec as Record<string, unknown>).secretName = 'octavia-client-ca';
        return [ca];
      })(),
      firstIssuance({
        name: 'octavia-client-certs',
        hosts: ['octavia-client'],
        issuer: 'octavia-client',
        issuerKind: 'Issuer',
      }),
    ]),
    broken('a self-signed platform whose CA was never issued', 'cluster_issuer_type: self-signed\n', [
      ...certManagerCluster(),
      clusterIssuer(
        'atmosphere',
        { ca: { secretName: 'cert-manager-selfsigned-ca' } },
        condition(
          'Ready',
          'False',
          'ErrGetKeyPair',
          'Error getting keypair for CA issuer: secret "cert-manager-selfsigned-ca" not found',
        ),
      ),
      ...(() => {
        const ca = firstIssuance({ name: 'self-signed-ca', hosts: [], issuer: 'self-signed' });
        ca.metadata.namespace = 'cert-manager';
        (ca.spec as Record<string, unknown>).isCA = true;
        (ca.spec as Record<string, unknown>).secretName = 'cert-manager-selfsigned-ca';
        return [ca];
      })(),
      firstIssuance({ name: 'keystone-api' }),
      firstIssuance({ name: 'nova-api' }),
    ]),
    broken('an ACME CA that requires External Account Binding', ACME_HTTP01, [
      ...certManagerCluster(),
      clusterIssuer(
        'atmosphere',
        acmeSpec(),
        condition(
          'Ready',
          'False',
          'ErrRegisterACMEAccount',
          'Failed to register ACME account: 400 urn:ietf:params:acme:error:externalAccountRequired: External account binding is required for new accounts',
        ),
      ),
      firstIssuance(),
    ]),
    broken("a CA issuer whose key is not its certificate's", CA(someCa), [
      ...certManagerCluster(),
      tlsSecret('cert-manager-issuer-ca', 'cert-manager', { cert: someCa.cert, key: otherKey.key }),
      clusterIssuer('atmosphere', { ca: { secretName: 'cert-manager-issuer-ca' } }, caReady),
      ...(() => {
        const c = firstIssuance({
          issuing: condition(
            'Issuing',
            'False',
            'Failed',
            "The certificate request has failed to complete and will be retried: Error signing certificate: error creating x509 certificate: x509: provided PrivateKey doesn't match parent's PublicKey",
            1,
          ),
          status: failedAttempts(1),
        });
        return [
          c,
          certificateRequest(c, 1, [
            approved,
            condition(
              'Ready',
              'False',
              'Failed',
              "Error signing certificate: error creating x509 certificate: x509: provided PrivateKey doesn't match parent's PublicKey",
            ),
          ]),
        ];
      })(),
    ]),
    broken(
      'a request denied by a policy',
      ACME_HTTP01,
      acmeWith(
        (() => {
          const c = firstIssuance();
          return [
            c,
            certificateRequest(c, 1, [
              condition('Denied', 'True', 'policy.cert-manager.io', 'No policy approved this request'),
              condition('Ready', 'False', 'Denied', 'The CertificateRequest was denied by an approval controller'),
            ]),
          ];
        })(),
      ),
    ),
    broken(
      'a request no approver answers',
      ACME_HTTP01,
      acmeWith(
        (() => {
          const c = firstIssuance();
          return [c, withCreated(certificateRequest(c, 1, []), HOUR)];
        })(),
      ),
    ),
    broken("cert-manager's webhook Service missing", ACME_HTTP01, acmePlatform(), (state) => {
      state.certManagerWebhook = { failure: 'service "cert-manager-webhook" not found' };
    }),
    broken("cert-manager's webhook CA bundle not injected", ACME_HTTP01, acmePlatform(), (state) => {
      state.certManagerWebhook = {
        failure: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
      };
    }),
    broken(
      'an HTTP-01 self-check answered 404 for two hours',
      ACME_HTTP01,
      acmeWith(
        challengeFailing(
          {
            presented: true,
            processing: true,
            state: 'pending',
            reason: "Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'",
          },
          'HTTP-01',
          2 * HOUR,
        ),
      ),
    ),
    broken(
      'route53 refusing the record',
      ACME_ROUTE53,
      acmeWith(
        challengeFailing(
          {
            presented: false,
            processing: true,
            state: 'pending',
            reason:
              'failed to change Route 53 record set: operation error Route 53: ChangeResourceRecordSets, https response error StatusCode: 403, RequestID: 1, api error AccessDenied: User: arn:aws:iam::1:user/dns is not authorized to perform: route53:ChangeResourceRecordSets',
          },
          'DNS-01',
        ),
        route53Solver,
      ),
    ),
    broken('an issuer reason cert-manager does not set', ACME_HTTP01, [
      ...certManagerCluster(),
      clusterIssuer(
        'atmosphere',
        acmeSpec(),
        condition('Ready', 'False', 'PolicyViolation', 'an admission policy stopped the account'),
      ),
      firstIssuance(),
    ]),
    broken('a route53 Secret missing (1.21 says InvalidSolver)', ACME_ROUTE53, [
      ...certManagerCluster(),
      clusterIssuer(
        'atmosphere',
        acmeSpec(route53Solver),
        condition(
          'Ready',
          'False',
          'InvalidSolver',
          'failed to get secret "cert-manager-issuer-route53-credentials": secrets "cert-manager-issuer-route53-credentials" not found',
        ),
      ),
      firstIssuance(),
    ]),
    broken("the platform's ClusterIssuer not deployed", ACME_HTTP01, [
      ...certManagerCluster(),
      firstIssuance({ name: 'keystone-api' }),
      firstIssuance({ name: 'nova-api' }),
    ]),
    broken(
      'two Certificates fighting over one secret',
      ACME_HTTP01,
      acmeWith([
        firstIssuance({
          name: 'nova-api',
          ready: condition(
            'Ready',
            'False',
            'IncorrectCertificate',
            'Secret was issued for "nova-api-old". If this message is not transient, you might have two conflicting Certificates pointing to the same secret.',
            1,
          ),
          issuing: condition('Issuing', 'False', 'Failed', 'x', 1),
        }),
      ]),
    ),
    broken(
      'a secret whose certificate expired while its Certificate says Ready',
      ACME_HTTP01,
      acmeWith(signedCertificate('glance-api', acmeCa(), { hosts: ['glance-api.cloud.test'], days: -2 })),
    ),
  ];
}
