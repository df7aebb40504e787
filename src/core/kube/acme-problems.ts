/**
 * What the text cert-manager puts in an ACME Order's or Challenge's `status.reason`, an issuer's Ready
 * message or a request's message means. Three sources, tried in this order:
 *
 * 1. An ACME problem type (`urn:ietf:params:acme:error:<type>`, RFC 8555 and its successors): cert-manager
 *    quotes the CA's error as "<status> <type>: <detail>" ("Failed to create Order: 429
 *    urn:ietf:params:acme:error:rateLimited: ..."; "Error accepting authorization: acme: authorization
 *    error for <name>: 403 urn:ietf:params:acme:error:caa: ...").
 * 2. cert-manager's own solver errors (its HTTP-01 self-check, the DNS-01 providers, a webhook solver's
 *    API), from its source (1.15 and 1.21).
 * 3. A Challenge whose authorization the CA refused carries only the CA's detail, without the type:
 *    the CA's usual wording is recognised last.
 *
 * Nothing recognised: undefined, and the caller says the text as it is.
 */
import type { ReasonVerdict } from './cert-manager-reasons.js';

export interface Problem {
  /** `acme:<type>` for an ACME problem type, else the solver case's name. */
  code: string;
  verdict: ReasonVerdict;
  cause: string;
  fix: string;
  /** When the CA lets cert-manager try again (ISO 8601), from a rate limit's message. */
  retryAt?: string;
}

interface ProblemRow {
  cause: string;
  fix: string;
  verdict?: ReasonVerdict;
}

const BACKOFF = 'cert-manager starts a new order after its back-off; cloudgate renew {certificate} starts one at once.';

/** Every ACME problem type: RFC 8555 section 6.7, and `alreadyReplaced` of ACME renewal information. */
const ROWS = {
  rateLimited: {
    verdict: 'transient',
    cause: "the ACME CA's rate limit is reached for these names or this account",
    fix: "Wait until {retryAt}: cert-manager tries again by itself. Do not delete anything meanwhile (Certificates, their secrets, requests or orders): every new order counts against the limit. Try changes against the CA's staging directory first.",
  },
  caa: {
    cause: 'the CAA records of {dnsName} (or of its nearest parent that has any) do not allow this CA to issue',
    fix:
      'Add a CAA record allowing the CA (e.g. 0 issue "letsencrypt.org"; for a wildcard, issuewild) to the zone, or remove the one that forbids it: "dig CAA {dnsName}" shows them, walking up to the parent domains. ' +
      BACKOFF,
  },
  rejectedIdentifier: {
    cause:
      'the ACME CA will not issue for {dnsName} at all (not a public domain, a name on its block list, or a kind of name it does not serve)',
    fix: 'A public ACME CA issues only for public domains you control: use such a name (openstack_helm_ingress_wildcard_domain and the *_host variables), or issue internal names from your own CA (cluster_issuer_type: ca) or an internal ACME server (cluster_issuer_acme_server).',
  },
  unsupportedIdentifier: {
    cause: 'the ACME CA does not issue for this kind of name (an IP address, or a wildcard it does not support)',
    fix: 'Use DNS names the CA supports; for a wildcard with an internal ACME server, check that it issues wildcards.',
  },
  externalAccountRequired: {
    cause: 'the ACME CA requires External Account Binding',
    fix: "External Account Binding needs a key id and HMAC key from the CA, which the platform's ACME issuer does not set: use an ACME CA that does not require it, or add externalAccountBinding to the ClusterIssuer by hand and keep it across deployments.",
  },
  unauthorized: {
    cause: 'the ACME CA refused the authorization: it did not find the proof it expected for {dnsName}',
    fix:
      'HTTP-01: http://{dnsName}/.well-known/acme-challenge/... must reach the ingress controller on port 80 from the internet; DNS-01: the TXT record _acme-challenge.{dnsName} must be in the zone the world resolves. ' +
      BACKOFF,
  },
  dns: {
    cause: 'the ACME CA could not resolve {dnsName} (no such name, or its name servers fail)',
    fix:
      'Publish the name in public DNS ("dig {dnsName}" from outside); for DNS-01 the zone\'s name servers must answer for _acme-challenge.{dnsName}. ' +
      BACKOFF,
  },
  connection: {
    cause: 'the ACME CA could not connect to {dnsName} to validate it (a firewall, or the name points elsewhere)',
    fix:
      'Open port 80 from the internet to the ingress controller for HTTP-01, or use a DNS-01 solver (cluster_issuer_acme_solver) when the APIs are not reachable from outside. ' +
      BACKOFF,
  },
  tls: {
    cause:
      'the ACME CA got a TLS error while validating {dnsName} (an HTTP-01 redirect to https with a bad certificate)',
    fix: 'Serve the HTTP-01 path on plain http without redirecting it to https with an invalid certificate. ' + BACKOFF,
  },
  incorrectResponse: {
    cause: 'the ACME CA found another answer than the one cert-manager presented for {dnsName}',
    fix:
      'Another server answers for the name (HTTP-01: a second ingress or load balancer; DNS-01: an old TXT record or another zone). ' +
      BACKOFF,
  },
  badCSR: {
    cause: 'the ACME CA refused the certificate request (key type or size, or names it will not put in a certificate)',
    fix: 'Use an RSA 2048+ or ECDSA P-256/P-384 key and names the CA accepts. ' + BACKOFF,
  },
  badPublicKey: {
    cause: 'the ACME CA refused the key of the request or of the account',
    fix: 'Use a key type and size the CA accepts (RSA 2048+, ECDSA P-256/P-384). ' + BACKOFF,
  },
  badSignatureAlgorithm: {
    cause: 'the ACME CA does not accept the signature algorithm of the request',
    fix: 'Use RSA or ECDSA keys the CA supports.',
  },
  badNonce: {
    verdict: 'transient',
    cause: 'the ACME CA refused a stale request nonce: cert-manager retries',
    fix: 'Nothing, unless it stays (then a proxy between cert-manager and the CA reorders requests).',
  },
  malformed: {
    verdict: 'transient',
    cause: 'the ACME CA found the request malformed, often an authorization that expired: cert-manager starts over',
    fix: BACKOFF,
  },
  serverInternal: {
    verdict: 'transient',
    cause: 'the ACME CA had an internal error',
    fix: "Nothing: cert-manager retries; the CA's status page says whether it is down.",
  },
  orderNotReady: {
    verdict: 'transient',
    cause: 'the order was finalized before all its names were validated: cert-manager retries',
    fix: BACKOFF,
  },
  accountDoesNotExist: {
    cause: 'the ACME account of the issuer no longer exists at the CA (another server, or a deactivated account)',
    fix: 'Delete the account key Secret (cluster_issuer_acme_private_key_secret_name, default cert-manager-issuer-account-key) so cert-manager registers a new account.',
  },
  invalidContact: {
    cause: "the ACME CA refused the account's email address",
    fix: 'Set cluster_issuer_acme_email to a real address in a domain that has mail servers, and deploy.',
  },
  unsupportedContact: {
    cause: 'the ACME CA does not accept this kind of contact',
    fix: 'Set cluster_issuer_acme_email to a plain email address, and deploy.',
  },
  userActionRequired: {
    cause: 'the ACME CA requires an action in its web site (usually new terms of service)',
    fix: "Open the URL in the CA's message, then delete the account key Secret so cert-manager registers again.",
  },
  alreadyRevoked: {
    cause: 'the certificate was already revoked',
    fix: 'Nothing to revoke; cloudgate renew {certificate} issues a new one.',
  },
  alreadyReplaced: {
    verdict: 'transient',
    cause:
      'the certificate was already replaced (ACME renewal information): cert-manager orders without the replacement hint',
    fix: 'Nothing.',
  },
  badRevocationReason: {
    cause: 'the ACME CA does not accept the revocation reason',
    fix: 'Use a revocation reason the CA supports.',
  },
  compound: {
    cause: 'the ACME CA gives several problems; the message lists each',
    fix: 'Fix each problem the message lists. ' + BACKOFF,
  },
} satisfies Record<string, ProblemRow>;
export const ACME_PROBLEMS: Readonly<Record<string, ProblemRow>> = ROWS;

const ACME_TYPE = /urn:(?:ietf:params:)?acme:error:([A-Za-z]+)/;

/** The retry time an ACME CA puts in a rate-limit problem ("retry after 2025-01-20 22:00:44 UTC"), ISO 8601. */
export function retryAfter(message: string): string | undefined {
  const m = /retry after (\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z| ?UTC|[+-]\d{2}:?\d{2})?)/i.exec(
    message,
  );
  if (!m) return undefined;
  const iso = m[1].replace(' ', 'T').replace(/ ?UTC$/i, 'Z');
  const time = Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(iso) ? iso : `${iso}Z`);
  return Number.isFinite(time) ? new Date(time).toISOString() : m[1];
}

/** The ACME problem type named in `text`; an unknown type is said as unknown, with the CA's words. */
export function acmeProblemOf(text: string): Problem | undefined {
  const type = ACME_TYPE.exec(text)?.[1];
  if (!type) return undefined;
  const row = Object.hasOwn(ACME_PROBLEMS, type) ? ACME_PROBLEMS[type] : undefined;
  if (!row) {
    return {
      code: `acme:${type}`,
      verdict: 'broken',
      cause: `the ACME CA answered with the problem type "${type}", which is not one the ACME standard defines: its detail says what it means`,
      fix: `Read the CA's detail in the message. ${BACKOFF}`,
    };
  }
  return {
    code: `acme:${type}`,
    verdict: row.verdict ?? 'broken',
    cause: row.cause,
    fix: row.fix,
    ...(type === 'rateLimited' ? { retryAt: retryAfter(text) } : {}),
  };
}

export type ChallengeType = 'HTTP-01' | 'DNS-01';

interface SolverCase extends ProblemRow {
  code: string;
  test: RegExp;
  /** Only for this challenge type. */
  only?: ChallengeType;
}

const WEBHOOK_GROUP =
  "the solver's groupName (cluster_issuer_acme_godaddy_group_name, cluster_issuer_acme_infoblox_group_name)";

/** cert-manager's own errors while presenting or checking a challenge, from its source. */
export const SOLVER_CASES: readonly SolverCase[] = [
  {
    code: 'webhook-api-not-served',
    test: /the server could not find the requested resource \(post [^)]+\)/,
    cause:
      "the API server does not serve the DNS-01 webhook's API group: the webhook is not installed, or its group is not the one the solver names",
    fix: `Deploy the inventory (for godaddy and infoblox the platform installs the webhook's Helm release, cert-manager-webhook-godaddy or cert-manager-webhook-infoblox-wapi); ${WEBHOOK_GROUP} must be the webhook's own groupName. "kubectl get apiservices" lists the groups served.`,
  },
  {
    code: 'webhook-api-unavailable',
    test: /the server is currently unable to handle the request \(post [^)]+\)|no endpoints available for service/,
    cause:
      "the API server knows the DNS-01 webhook's API group but the webhook does not answer (its pod is not running, or not ready)",
    fix: 'Look at the webhook\'s Deployment and pod in the cert-manager namespace ("kubectl get apiservices" shows the group\'s status and why it is unavailable).',
  },
  {
    code: 'webhook-api-forbidden',
    test: /is forbidden: User "system:serviceaccount:[^"]*" cannot create resource/,
    cause: "cert-manager may not call the DNS-01 webhook's API (RBAC)",
    fix: "The webhook's Helm chart grants cert-manager's service account create on its API group (the ClusterRole ...:domain-solver): reinstall the webhook's release by deploying the inventory.",
  },
  {
    code: 'solver-secret-missing',
    test: /error getting (?:route53|cloudflare|azuredns|azure dns|clouddns|digitalocean|acmedns|akamai)[^:]*: (?:secrets? "[^"]*" not found|key '[^']*' not found)|failed to load secret|no key "[^"]*" in secret|specified key "[^"]*" not found in secret|no data found in Secret/,
    cause:
      "the DNS-01 solver's credentials Secret does not exist in cert-manager's namespace, or lacks the key the solver names",
    fix: "Deploy the inventory: the platform creates the solver's Secret in cert-manager (cert-manager-issuer-route53-credentials, cloudflare-api-token, cert-manager-issuer-tsig-secret-key, ...); a renamed Secret is set with cluster_issuer_acme_<solver>_secret_name.",
  },
  {
    code: 'route53-assume-role-refused',
    test: /unable to assume role with web identity|AssumeRoleWithWebIdentity|InvalidIdentityToken/,
    cause:
      "AWS refused to let cert-manager assume the route53 role with the cluster's service-account token (keyless route53, auth kubernetes)",
    fix: "cloudgate doctor --only discovery,kube checks the issuer, the token and the role's trust policy; cloudgate oidc prints what the account needs.",
  },
  {
    code: 'route53-token-request',
    test: /failed to request token for [^:]+|error getting service account token/,
    cause: 'cert-manager may not request a token for the route53 service account (keyless route53, auth kubernetes)',
    fix: 'Deploy the inventory: it creates the Role and RoleBinding <service account>-tokenrequest in cert-manager (kube.token-permission checks it).',
  },
  {
    code: 'route53-zone',
    test: /zone \S+ not found in Route 53|failed to determine Route 53 hosted zone ID/,
    cause: 'cert-manager cannot find the Route 53 hosted zone of {dnsName}',
    fix: 'Set cluster_issuer_acme_route53_hosted_zone_id to the zone that holds the name (and check the credentials may list it), then deploy.',
  },
  {
    code: 'dns-zone-not-found',
    test: /Found no Zones for domain|Zone \S+ not found|Could not determine the zone for|Could not find the SOA record|error finding zone from fqdn/,
    cause: 'cert-manager cannot find the DNS zone that holds {dnsName}',
    fix: 'The zone must exist at the provider and the credentials must see it (cloudflare: Zone.Read; azuredns: cluster_issuer_acme_azuredns_hostedzone_name); from inside the cluster "dig SOA {dnsName}" must find it.',
  },
  {
    code: 'rfc2136-refused',
    test: /DNS update failed/,
    cause: "the RFC 2136 name server refused cert-manager's update (TSIG key, or the zone's update policy)",
    fix: "Check cluster_issuer_acme_rfc2136_tsig_key_name, _tsig_algorithm and _tsig_secret_key against the server's key, and that its update-policy lets that key change _acme-challenge records (cloudgate doctor --only acme signs a query with the key).",
  },
  {
    code: 'dns-credentials-refused',
    only: 'DNS-01',
    // Case matters: REFUSED is the DNS server's answer, "connection refused" no answer at all.
    test: /AccessDenied|[Ff]orbidden|\b40[13]\b|[Uu]nauthori[sz]ed|not authorized|Authentication error|[Ii]nvalid (?:API|[Aa]ccess|api) (?:[Kk]ey|[Tt]oken)|\bREFUSED\b|\bNOTAUTH\b|InvalidClientTokenId|SignatureDoesNotMatch|AuthorizationFailed/,
    cause: "the DNS provider refused cert-manager's credentials for the zone",
    fix: "Check the solver's credentials and that they may change records of the zone (cloudgate doctor --only acme tries them).",
  },
  {
    code: 'dns-propagation',
    only: 'DNS-01',
    verdict: 'transient',
    test: /DNS record for "[^"]*" not yet propagated/,
    cause: "cert-manager wrote the TXT record _acme-challenge.{dnsName} but the zone's name servers do not show it yet",
    fix: 'Minutes are normal. A record that never shows is written to another zone than the one the world resolves ("dig TXT _acme-challenge.{dnsName}" against the zone\'s name servers); cert-manager\'s --dns01-recursive-nameservers must reach the zone.',
  },
  {
    code: 'dns-soa-lookup',
    only: 'DNS-01',
    test: /rcode was expected to be 'NOERROR' or 'NXDOMAIN'|Could not determine authoritative nameservers|NS \S+ returned/,
    cause: "cert-manager's DNS lookups for {dnsName} fail from inside the cluster",
    fix: "The cluster's DNS (or cert-manager's --dns01-recursive-nameservers) must resolve the zone's SOA and name servers.",
  },
  {
    code: 'http-self-check-status',
    only: 'HTTP-01',
    test: /wrong status code '\d+', expected '200'/,
    cause:
      "cert-manager's own check of http://{dnsName}/.well-known/acme-challenge/... gets an error status from inside the cluster",
    fix: "From inside the cluster the name must reach the ingress controller on port 80 (split DNS or hairpin NAT often stop it), and the solver's ingress class {ingressClass} must be served by that controller. cert-manager keeps checking by itself.",
  },
  {
    code: 'http-self-check-connect',
    only: 'HTTP-01',
    test: /failed to perform self check GET request/,
    cause:
      'cert-manager cannot connect to http://{dnsName}/ from inside the cluster (the name does not resolve there, or port 80 is closed)',
    fix: 'The name must resolve inside the cluster to an address of the ingress controller with port 80 open (split DNS, hairpin NAT). cert-manager keeps checking by itself.',
  },
  {
    code: 'http-self-check-answer',
    only: 'HTTP-01',
    test: /did not get expected response when querying endpoint/,
    cause: 'another server than the solver answers http://{dnsName}/.well-known/acme-challenge/... inside the cluster',
    fix: "Something else catches the path (another ingress for the host with a catch-all, or a redirect): the solver's ingress class {ingressClass} must be the controller that serves the host.",
  },
  {
    code: 'http-solver-config',
    only: 'HTTP-01',
    test: /no HTTP01 ingress config|neither HTTP01 Ingress nor Gateway|no Ingress nor Gateway HTTP01 solvers/,
    cause: 'the HTTP-01 solver of the issuer has no ingress configuration',
    fix: "Deploy the inventory: the platform's solver is http01.ingress.class (atmosphere_ingress_class_name).",
  },
  {
    code: 'caa-self-check',
    test: /CAA self-check failed|CAA record does not match issuer|Could not validate CAA/,
    cause: "cert-manager's own CAA check found that the CAA records of {dnsName} do not allow the CA",
    fix: ROWS.caa.fix,
  },
  {
    code: 'wait-instead-of-self-check',
    verdict: 'transient',
    test: /Waiting \S+ before accepting \S+ challenge without self-check/,
    cause: "cert-manager waits the solver's set time before telling the CA to validate",
    fix: 'Nothing.',
  },
  {
    code: 'challenge-not-acme',
    test: /unexpected non-ACME API error/,
    cause: "cert-manager got an error that is not the ACME CA's own answer while checking the challenge",
    fix: `Read the message (a proxy or firewall between cert-manager and the CA?). ${BACKOFF}`,
  },
];

/** The CA's own wording of a refused validation, when cert-manager kept only its detail. */
const CA_DETAILS: readonly SolverCase[] = [
  { code: 'acme:caa', test: /CAA record for \S+ prevents issuance/i, ...ROWS.caa },
  {
    code: 'acme:rejectedIdentifier',
    test: /Cannot issue for|Domain name does not end with a valid public suffix|policy forbids issuing/i,
    ...ROWS.rejectedIdentifier,
  },
  { code: 'acme:dns', test: /DNS problem|NXDOMAIN|SERVFAIL/, ...ROWS.dns },
  {
    code: 'acme:connection',
    test: /Timeout during connect|Connection refused|Timeout after connect|Fetching http/i,
    ...ROWS.connection,
  },
  {
    code: 'acme:unauthorized',
    test: /Invalid response from|No TXT record found|Incorrect TXT record/i,
    ...ROWS.unauthorized,
  },
];

/** What `text` says, for a challenge of `type` when known. */
export function problemIn(text: string | undefined, type?: string): Problem | undefined {
  if (!text) return undefined;
  const acme = acmeProblemOf(text);
  if (acme) return acme;
  const fits = (c: SolverCase) => !c.only || !type || c.only === type;
  const found = SOLVER_CASES.find((c) => fits(c) && c.test.test(text)) ?? CA_DETAILS.find((c) => c.test.test(text));
  return found
    ? { code: found.code, verdict: found.verdict ?? 'broken', cause: found.cause, fix: found.fix }
    : undefined;
}
