/**
 * Every reason cert-manager writes into a condition or an event of the objects the platform uses, read
 * from its source for the release the platform pins (1.15) and the newest (1.21): the certificates
 * controllers (trigger, key manager, request manager, issuing, readiness), the certificate requests
 * (approver, ACME, CA, self-signed, Venafi), the ACME orders and challenges, the issuers' setup (ACME, CA,
 * self-signed, Venafi) and the ingress shim. Each reason is said in cloudgate's words with its fix; a
 * reason set for several causes is told apart by cert-manager's own message. A reason not in this table
 * is said as unknown (explainReason), never given another reason's advice. docs/cert-manager.md shows
 * the table.
 *
 * Fixes may name `{certificate}` (NAMESPACE/NAME of the Certificate concerned), `{issuer}` (the issuer as
 * `Kind name`) and `{secret}`: fillIn() puts them in.
 */

/** The cert-manager releases whose source the table was read from. */
export type CmRelease = '1.15' | '1.21';
export const CM_RELEASES: readonly CmRelease[] = ['1.15', '1.21'];
const BOTH: readonly CmRelease[] = CM_RELEASES;

/** Where cert-manager writes a reason. */
export type ReasonSite =
  | 'Certificate Ready'
  | 'Certificate Issuing'
  | 'Certificate event'
  | 'CertificateRequest Ready'
  | 'CertificateRequest Approved'
  | 'CertificateRequest event'
  | 'Issuer Ready'
  | 'Issuer event'
  | 'Order event'
  | 'Challenge event'
  | 'Ingress event';

/** What the reason says about the platform: all is well, cert-manager is working on it, or it needs the operator. */
export type ReasonVerdict = 'healthy' | 'transient' | 'broken';

export interface MessageCase {
  /** A name for this cause, stable for --json. */
  code: string;
  /** cert-manager's message (or the error it carries) for this cause. */
  test: RegExp;
  cause: string;
  fix: string;
  verdict?: ReasonVerdict;
}

export interface ReasonRow {
  reason: string;
  sites: readonly ReasonSite[];
  releases: readonly CmRelease[];
  verdict: ReasonVerdict;
  cause: string;
  fix: string;
  /** Causes cert-manager sets under the same reason, told apart by its message; the first that matches wins. */
  messages?: readonly MessageCase[];
}

const STATUS = 'cloudgate status certificate {certificate}';
const RENEW = 'cloudgate renew {certificate}';
const NOTHING = 'Nothing: cert-manager is working on it.';

/** cert-manager's own TLS-secret reading errors, shared by the CA issuer's setup and signing. */
const CA_SECRET_CASES: readonly MessageCase[] = [
  {
    code: 'ca-secret-missing',
    test: /secrets? "[^"]*" not found|Referenced secret \S+ not found/,
    cause: 'the Secret the CA issuer signs with does not exist',
    fix: "For the platform's ClusterIssuer: deploy the inventory (cluster_issuer_type ca creates Secret cert-manager/cert-manager-issuer-ca from cluster_issuer_ca_certificate and cluster_issuer_ca_private_key; self-signed makes cert-manager-selfsigned-ca through Certificate cert-manager/self-signed-ca). For the namespaced CA issuers of openstack: their Certificate <name>-ca issues it (cloudgate status certificate openstack/<name>-ca).",
  },
  {
    code: 'ca-secret-no-data',
    test: /no (?:private key |certificate )?data for "tls\.(?:crt|key)"/,
    cause: "the CA issuer's Secret lacks tls.crt or tls.key",
    fix: "Recreate the Secret with both tls.crt and tls.key: for the platform's CA set cluster_issuer_ca_certificate and cluster_issuer_ca_private_key and deploy.",
  },
  {
    code: 'ca-secret-unreadable',
    test: /error decoding (?:certificate|private key) PEM block|error parsing (?:TLS|X\.509) certificate|error parsing (?:pkcs#8|ecdsa|rsa) private key|unknown private key type|rsa private key failed validation/,
    cause:
      "the CA issuer's Secret holds a certificate or key cert-manager cannot read (not PEM, or an unsupported key type)",
    fix: "Put the CA certificate (PEM, issuer first) in tls.crt and its unencrypted PKCS#1, SEC 1 or PKCS#8 key in tls.key: cloudgate doctor --only certificate checks the inventory's cluster_issuer_ca_certificate and cluster_issuer_ca_private_key.",
  },
];

export const REASONS: readonly ReasonRow[] = [
  // --- Certificate: Ready (readiness controller) and Issuing (trigger, issuing controllers) ---------------
  {
    reason: 'Ready',
    sites: ['Certificate Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'healthy',
    cause:
      'the certificate in its secret is current and matches the Certificate (for a Venafi issuer: the issuer was verified)',
    fix: '',
  },
  {
    reason: 'Issued',
    sites: ['Certificate Issuing', 'CertificateRequest Ready'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the certificate was issued',
    fix: '',
  },
  {
    reason: 'DoesNotExist',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'its secret does not exist (a first issuance, or the secret was deleted): cert-manager issues it',
    fix: NOTHING,
  },
  {
    reason: 'MissingData',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'its secret lacks the certificate or the key: cert-manager issues it again',
    fix: NOTHING,
  },
  {
    reason: 'InvalidKeyPair',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the key in its secret is unreadable or does not belong to its certificate: cert-manager issues it again',
    fix: NOTHING,
  },
  {
    reason: 'InvalidCertificate',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the certificate in its secret cannot be read: cert-manager issues it again',
    fix: NOTHING,
    messages: [
      {
        code: 'issuer-returned-expired',
        test: /already expired certificate/,
        verdict: 'broken',
        cause: "the issuer signed a certificate that had already expired: the issuer's CA certificate has expired",
        fix: "Renew the CA certificate of {issuer}: for the platform's CA issuer put a current one in cluster_issuer_ca_certificate and deploy; for a self-signed CA, cloudgate renew its Certificate (cert-manager/self-signed-ca, or openstack/<name>-ca for a namespaced issuer).",
      },
      {
        code: 'issuer-returned-other-key',
        test: /public key that does not match the CSR|Failed to compare certificate and CSR public keys|Issuer returned an invalid certificate/,
        verdict: 'broken',
        cause:
          'the issuer returned a certificate that is not for the key cert-manager asked for: the issuer is misconfigured',
        fix: "Check {issuer} (its CA Secret, or the external issuer's configuration); cert-manager retries after its back-off.",
      },
    ],
  },
  {
    reason: 'InvalidCertificateRequest',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the request of its current revision holds a request (CSR) cert-manager cannot read: it makes a new one',
    fix: NOTHING,
  },
  {
    reason: 'SecretMismatch',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause:
      'the key in its secret no longer fits the Certificate (private key algorithm, size or encoding, or a keystore setting changed): cert-manager issues it again',
    fix: NOTHING,
  },
  {
    reason: 'IncorrectIssuer',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause:
      'its secret was issued by another issuer than the Certificate names (the issuer was changed): cert-manager issues it from the new one',
    fix: NOTHING,
  },
  {
    reason: 'IncorrectCertificate',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'broken',
    cause:
      "its secret belongs to another Certificate: two Certificates name the same secret and replace each other's certificate",
    fix: "Give each Certificate its own secretName (for the platform's ingresses: one TLS secret per ingress; kube.ingress-secrets names the ingresses that share a host), and delete the Certificate no ingress needs.",
  },
  {
    reason: 'RequestChanged',
    sites: ['Certificate Ready', 'Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause:
      'the Certificate was changed after its request was made (names, usages, issuer): cert-manager issues it again',
    fix: NOTHING,
  },
  {
    reason: 'Renewing',
    sites: ['Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'its renewal time came: cert-manager renews it',
    fix: NOTHING,
  },
  {
    reason: 'Expired',
    sites: ['Certificate Ready'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the certificate in its secret has expired',
    fix: `${STATUS} names why it was not renewed; once that is fixed, ${RENEW} issues it at once.`,
  },
  {
    reason: 'ManuallyTriggered',
    sites: ['Certificate Issuing'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'an issuance was asked for by hand (cloudgate renew, cmctl renew)',
    fix: NOTHING,
  },
  {
    reason: 'WindowError',
    sites: ['Certificate Ready', 'Certificate event'],
    releases: ['1.21'],
    verdict: 'broken',
    cause:
      "cert-manager cannot compute the renewal time from the Certificate's renewal settings (renewBefore, renewBeforePercentage, its renewal window)",
    fix: "Correct the Certificate's renewal settings; cert-manager renews it regardless of the window meanwhile.",
  },
  {
    reason: 'ARIError',
    sites: ['Certificate event'],
    releases: ['1.21'],
    verdict: 'transient',
    cause:
      "cert-manager could not fetch the ACME CA's renewal information (ARI): it renews by the Certificate's own schedule meanwhile",
    fix: 'Nothing, unless it stays: then check that cert-manager reaches the ACME server (cloudgate doctor --only acme).',
  },
  {
    reason: 'Disabled',
    sites: ['Certificate Ready'],
    releases: ['1.21'],
    verdict: 'broken',
    cause: "the Certificate's renewal policy is Disabled: cert-manager will not renew it",
    fix: 'Remove spec.renewal.policy: Disabled unless the certificate is renewed another way.',
  },
  // The issuing controller copies a failed request's reason onto Issuing (False), with its message.
  {
    reason: 'Failed',
    sites: ['Certificate Issuing', 'CertificateRequest Ready', 'Challenge event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the issuance failed; the request's message says why",
    fix: `Fix what the message names; cert-manager retries after its back-off (1 hour, doubling up to 32 hours), ${RENEW} at once.`,
  },
  {
    reason: 'Denied',
    sites: ['CertificateRequest Ready'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'an approver denied the request',
    fix: "Allow the request in the approver's policy (a CertificateRequestPolicy for this issuer, bound to cert-manager's service account) or change the Certificate; then cloudgate renew {certificate}.",
  },
  {
    reason: 'Pending',
    sites: ['CertificateRequest Ready'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the request waits for its issuer; its message says what for',
    fix: NOTHING,
  },
  // --- Certificate events (key manager, request manager, issuing) ---------------------------------------
  {
    reason: 'Issuing',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager started an issuance, or stored the issued certificate',
    fix: NOTHING,
  },
  {
    reason: 'Generated',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager made a new private key for the next certificate',
    fix: NOTHING,
  },
  {
    reason: 'Reused',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager reuses the private key of the existing secret',
    fix: NOTHING,
  },
  {
    reason: 'Deleted',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'transient',
    cause: "cert-manager discarded a key it had prepared, because the Certificate's key settings changed",
    fix: NOTHING,
  },
  {
    reason: 'DecodeFailed',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the private key in the secret could not be read: cert-manager makes a new one',
    fix: NOTHING,
  },
  {
    reason: 'CannotRegenerateKey',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'broken',
    cause:
      'the key in the secret does not fit the Certificate and its rotationPolicy is Never, so cert-manager will not make a new one',
    fix: "Set privateKey.rotationPolicy: Always on the Certificate, or delete the secret's tls.key so a new key is made.",
  },
  {
    reason: 'Requested',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager created the CertificateRequest of the next revision',
    fix: NOTHING,
  },
  {
    reason: 'RequestFailed',
    sites: ['Certificate event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'cert-manager could not create the CertificateRequest (the API server or a webhook refused it)',
    fix: "Read the event's message; kube.webhook says whether cert-manager's webhook answers.",
  },
  {
    reason: 'KeystorePasswordSecretNotFound',
    sites: ['Certificate event'],
    releases: ['1.21'],
    verdict: 'broken',
    cause: 'the Secret with the JKS or PKCS#12 keystore password does not exist',
    fix: "Create the password Secret the Certificate's keystores section names, or remove the keystore.",
  },
  // --- CertificateRequest: approval, the generic controller, each issuer's signing --------------------------
  {
    reason: 'cert-manager.io',
    sites: ['CertificateRequest Approved', 'CertificateRequest event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: "cert-manager's own approver approved the request",
    fix: '',
  },
  {
    reason: 'WaitingForApproval',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the request waits for an approver',
    fix: 'If it stays: cert-manager\'s own approver is off here; add a policy that approves requests for this issuer, or approve it with "cmctl approve".',
  },
  {
    reason: 'IssuerNotFound',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the issuer the request names does not exist',
    fix: "Create the issuer or correct the Certificate's issuerRef (for the platform's ingresses: the cert-manager.io/cluster-issuer annotation).",
  },
  {
    reason: 'IssuerTypeMissing',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the issuer names no type (acme, ca, selfSigned, venafi, vault)',
    fix: "Give {issuer} its type: deploying the inventory restores the platform's.",
  },
  {
    reason: 'IssuerNotReady',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the issuer is not Ready: the request waits for it',
    fix: 'See why the issuer is not Ready (kube.issuer, kube.issuers).',
  },
  {
    reason: 'DecodeError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the issuer returned a certificate cert-manager cannot read',
    fix: 'Check {issuer}; cert-manager retries after its back-off.',
  },
  {
    reason: 'CertificateIssued',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the issuer signed the request',
    fix: '',
  },
  {
    reason: 'RequestParsingError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the request's CSR cannot be read",
    fix: `cert-manager makes a new request after its back-off; ${RENEW} at once.`,
  },
  {
    reason: 'InvalidOrder',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the Certificate's commonName is not among its dnsNames, which ACME requires",
    fix: "Add the commonName to dnsNames (or drop it); for the platform's ingresses, the host must be in the ingress's tls hosts.",
  },
  {
    reason: 'OrderBuildingError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'cert-manager could not build the ACME order from the request',
    fix: 'Read the message; fix the Certificate it names.',
  },
  {
    reason: 'OrderCreatingError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager could not create the Order object (the API server or a webhook refused it)',
    fix: 'Nothing unless it stays: then see kube.webhook.',
  },
  {
    reason: 'OrderCreated',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager created the ACME Order of the request',
    fix: NOTHING,
  },
  {
    reason: 'OrderGetError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager could not read the Order of the request',
    fix: NOTHING,
  },
  {
    reason: 'OrderFailed',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the ACME order failed; its reason says why',
    fix: "See the Order's reason; cert-manager starts a new order after its back-off.",
  },
  {
    reason: 'OrderPending',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the request waits for its ACME order',
    fix: NOTHING,
  },
  {
    reason: 'SecretMissing',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the Secret the issuer needs (the CA's key pair, or the Venafi credentials) does not exist",
    fix: "Create it: deploying the inventory makes the platform's; see kube.issuer.",
  },
  {
    reason: 'SecretInvalidData',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the CA issuer's Secret holds a certificate or key cert-manager cannot read",
    fix: 'Put the CA certificate (PEM) in tls.crt and its key in tls.key.',
    messages: CA_SECRET_CASES,
  },
  {
    reason: 'SecretGetError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: "cert-manager could not read the CA issuer's Secret (the API server did not answer)",
    fix: NOTHING,
  },
  {
    reason: 'SigningError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the CA issuer could not sign the request',
    fix: 'Read the message and fix the CA Secret it names.',
    messages: [
      {
        code: 'ca-key-mismatch',
        test: /provided PrivateKey doesn't match parent's PublicKey/,
        cause: "the CA Secret's tls.key is not the key of its tls.crt, so the CA issuer cannot sign",
        fix: "Put the CA certificate's own key in tls.key (for the platform's CA: cluster_issuer_ca_private_key must be the key of the first certificate of cluster_issuer_ca_certificate; cloudgate doctor --only certificate checks the pair).",
      },
    ],
  },
  {
    reason: 'MissingAnnotation',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause:
      'a self-signed request lacks the annotation naming its private key Secret (made by hand, not by a Certificate)',
    fix: 'Issue self-signed certificates through a Certificate, not a bare CertificateRequest.',
  },
  {
    reason: 'MissingSecret',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'the private key Secret of a self-signed request does not exist yet',
    fix: NOTHING,
  },
  {
    reason: 'ErrorParsingKey',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the private key of a self-signed request cannot be read',
    fix: RENEW,
  },
  {
    reason: 'ErrorGettingSecret',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager could not read the private key Secret',
    fix: NOTHING,
  },
  {
    reason: 'ErrorGenerating',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'cert-manager could not build the certificate from the request',
    fix: 'Read the message; fix the Certificate it names.',
  },
  {
    reason: 'BadConfig',
    sites: ['CertificateRequest event', 'Ingress event'],
    releases: BOTH,
    verdict: 'broken',
    cause:
      'a self-signed certificate with an empty subject, or an ingress whose cert-manager annotations cannot be used',
    fix: 'For a self-signed CA set a commonName; for an ingress, correct its cert-manager.io annotations (the platform sets cert-manager.io/cluster-issuer).',
  },
  {
    reason: 'ErrorPublicKey',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the public key of a self-signed request cannot be derived from its private key',
    fix: RENEW,
  },
  {
    reason: 'ErrorKeyMatch',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause:
      'the private key Secret of a self-signed request no longer matches its CSR: cert-manager makes a new request',
    fix: NOTHING,
  },
  {
    reason: 'ErrorSigning',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the self-signed issuer could not sign',
    fix: 'Read the message and the controller log.',
  },
  {
    reason: 'VenafiInitError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the Venafi issuer could not connect to TPP for this request',
    fix: "See kube.issuer: the issuer's own reason says why.",
  },
  {
    reason: 'CustomFieldsError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the venafi.cert-manager.io/custom-fields annotation is not valid, or TPP refused those fields',
    fix: 'Correct the custom fields annotation of the Certificate.',
  },
  {
    reason: 'RequestError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "TPP refused the certificate request (the zone's policy: subject fields, key size, names)",
    fix: 'Set what the zone enforces with atmosphere_ingress_annotations (cert-manager.io/subject-organizations, ...), or ask the TPP administrator to allow it.',
  },
  {
    reason: 'IssuancePending',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'TPP has the request and has not issued it yet (it may wait for an approval in TPP)',
    fix: 'Nothing, unless it stays: then ask the TPP administrator whether the request waits for approval.',
  },
  {
    reason: 'RetrieveError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'TPP refused to hand out the issued certificate',
    fix: 'Read the message; the TPP administrator sees the request in the zone.',
  },
  {
    reason: 'ParseError',
    sites: ['CertificateRequest event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'TPP returned a certificate chain cert-manager cannot read',
    fix: "Ask the TPP administrator about the zone's certificate template.",
  },
  // --- Issuers and ClusterIssuers: Ready, and the events of their setup -------------------------------------
  {
    reason: 'ACMEAccountRegistered',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the ACME account is registered with the ACME server',
    fix: '',
  },
  {
    reason: 'ACMEAccountVerified',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the ACME account was verified with the ACME server',
    fix: '',
  },
  {
    reason: 'ErrRegisterACMEAccount',
    sites: ['Issuer Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'cert-manager could not register the ACME account',
    fix: 'Check cluster_issuer_acme_email and cluster_issuer_acme_server (cloudgate doctor --only acme) and, for a private ACME CA, cluster_issuer_acme_private_ca and the CA on the nodes.',
  },
  {
    reason: 'ErrVerifyACMEAccount',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'broken',
    cause:
      'the ACME account key in its Secret cannot be used (unreadable, not RSA, or missing while key generation is off)',
    fix: 'Delete the account key Secret (cluster_issuer_acme_private_key_secret_name, default cert-manager-issuer-account-key, in cert-manager) so cert-manager makes and registers a new one.',
  },
  {
    reason: 'ErrUpdateACMEAccount',
    sites: ['Issuer Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the ACME server refused to update the account's email",
    fix: 'Check cluster_issuer_acme_email.',
  },
  {
    reason: 'InvalidConfig',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the ACME server is an ACME v1 endpoint, which no longer works',
    fix: 'Set cluster_issuer_acme_server to the v2 directory the message names and deploy.',
  },
  {
    reason: 'InvalidURL',
    sites: ['Issuer Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the ACME server or account URL cannot be parsed',
    fix: 'Correct cluster_issuer_acme_server and deploy.',
  },
  {
    reason: 'InvalidSolver',
    sites: ['Issuer Ready'],
    releases: ['1.21'],
    verdict: 'broken',
    cause:
      "a DNS-01 solver's credentials Secret does not exist in cert-manager's namespace or lacks the key the solver names",
    fix: "Deploy the inventory (the platform creates the solver's Secret, e.g. cert-manager-issuer-route53-credentials), or correct the Secret's name and keys.",
  },
  {
    reason: 'KeyPairVerified',
    sites: ['Issuer Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: "the CA's Secret holds a CA certificate and its key",
    fix: '',
  },
  {
    reason: 'ErrGetKeyPair',
    sites: ['Issuer Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "cert-manager cannot read the CA issuer's Secret",
    fix: 'Create the CA Secret with tls.crt and tls.key.',
    messages: CA_SECRET_CASES,
  },
  {
    reason: 'ErrInvalidKeyPair',
    sites: ['Issuer Ready', 'Issuer event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "the CA issuer's certificate is not a CA certificate (no basicConstraints CA:TRUE), so it cannot sign",
    fix: "Give the CA issuer a CA certificate: for the platform's CA, cluster_issuer_ca_certificate must start with the CA that signs (not a server certificate); cloudgate doctor --only certificate checks it.",
  },
  {
    reason: 'IsReady',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the self-signed issuer is ready',
    fix: '',
  },
  {
    reason: 'Venafi issuer started',
    sites: ['Issuer Ready'],
    releases: ['1.15'],
    verdict: 'healthy',
    cause: 'the Venafi issuer reached TPP and its credentials were accepted',
    fix: '',
  },
  {
    reason: 'Certificate Manager issuer started',
    sites: ['Issuer Ready'],
    releases: ['1.21'],
    verdict: 'healthy',
    cause: 'the Venafi issuer reached TPP and its credentials were accepted',
    fix: '',
  },
  {
    reason: 'ErrorSetup',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the Venafi issuer could not be set up',
    fix: 'Read the message; check cluster_issuer_venafi_tpp_url, cluster_issuer_venafi_zone and the credentials.',
    // 1.15 sets ErrorSetup for every failure, a refused credential included; 1.21 says AuthFailed for those.
    messages: [
      {
        code: 'venafi-secret-missing',
        test: /secrets? "[^"]*" not found|could not access secret/,
        cause: 'the Venafi credentials Secret does not exist',
        fix: 'Set cluster_issuer_venafi_access_token (or _username and _password) and deploy: the platform creates Secret cert-manager/cert-manager-venafi-credentials only then.',
      },
      {
        code: 'venafi-no-credentials',
        test: /credentials not configured|neither (?:tppClient|ngtsClient)|no TPP credentials configured/,
        cause: 'the Venafi credentials Secret holds neither an access token nor a username and password',
        fix: 'Set cluster_issuer_venafi_access_token (or _username and _password, not both kinds) and deploy: the platform writes no Secret when both or neither are set.',
      },
      {
        code: 'venafi-ca-bundle',
        test: /error creating (?:Venafi|vcert) client/,
        cause: 'the TPP CA bundle of the Venafi issuer cannot be read',
        fix: 'Set cluster_issuer_venafi_tpp_ca_bundle to the PEM of the CA that signed the TPP server (the platform passes it as written, but the ClusterIssuer needs it base64-encoded: cloudgate doctor --only inventory says so).',
      },
      {
        code: 'venafi-unreachable',
        test: /x509|certificate signed by unknown authority|no such host|connection refused|timeout|i\/o timeout|error pinging/i,
        cause: 'cert-manager cannot reach TPP (address, network, or a TLS certificate it does not trust)',
        fix: 'Check cluster_issuer_venafi_tpp_url from inside the cluster and that cluster_issuer_venafi_tpp_ca_bundle is the CA of the TPP server.',
      },
      {
        code: 'venafi-token-refused',
        test: /tppClient\.(?:VerifyAccessToken|GetRefreshToken)|access token|token (?:is )?(?:expired|revoked|invalid)|401/i,
        cause: "TPP refused the Venafi issuer's access token (expired, revoked, or for another client)",
        fix: 'Get a new access token for the zone (scope certificate:manage) and set cluster_issuer_venafi_access_token, then deploy: it updates Secret cert-manager/cert-manager-venafi-credentials.',
      },
      {
        code: 'venafi-password-refused',
        test: /tppClient\.Authenticate/,
        cause: "TPP refused the Venafi issuer's username and password",
        fix: 'Check cluster_issuer_venafi_username and cluster_issuer_venafi_password, or change to an access token (cluster_issuer_venafi_access_token, recommended), then deploy.',
      },
    ],
  },
  {
    reason: 'AuthFailed',
    sites: ['Issuer Ready'],
    releases: ['1.21'],
    verdict: 'broken',
    cause: "TPP refused the Venafi issuer's credentials",
    fix: 'Get a new access token (scope certificate:manage) and set cluster_issuer_venafi_access_token, or check cluster_issuer_venafi_username and _password; then deploy.',
    messages: [
      {
        code: 'venafi-no-credentials',
        test: /credentials not configured|no TPP credentials configured/,
        cause: 'the Venafi credentials Secret holds neither an access token nor a username and password',
        fix: 'Set cluster_issuer_venafi_access_token (or _username and _password, not both kinds) and deploy.',
      },
    ],
  },
  {
    reason: 'ErrInitIssuer',
    sites: ['Issuer event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'cert-manager could not set up the issuer',
    fix: "Read the event's message and the controller log.",
  },
  {
    reason: 'VaultVerified',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the Vault issuer reached Vault (the platform makes no Vault issuer)',
    fix: '',
  },
  {
    reason: 'VaultError',
    sites: ['Issuer Ready'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'the Vault issuer is misconfigured or cannot reach Vault (the platform makes no Vault issuer)',
    fix: "Read the message; fix the Vault issuer's server, path and authentication.",
  },
  // --- ACME Orders and Challenges: events (their state and reason are read by acme-problems.ts) ---------------
  {
    reason: 'Created',
    sites: ['Order event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager created a Challenge for a name of the order',
    fix: NOTHING,
  },
  {
    reason: 'Solver',
    sites: ['Order event'],
    releases: BOTH,
    verdict: 'broken',
    cause: "no solver of the issuer can validate the order's names, so the order never gets a Challenge",
    fix: "An HTTP-01 solver cannot validate a wildcard (*.domain): for openstack_helm_ingress_wildcard_domain choose a DNS-01 solver (cluster_issuer_acme_solver: route53, cloudflare, rfc2136, ...) and deploy; otherwise the solvers' selectors (dnsZones, dnsNames) must match the names.",
  },
  {
    reason: 'Complete',
    sites: ['Order event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the order completed and the certificate was fetched',
    fix: '',
  },
  {
    reason: 'Started',
    sites: ['Challenge event'],
    releases: BOTH,
    verdict: 'transient',
    cause: 'cert-manager scheduled the challenge',
    fix: NOTHING,
  },
  {
    reason: 'Presented',
    sites: ['Challenge event'],
    releases: BOTH,
    verdict: 'transient',
    cause: "cert-manager presented the challenge (the solver's ingress or the TXT record)",
    fix: NOTHING,
  },
  {
    reason: 'PresentError',
    sites: ['Challenge event'],
    releases: BOTH,
    verdict: 'broken',
    cause: 'cert-manager could not present the challenge; the message says why',
    fix: "See the challenge's reason.",
  },
  {
    reason: 'CleanUpError',
    sites: ['Challenge event'],
    releases: BOTH,
    verdict: 'transient',
    cause: "cert-manager could not remove the challenge's record or solver; it tries again",
    fix: "Nothing, unless it stays: then check the DNS provider's credentials (cloudgate doctor --only acme).",
  },
  {
    reason: 'DomainVerified',
    sites: ['Challenge event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'the ACME CA validated the name',
    fix: '',
  },
  // --- The ingress shim: the Certificates the platform's annotated ingresses make --------------------------
  {
    reason: 'CreateCertificate',
    sites: ['Ingress event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'cert-manager created the Certificate of the ingress',
    fix: '',
  },
  {
    reason: 'UpdateCertificate',
    sites: ['Ingress event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'cert-manager updated the Certificate of the ingress',
    fix: '',
  },
  {
    reason: 'DeleteCertificate',
    sites: ['Ingress event'],
    releases: BOTH,
    verdict: 'healthy',
    cause: 'cert-manager deleted a Certificate the ingress no longer needs',
    fix: '',
  },
];

/**
 * A CertificateRequest's Ready message, traced back to the event reason cert-manager sent with it (the
 * reporter writes the same message to both; events expire after an hour, the condition stays). The same
 * words come from the CA and the self-signed issuer with different reasons: `mechanism` tells them apart.
 */
const REQUEST_MESSAGES: readonly [reason: string, test: RegExp, mechanism?: string][] = [
  ['IssuerNotFound', /^Referenced "(?:ClusterIssuer|Issuer)" not found/],
  ['IssuerTypeMissing', /^Missing issuer type/],
  ['IssuerNotReady', /^Referenced issuer does not have a Ready status condition/],
  ['DecodeError', /^Failed to decode returned certificate/],
  ['RequestParsingError', /^Failed to decode CSR in spec\.request/],
  ['InvalidOrder', /^The CSR PEM requests a commonName that is not present/],
  ['OrderBuildingError', /^Failed to build order/],
  ['OrderCreatingError', /^Failed create new order resource/],
  ['OrderCreated', /^Created Order resource/],
  ['OrderGetError', /^Failed to get order resource/],
  ['OrderFailed', /^Failed to wait for order resource/],
  ['OrderPending', /^Waiting (?:on certificate issuance from order|for order-controller)/],
  ['MissingSecret', /^Referenced secret \S+ not found/, 'selfSigned'],
  ['SecretMissing', /^(?:Referenced secret \S+ not found|Required secret resource not found)/],
  ['SecretInvalidData', /^Failed to parse signing CA keypair from secret/],
  ['ErrorGettingSecret', /^Failed to get certificate key pair from secret/, 'selfSigned'],
  ['SecretGetError', /^Failed to get certificate key pair from secret/],
  ['MissingAnnotation', /^Annotation "[^"]*" missing or reference empty/],
  ['ErrorParsingKey', /^Failed to get key "[^"]*" referenced in annotation/],
  ['ErrorPublicKey', /^Failed to get public key from private key/],
  ['ErrorGenerating', /^Error generating certificate template/, 'selfSigned'],
  ['ErrorSigning', /^Error signing certificate/, 'selfSigned'],
  ['SigningError', /^Error (?:generating certificate template|signing certificate)/],
  ['VenafiInitError', /^Failed to initialise venafi client for signing/],
  ['CustomFieldsError', /^Failed to parse "venafi\.cert-manager\.io\/custom-fields" annotation/],
  ['RequestError', /^Failed to request venafi certificate/],
  [
    'IssuancePending',
    /^(?:Venafi certificate is requested|certificate is requested|Venafi certificate still in a pending state)/,
  ],
  ['RetrieveError', /^Failed to obtain venafi certificate/],
  ['ParseError', /^Failed to parse returned certificate bundle/],
];

/** The event reason behind a CertificateRequest's Ready message, when its words say it. */
export function requestReasonOf(message: string | undefined, mechanism?: string): string | undefined {
  if (!message) return undefined;
  return REQUEST_MESSAGES.find(([, test, only]) => (!only || only === mechanism) && test.test(message))?.[0];
}

const BY_REASON = new Map<string, ReasonRow[]>();
for (const row of REASONS) BY_REASON.set(row.reason, [...(BY_REASON.get(row.reason) ?? []), row]);

/** What a reason (with its message) means, in cloudgate's words. */
export interface Explanation {
  /** The reason is in the table (for this site, or another one). */
  known: boolean;
  reason: string;
  /** The message case that told the cause, or the reason itself. */
  code: string;
  verdict: ReasonVerdict;
  cause: string;
  fix: string;
  releases: readonly CmRelease[];
}

/**
 * The reason `reason` cert-manager wrote at `site`, told apart by `message`. A reason the table does
 * not hold is said as unknown, with the message, and the fix of reading the object: never another
 * reason's advice.
 */
export function explainReason(site: ReasonSite, reason: string | undefined, message = ''): Explanation {
  const given = reason ?? '';
  const rows = BY_REASON.get(given) ?? [];
  const row = rows.find((r) => r.sites.includes(site)) ?? rows[0];
  if (!row) {
    return {
      known: false,
      reason: given,
      code: 'unknown',
      verdict: 'broken',
      releases: [],
      cause: `cert-manager gave the reason "${given || '(none)'}", which is not one cert-manager ${CM_RELEASES.join(' or ')} sets there: its message says what it means`,
      fix: `Read the message${message ? '' : ' (none was given)'} and the events of ${site.startsWith('Issuer') ? '{issuer} ("kubectl describe" it)' : `the Certificate (${STATUS})`}; the reason may come from another controller (an external issuer or approver).`,
    };
  }
  const match = row.messages?.find((m) => m.test.test(message));
  return match
    ? {
        known: true,
        reason: given,
        code: match.code,
        verdict: match.verdict ?? row.verdict,
        cause: match.cause,
        fix: match.fix,
        releases: row.releases,
      }
    : {
        known: true,
        reason: given,
        code: given,
        verdict: row.verdict,
        cause: row.cause,
        fix: row.fix,
        releases: row.releases,
      };
}

/**
 * A cause or fix with the objects it speaks of: `{certificate}` NAMESPACE/NAME, `{issuer}` Kind name,
 * `{secret}`, `{dnsName}`, `{retryAt}`, `{ingressClass}`; a placeholder without a value gets a generic word.
 */
export function fillIn(text: string, values: Partial<Record<Placeholder, string>>): string {
  return text.replace(
    /\{(certificate|issuer|secret|dnsName|retryAt|ingressClass)\}/g,
    (_, key: Placeholder) => values[key] ?? GENERIC[key],
  );
}

export type Placeholder = 'certificate' | 'issuer' | 'secret' | 'dnsName' | 'retryAt' | 'ingressClass';
const GENERIC: Record<Placeholder, string> = {
  certificate: 'NAMESPACE/NAME',
  issuer: 'the issuer',
  secret: 'the secret',
  dnsName: 'the name',
  retryAt: "the time the CA's message gives",
  ingressClass: "the solver's ingress class",
};
