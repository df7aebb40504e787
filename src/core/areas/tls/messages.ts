/**
 * The tls group's texts in one place: what each served certificate says (its findings and their fixes),
 * and how the catalog's endpoints add up. The checks decide; they say it with these words.
 */

const REGENERATE = 'After fixing the issuer, run "cloudgate regenerate" so the certificates are issued again.';

/** What a handshake served. */
export const SERVED = {
  noCertificate: (where: string) => `${where} presented no certificate.`,
  checkIngressTls: 'Check the ingress TLS configuration of this host.',
  fakeCertificate: (where: string, fake: string) =>
    `${where} serves the ingress controller's default "${fake}": the ingress has no usable TLS secret.`,
  fakeCertificateFix:
    'The TLS secret of this ingress is missing, or its tls.crt does not start with the certificate matching tls.key (ingress-nginx then falls back silently). ' +
    'Look at "kubectl get certificate,secret -n openstack" and run "cloudgate doctor --only kube".',
  expired: (where: string, day: string) => `The certificate of ${where} expired on ${day}.`,
  notYetValid: (where: string, from: string) => `The certificate of ${where} is not valid before ${from}.`,
  checkClocks: 'Check the clock of this machine and of the issuer.',
  expiresSoon: (where: string, days: number, day: string) =>
    `The certificate of ${where} expires in ${days} days (${day}).`,
  suppliedNeverRenewed: (secret: string | undefined) =>
    `The platform never renews a supplied wildcard certificate (issuer none): renew it and replace the secret ${secret ?? '(openstack_helm_ingress_secret_name)'} before it expires ("cloudgate setup" writes the new Secret manifest).`,
  certManagerShouldRenew:
    'cert-manager should have renewed it: run "cloudgate doctor --only kube" to see the Certificate and issuer status.',
  hostNotCovered: (where: string, host: string, names: string) =>
    `The certificate of ${where} does not cover ${host}: it names ${names}.`,
  onlyCommonName: (name: string) => `only CN=${name}`,
  wildcardCoversOneLabel:
    'A wildcard *.d covers exactly one label (a.d, not a.b.d and not d itself); issue a certificate that names this host.',
  serveCoveringCertificate:
    'Serve a certificate whose subjectAltName includes this host, or check that the name resolves to the right ingress.',
  weakCrypto: (where: string, weaknesses: string) =>
    `The chain served by ${where} uses cryptography clients refuse: ${weaknesses}.`,
  weakCryptoFix: (fixes: string) =>
    `${fixes}; clients refuse it whatever CA signed it, and --ca-file cannot change that.`,
  outOfOrder: (where: string, order: string) => `${where} serves its chain out of order: ${order}.`,
  putInOrder:
    'Put the certificate first, then each intermediate in issuing order, then (optionally) the root — one file, in that order.',
  unrelated: (where: string, count: number, names: string) =>
    `${where} serves ${count} certificate(s) unrelated to its chain: ${names}.`,
  removeUnrelated:
    'Remove them from tls.crt; only the certificate, its intermediates and optionally the root belong there.',
  individualNotWildcard: (where: string, wildcard: string) =>
    `${where} serves an individual certificate, but the inventory configures a wildcard (${wildcard}).`,
  staleIndividualSecret:
    'The ingress still uses its own secret: check that the platform was redeployed with the wildcard settings, then remove the stale secret ("cloudgate regenerate").',
  wildcardNotIndividual: (where: string, names: string) =>
    `${where} serves a wildcard certificate (${names}), but the inventory configures individual certificates (openstack_helm_ingress_wildcard_domain unset).`,
  wildcardIntended:
    'Set openstack_helm_ingress_wildcard_domain (or openstack_helm_ingress_secret_name with issuer none) if the wildcard is intended; otherwise redeploy so each endpoint gets its own certificate.',
  healthy: (trust: string, host: string, days: number, length: number, issuer: string) =>
    `${trust}, covers ${host}, expires in ${days} days, chain of ${length} in order, issued by ${issuer}.`,
  trustNotChecked: 'trust not checked (--insecure)',
  trustedBy: (store: string) => `trusted (${store})`,
  andMore: (first: string, count: number, rest: string) => `${first} (+${count} more: ${rest})`,
} as const;

/** Why the served chain is not trusted. */
export const UNTRUSTED = {
  selfSigned: (where: string, store: string) => `${where} serves a self-signed certificate, not trusted by ${store}.`,
  selfSignedExpected:
    'Expected with cluster_issuer_type self-signed (development only); pass --ca-file with that certificate to check the rest.',
  selfSignedFix: 'Pass --ca-file with the CA that should be trusted, or configure a real issuer (cluster_issuer_type).',
  issuerUnknown: (where: string, last: string, issuer: string, store: string) =>
    `The chain served by ${where} ends at "${last}", whose issuer "${issuer}" is neither served nor trusted by ${store}.`,
  intermediateOrPrivateCa:
    'Either an intermediate is missing (serve certificate, then intermediate(s) in tls.crt) or the CA is private (pass --ca-file PEM, or OS_CACERT).',
  rootNotTrusted: (where: string, root: string, store: string) =>
    `The chain served by ${where} ends at the root "${root}", which ${store} does not trust.`,
  passPrivateRoot:
    'Pass --ca-file with that root if it is your private CA; otherwise the certificate comes from the wrong issuer.',
  notTrusted: (where: string, code: string, store: string) =>
    `The certificate of ${where} is not trusted (${code}) by ${store}.`,
  checkIssuerAndChain: 'Check the issuer and the served chain; pass --ca-file for a private CA.',
} as const;

/** What is served does not come from the issuer the inventory configures. */
export const WRONG_ISSUER = {
  staging: (where: string, issuer: string) =>
    `${where} serves a certificate from an ACME staging issuer ("${issuer}"); no client trusts it.`,
  useProduction: `Point cluster_issuer_acme_server at the production directory (or unset it for the public CA). ${REGENERATE}`,
  selfSigned: (where: string, type: string) =>
    `${where} serves a self-signed certificate, but the inventory configures issuer "${type}".`,
  predatesChange: `The certificate predates the issuer change or the issuer failed. ${REGENERATE}`,
  privateCa: (where: string, issuer: string) =>
    `${where} serves a certificate issued by "${issuer}", a private CA, but the inventory configures a public ACME CA (cluster_issuer_acme_server unset).`,
  internalAcme: `If an internal ACME server is meant, set cluster_issuer_acme_server; otherwise the certificate predates the issuer change. ${REGENERATE}`,
} as const;

/** Why an endpoint could not be reached, by the probe's error code. */
export const UNREACHABLE = {
  dns: (host: string, origin: string) =>
    `Check the host name (endpoint from ${origin}) and this machine's DNS; --endpoint ${host}@ADDRESS connects to an address directly.`,
  refused: (target: string, origin: string) =>
    `Nothing listens on ${target}: check the port (endpoint from ${origin}) and that the ingress controller runs.`,
  timeout: (target: string) =>
    `A firewall may drop the traffic, or the service hangs; check that ${target} is reachable from here, or raise --timeout.`,
  notTls: (target: string, origin: string) =>
    `${target} is probably not a TLS port, or a proxy interferes (endpoint from ${origin}).`,
  caFile: 'Check the path given to --ca-file, OS_CACERT or NODE_EXTRA_CA_CERTS.',
  checkReachable: (host: string, port: number, origin: string) =>
    `Check that ${host} is reachable on port ${port} (endpoint from ${origin}).`,
} as const;

/** The service catalog's endpoints, together. */
export const CATALOG = {
  noEndpoint: (beyondChecked: boolean) =>
    `The catalog names no https endpoint${beyondChecked ? ' beyond those checked above' : ''}.`,
  coveredByOthers: 'Nothing to do: the other tls checks cover the catalog.',
  allValid: (count: number) => `${count} catalog endpoint(s) serve valid certificates.`,
  problems: (bad: number, count: number, each: string) =>
    `${bad} of ${count} catalog endpoint(s) have problems: ${each}`,
} as const;
