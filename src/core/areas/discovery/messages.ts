/**
 * The discovery group's texts in one place: its checks' titles, why a check does not apply, and the
 * fixes several checks give. The words of its results are in messages/ by topic: what the issuer URL
 * publishes and the API servers' flags (document.ts), and keyless route53's role assumption and DNS
 * read (keyless.ts). Each is named after what it says; the checks decide which to say.
 */
export const TITLES = {
  document: 'OIDC discovery document (anonymous)',
  issuer: 'issuer equals the issuer URL',
  jwksUri: 'jwks_uri is the public key-set URL',
  keySet: 'Key set (anonymous, signing keys)',
  tls: 'TLS chain and thumbprint of the issuer',
  token: 'A service-account token verifies against the key set',
  sts: 'Keyless role assumption and one DNS read (route53 auth kubernetes)',
  apiserverFlags: 'API server issuer flags agree (kubeadm-config and every control plane)',
} as const;

const WHERE = '--issuer-url URL (or CLOUDGATE_ISSUER_URL, or discovery.issuer_url in --config)';

export const CLOSED = {
  noIssuerUrl: {
    message: 'No issuer URL given; needed only for route53 auth kubernetes.',
    text: `Give the public issuer URL with ${WHERE}.`,
  },
  notHttps: 'The issuer URL is not https://: there is no TLS to check.',
  badServiceAccount: (name: string) => ({
    message: `"${name}" is not a valid service account name (lower-case letters, digits, "-" and "." only).`,
    text: 'Set service_account (discovery: section of --config) to a valid name, or give --token-file FILE.',
  }),
  noTokenFromCluster: 'No --token-file, and no token from the cluster',
} as const;

/** The inventory selects keyless route53, but nothing says where its issuer is published. */
export const KEYLESS_WITHOUT_ISSUER = {
  message: 'The inventory selects route53 auth kubernetes, but no issuer URL was given to check.',
  advice: `Give the public issuer URL with ${WHERE}.`,
} as const;

export const RBAC_ADVICE =
  'By default the API server lets only service accounts read its discovery endpoints. Bind the ClusterRole ' +
  'system:service-account-issuer-discovery to the group system:unauthenticated ("cloudgate oidc --out DIR" writes ' +
  'discovery-rbac.yaml), or host the two files statically at the issuer URL.';

export const JWKS_FLAG_ADVICE = (expected: string) =>
  `Set --service-account-jwks-uri=${expected} on every API server (kube-apiserver), or fix the statically hosted document.`;
