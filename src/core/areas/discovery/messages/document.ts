/**
 * The discovery group's words about what the issuer URL publishes: the discovery document, its issuer
 * and jwks_uri, the key set, the TLS that serves them, and a service-account token checked against them.
 */
import { expectedJwksUri } from '../../../kube/service-account-issuer.js';

export const FETCH = {
  notPublic: (url: string, status: number) =>
    `${url} answered ${status} to a request without credentials: it is not public.`,
  nothingPublished: (url: string) => `${url} answered 404: nothing is published there.`,
  publishBoth:
    'Publish the discovery document and key set at the issuer URL; "cloudgate oidc --out DIR" writes both files.',
  notOk: (url: string, status: number) => `${url} answered ${status} instead of 200.`,
  checkProxy: 'Check the server or proxy in front of the issuer URL.',
  trustTheChainToo:
    " The DNS provider's identity service must trust this chain as well: use a publicly trusted certificate, or register the thumbprint of a private CA (see discovery.tls).",
} as const;

export const DISCOVERY_DOCUMENT = {
  notHttps: (issuer: string) =>
    `The issuer URL ${issuer} is not https://; the DNS provider's identity service only fetches https issuers.`,
  publishHttps: 'Publish the discovery documents behind HTTPS and use that https:// URL as --service-account-issuer.',
  notObject: (url: string) => `${url} answered JSON that is not an object.`,
  serveApiServers: 'Serve the document the API server serves at /.well-known/openid-configuration.',
  lacks: (url: string, lacking: string) => `${url} lacks ${lacking}.`,
  serveWhatApiServerServes:
    'Serve the document the API server serves (kubectl get --raw /.well-known/openid-configuration).',
  lacksFields: (url: string, missing: string[]) => `${url} is served anonymously but lacks ${missing.join(', ')}.`,
  serveExactly:
    'Serve the document exactly as the API server produces it (kubectl get --raw /.well-known/openid-configuration).',
  served: (url: string) => `${url} is served anonymously (200, JSON, the Kubernetes field set).`,
} as const;

export const ISSUER = {
  same: (issuer: string) => `issuer is ${issuer}, byte for byte.`,
  differs: (actual: string, issuer: string, differences: string[]) =>
    `The document's issuer "${actual}" is not the issuer URL "${issuer}": ${differences.join('; ')}.`,
  useOneIssuer: (issuer: string, actual: string) =>
    `Tokens carry iss exactly as --service-account-issuer says and the token service compares it byte for byte. ` +
    `Set --service-account-issuer=${issuer} (first in the list) on every API server, or, if "${actual}" is the real issuer, ` +
    'use exactly that everywhere (provider registration, trust policy, --issuer-url).',
} as const;

export const JWKS_URI = {
  expected: (uri: string) => `jwks_uri is ${uri}.`,
  notUrl: (actual: string) => `jwks_uri "${actual}" is not a URL.`,
  internal: (actual: string) =>
    `jwks_uri points at ${actual}, an internal address the DNS provider cannot reach: --service-account-jwks-uri is probably unset.`,
  other: (actual: string, expected: string) => `jwks_uri is ${actual}, not ${expected}.`,
} as const;

export const KEY_SET = {
  fetchedInstead: (url: string, published: string) => `fetched ${url} because jwks_uri (${published}) is internal`,
  privateMaterial: (url: string, exposed: string) =>
    `The key set at ${url} publishes PRIVATE key material (${exposed}): anyone can sign service-account tokens with it.`,
  publishPublicAndRotate:
    'Publish only the public keys (kubectl get --raw /openid/v1/jwks serves them), then rotate the exposed key: its private half is public now.',
  noSigningKey: (url: string, problems: string) => `The key set at ${url} has no usable signing key: ${problems}.`,
  serveApiServers: 'Serve the key set the API server serves (kubectl get --raw /openid/v1/jwks).',
  contentType: (type: string) => `content type is "${type || '(none)'}" instead of application/jwk-set+json`,
  signingKeys: (count: number, keys: string) => `${count} signing key(s): ${keys}`,
  butWarnings: (url: string, summary: string, warnings: string) =>
    `The key set at ${url} has ${summary}, but ${warnings}.`,
  serveAsApiServer:
    'Serve it as the API server does: Content-Type application/jwk-set+json, public keys with use "sig".',
  served: (url: string, summary: string) => `The key set at ${url} is served anonymously with ${summary}.`,
} as const;

export const TOKEN = {
  giveTokenFile: 'Give --token-file FILE (a projected service-account token for the issuer).',
  noTokenFromCommand: (command: string, failed: string) => `No --token-file, and ${command} failed: ${failed}`,
  refused: (from: string, failures: string[]) => `The token from ${from} would be refused: ${failures.join('; ')}.`,
  setApiServerFlags: (issuer: string, inClusterAudience: string, stsAudience: string) =>
    `On every API server: --service-account-issuer=${issuer} (first), --service-account-jwks-uri=${expectedJwksUri(issuer)}, ` +
    `--api-audiences listing ${inClusterAudience}, ${issuer} and ${stsAudience}; then restart the API servers ("cloudgate oidc" prints these flags).`,
  verifiesBut: (from: string, warnings: string[]) => `The token from ${from} verifies, but ${warnings.join('; ')}.`,
  keepInClusterAudience: 'Keep the in-cluster audience in --api-audiences so in-cluster clients keep working.',
  verifies: (from: string, kid: unknown, issuer: string, stsAudience: string) =>
    `The token from ${from} verifies with key ${kid}, iss is the issuer URL and aud holds ${issuer} and ${stsAudience}.`,
  checkTokenFile: 'Check the path given to --token-file.',
  requestFailed: (command: string, failed: string) => `${command} failed: ${failed}.`,
  requestLikeCertManager: (namespace: string) =>
    `cert-manager makes the same request: check that the service account exists (kube.service-account) and that your access allows "create serviceaccounts/token" in ${namespace}; or give a token with --token-file.`,
} as const;

/** The TLS that serves the issuer (discovery.tls). */
export const TLS = {
  checkTlsPort: 'Check that the issuer host answers TLS on its port.',
  notVerified: (described: string) => `Not verified (--insecure). ${described}.`,
  runSecure: 'Run without --insecure (with --ca-file for a private CA) to judge the chain.',
  notNamed: 'the certificate does not name this host',
  notTrusted: (error: string) => `the chain is not trusted (${error})`,
  untrusted: (problems: string, described: string) => `${problems}. ${described}.`,
  servePublicCertificate:
    "The DNS provider's identity service fetches the issuer over TLS and refuses an untrusted or misnamed certificate. " +
    'Serve a certificate from a public CA (or register the thumbprint of your private CA with the provider), covering the issuer host; ' +
    'pass --ca-file PEM if this machine simply lacks your private CA.',
  leafOnly: (hosts: string) =>
    ` ${hosts} serve(s) no intermediate: the thumbprint is the leaf's and changes at every renewal.`,
  privateCa: (store: string | undefined, described: string, leafNote: string) =>
    `Trusted here (${store}) but not by the public roots: a private CA. ${described}.${leafNote}`,
  registerThumbprint:
    'For a private CA the thumbprint decides: register it in the identity provider (ThumbprintList of "cloudgate oidc"), for each host above; ' +
    'when that CA is renewed, update the thumbprint first.',
  publiclyTrusted: (described: string, leafNote: string) => `Publicly trusted. ${described}.${leafNote}`,
  serveIntermediates: 'Serve the intermediate certificate(s) after the leaf.',
  thumbprintInformational:
    'For a publicly trusted chain the DNS provider verifies it itself; the thumbprint is informational.',
} as const;

/** The API servers' issuer flags (discovery.apiserver-flags). */
export const APISERVER_FLAGS = {
  repairKubeadmConfig:
    'Repair the ConfigMap (kubeadm reads it at every upgrade): kubectl -n kube-system edit configmap kubeadm-config.',
  needsAccess:
    'The check needs "list pods" and "get configmap kubeadm-config" in kube-system: check your access with the same kubectl context.',
  noControlPlane:
    'No kube-apiserver-* pods in kube-system: the control plane is not visible from the cluster (managed service?).',
  compareByHand: "Compare the API server's issuer settings by hand, in the managed service's own configuration.",
  notKubeadm: ' (no kubeadm-config ConfigMap: not a kubeadm cluster, pods compared with each other only)',
  noIssuerUrl: ' (no --issuer-url: not compared with the public URL)',
  expectedFlags: (issuer: string, stsAudience: string) =>
    `--service-account-issuer=${issuer} (first), --service-account-jwks-uri=${expectedJwksUri(issuer)}, --api-audiences including ${stsAudience}`,
  sameFlags: 'the same issuer flags',
  wrong: (failures: string[], warnings: string[]) =>
    `API server issuer flags are wrong: ${failures.join('; ')}${warnings.length ? `; also ${warnings.join('; ')}` : ''}.`,
  putEverywhere: (expected: string) =>
    `Put ${expected} in kubeadm-config (ClusterConfiguration apiServer.extraArgs) and in /etc/kubernetes/manifests/kube-apiserver.yaml on every control plane node; tokens signed by a node that disagrees fail intermittently.`,
  warnings: (warnings: string[]) => `${warnings.join('; ')}.`,
  putIntoKubeadmConfig:
    'Put the flags into kubeadm-config (kubectl -n kube-system edit configmap kubeadm-config, apiServer.extraArgs, and the kubeadm config file you upgrade with) so that kubeadm upgrade keeps them.',
  agree: (count: number, nodes: string, kubeadm: boolean, notes: string) =>
    `The issuer flags agree on ${count} control plane(s) (${nodes})${kubeadm ? ' and with kubeadm-config' : ''}${notes}.`,
} as const;

/** How the issuer a document names differs from the issuer URL (each a fragment of ISSUER.differs). */
export const ISSUER_DIFFERENCE = {
  documentTrailingSlash: 'the document has a trailing slash the URL lacks',
  urlTrailingSlash: 'the URL has a trailing slash the document lacks',
  differentStrings: 'they are different strings',
  scheme: (actual: string, expected: string) => `scheme ${actual} instead of ${expected}`,
  port: (actual: string, expected: string) => `port ${actual || '(default)'} instead of ${expected || '(default)'}`,
  host: (actual: string, expected: string) => `host ${actual} instead of ${expected}`,
  pathCase: 'the path differs in letter case',
  path: (actual: string, expected: string) => `path "${actual || '/'}" instead of "${expected || '/'}"`,
  trailingSlashToo: 'a trailing slash differs as well',
  letterCase: 'they differ in letter case',
} as const;

/** Why the token service would refuse a service-account token, or doubt it (fragments of TOKEN.refused). */
export const TOKEN_FAILURE = {
  notJwt: 'it is not a JWT (three base64url parts with JSON header and claims)',
  algorithm: (alg: string | undefined) =>
    `its algorithm "${alg ?? '(none)'}" is not a signing algorithm the token service accepts`,
  unknownKey: (kid: string | undefined, published: string) =>
    `its key id "${kid ?? '(none)'}" is not in the published key set (${published || 'empty'}): the cluster signs with a key it does not publish`,
  badSignature: (kid: string | undefined) => `its signature does not verify with published key "${kid}"`,
  keyCannotVerify: (kid: string | undefined, why: string) => `published key "${kid}" cannot verify it: ${why}`,
  wrongIssuer: (iss: string | undefined, issuer: string) =>
    `its iss "${iss ?? '(none)'}" is not the issuer URL ${issuer} (set --service-account-issuer to it, first)`,
  missingAudiences: (missing: string[]) => `its aud lacks ${missing.join(', ')} (add to --api-audiences)`,
  missingInClusterAudience: (missing: string[]) => `its aud lacks the in-cluster audience ${missing.join(', ')}`,
  expired: (at: string | undefined) => `it expired at ${at}`,
} as const;

/** What is wrong with the API servers' issuer flags (fragments of APISERVER_FLAGS.wrong and .warnings). */
export const FLAG_FINDING = {
  disagree: (flag: string, byValue: string) => `the control planes disagree on --${flag}: ${byValue}`,
  nodesWithValue: (nodes: string[], value: string) => `${nodes.join(', ')}: ${value}`,
  handEdited: (flag: string, node: string, running: string, configured: string | undefined) =>
    `--${flag} on ${node} (${running}) is ${configured === undefined ? 'not in' : `not what is in (${configured})`} kubeadm-config: a hand edit of the static manifest, lost at the next kubeadm upgrade`,
  issuerMissing: (node: string, issuer: string, has: string[]) =>
    `${node}: --service-account-issuer lacks ${issuer} (has ${has.join(', ') || 'none'})`,
  issuerNotFirst: (node: string, issuer: string, first: string) =>
    `${node}: ${issuer} is not the first --service-account-issuer, so new tokens carry iss ${first}`,
  jwksUri: (node: string, jwksUri: string | undefined, expected: string) =>
    `${node}: --service-account-jwks-uri is ${jwksUri === undefined ? 'unset' : jwksUri}, not ${expected}`,
  audienceMissing: (node: string, audience: string) => `${node}: --api-audiences lacks ${audience}`,
} as const;
