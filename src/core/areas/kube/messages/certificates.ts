/**
 * The kube group's words about Certificates and the secrets that hold them: the platform's Certificates
 * and why their issuance is stuck, the supplied wildcard's copies, the ingresses' TLS secrets, and
 * what "cloudgate renew" did.
 */

export const CERTIFICATES = {
  platformIssuerMissing: (issuer: string) =>
    `The platform's ClusterIssuer ${issuer} is missing: deploy the inventory (kube.issuer says the same).`,
  wrongIssuerKind: (certificate: string, kind: string, annotation: string, ref: string) =>
    `${certificate} names the wrong kind of issuer: its issuerRef.kind must be ${kind} (for an ingress, the annotation ${annotation} names that kind), or create ${ref}.`,
  noneAsExpected: (where: string) => `No Certificate in ${where}, as expected with a supplied wildcard (issuer none).`,
  none: (where: string) => `No Certificate in ${where}.`,
  notDeployed:
    'The platform has not been deployed with this inventory yet, or its ingresses lack the cert-manager annotation.',
  renewing: (names: string) => `; cert-manager is renewing ${names}`,
  allReady: (count: number, where: string, note: string) =>
    `All ${count} Certificates in ${where} are Ready and their secrets hold valid certificates with their keys${note}.`,
  notReady: (bad: number, count: number, where: string, lines: string) =>
    `${bad} of ${count} Certificates in ${where} are not Ready or not current: ${lines}.`,
  askedForMissingClusterIssuer: (certificate: string, ref: string, platformIssuer: string) =>
    `${certificate} asks for ${ref}, which does not exist (the platform's issuer is ${platformIssuer}): correct the cert-manager.io/cluster-issuer annotation of the ingress that made it, or the Certificate's issuerRef.`,
  askedForMissingIssuer: (certificate: string, ref: string) =>
    `${certificate} asks for ${ref}, which does not exist in its namespace: create it (the platform's namespaced CA issuers come with their roles: octavia, libvirt) or correct the Certificate's issuerRef.`,
  controllerDown: "cert-manager's controller is not running (kube.cert-manager says why).",
  readControllerLog: (name: string) =>
    `cert-manager's controller has not processed it: read its log (kubectl logs -n cert-manager deploy/cert-manager) for ${name}.`,
  issuingReplaces: 'Nothing to do: cert-manager is issuing it and replaces the secret when done.',
  shouldBeIssuing: (name: string) =>
    `cert-manager should be issuing it: cloudgate status certificate ${name} shows its state and events; read the cert-manager controller log.`,
  controllerDownIssuesAgain:
    "cert-manager's controller is not running (kube.cert-manager): once it runs it issues the secret again.",
  reissuesMissingSecret: (name: string) =>
    `cert-manager re-issues a missing secret by itself; if it does not, read its controller log (cloudgate renew ${name} starts it).`,
  controllerDownReissues:
    "cert-manager's controller is not running (kube.cert-manager): it re-issues the secret once it runs.",
  hasNotNoticed: (name: string, secret: string | undefined) =>
    `cert-manager has not noticed: cloudgate renew ${name} makes it issue the secret again (cloudgate inspect secret ${secret} shows what it holds); if nothing changes read its controller log.`,
  startRenewal: (name: string) =>
    `Read the cert-manager controller log; cloudgate renew ${name} starts the renewal at once.`,
} as const;

/** Why the issuance of a Certificate is stuck; `{certificate}` is filled in with its namespace/name. */
export const ISSUANCE = {
  inProgress: 'Nothing: cert-manager is working on it.',
  readPresentError:
    "cert-manager's message is all it says about this one: read it, the challenge's events (cloudgate status certificate {certificate}) and the controller log (kubectl logs -n cert-manager deploy/cert-manager).",
  challengeStalled:
    'cert-manager has not finished it in an hour: read its events and the controller log (cloudgate status certificate {certificate}).',
  fixInvalidRequest:
    "Fix what the message names in the Certificate (names, usages, issuerRef; for the platform's ingresses the subject annotations in atmosphere_ingress_annotations), then cloudgate renew {certificate}.",
  issuerHasNotSigned:
    "The issuer has not signed it yet: cert-manager keeps asking; if it stays so, read the issuer's state (kube.issuer, kube.issuers) and the cert-manager controller log.",
  readChallengeThenRenew:
    "cert-manager's message is all it says (read it and the challenge's events: cloudgate status certificate {certificate}); it starts a new order after its back-off, cloudgate renew {certificate} at once.",
  readOrderThenRenew:
    "cert-manager's message is all it says: read it and the order's events (cloudgate status certificate {certificate}). It starts a new order after its back-off; cloudgate renew {certificate} at once.",
  findUnmatchedSolver:
    'Read the order with cloudgate status certificate {certificate} and the controller log (kubectl logs -n cert-manager deploy/cert-manager): a solver that matches no name is the usual cause.',
  approveRequests:
    'cert-manager\'s own approver is disabled here (an approver such as approver-policy replaces it): add a policy that approves requests for this issuer (a CertificateRequestPolicy bound to cert-manager\'s service account), or approve it by hand with "cmctl approve".',
} as const;

/** Where the issuance of a Certificate stands: the step that is stuck, in one line (values already escaped). */
export const STUCK = {
  minutes: (count: number) => `${count} minutes`,
  problem: (cause: string, retry: string | undefined, said: string) =>
    `${cause}${retry ? `, until ${retry}` : ''}: ${said}`,
  reason: (cause: string, said: string) => `${cause}${said ? ` (${said})` : ''}`,
  selfCheckGot: (code: string) => `self-check got HTTP ${code}`,
  lastingFor: (summary: string, duration: string) => `${summary} (for ${duration})`,
  challengeFailed: (name: string, state: string, reason: string) =>
    `the challenge for ${name} is ${state}: ${reason || 'no reason given'}`,
  cannotPresent: (type: string, name: string, said: string) =>
    `cert-manager could not present the ${type ? `${type} ` : ''}challenge for ${name}: ${said}`,
  challengeWaits: (name: string, state: string, processing: boolean, reason: string) =>
    `the challenge for ${name} is ${state || 'pending'}${processing ? ' (processing)' : ''}${reason ? `: ${reason}` : ''}`,
  stalledFor: (waiting: string, duration: string) => `${waiting}, for ${duration}`,
  orderFailed: (state: string, reason: string) =>
    `the order is ${state}${reason ? `: ${reason}` : ' (no challenge or reason says why)'}`,
  orderWithoutChallenge: (duration: string) =>
    `the order has had no Challenge for ${duration}, and no event says why (events last an hour)`,
  orderPending: 'the order waits for cert-manager to create its challenges',
  requestSaid: (reason: string, message: string) => `${reason || 'no reason'}${message ? `: ${message}` : ''}`,
  requestPending: (said: string | undefined, hasOrder: boolean) =>
    `the request is approved and waits for the issuer (${said ?? 'no Ready condition yet'})${hasOrder ? '' : '; no Order yet'}`,
  denied: (cause: string, reason: string, message: string) => `${cause} (${reason}${message ? `: ${message}` : ''})`,
  invalid: (cause: string | undefined, reason: string, message: string) =>
    `the issuer refused the request as invalid${cause !== undefined ? `: ${cause}` : ''} (${reason}${message ? `: ${message}` : ''})`,
  notApproved: (waited: string | undefined) =>
    `the request waits for approval: no approver has approved or denied it${waited ? ` in ${waited}` : ''}`,
} as const;

export const SUPPLIED_WILDCARD = {
  notTls: (type: string) => `it is of type ${type}, not kubernetes.io/tls, so the ingress controller ignores it`,
  missing: "it does not exist, so the ingresses there get the ingress controller's default certificate",
  doesNotCover: (names: string, domain: string) => `its certificate (${names}) does not cover *.${domain}`,
  noDnsName: 'no DNS name',
  expiresSoon: (days: number, notAfter: string) => `its certificate expires in ${days} days (${notAfter})`,
  otherCertificate: (original: string, thereNotAfter: string, hereNotAfter: string) =>
    `it holds another certificate than ${original} (notAfter ${thereNotAfter} there, ${hereNotAfter} here)`,
  valid: (secret: string, where: string, covers: string) =>
    `The supplied wildcard ${secret} in ${where}: each copy is a TLS secret whose certificate covers ${covers}, is valid and has its key.`,
  itsNames: 'its names',
  problems: (findings: string) => `The supplied wildcard: ${findings}.`,
  replaceEachCopy: (secret: string) =>
    `The platform never renews or copies a supplied wildcard: put the current certificate and its key in each namespace (kubectl create secret tls ${secret} -n NAMESPACE --cert=FULLCHAIN.pem --key=KEY.pem --dry-run=client -o yaml | kubectl apply -f -), or apply the manifests "cloudgate setup" wrote for each namespace.`,
} as const;

export const INGRESS_SECRETS = {
  noIngress: (where: string) => `No ingress in ${where}.`,
  notDeployed:
    'The platform has not been deployed with this inventory yet, or this context is another cluster (--context).',
  allValid: (count: number, where: string) =>
    `${count} ingresses in ${where}: every TLS secret exists, is kubernetes.io/tls and covers its hosts; no host is claimed twice.`,
  problems: (count: number, ingresses: number, findings: string) =>
    `${count} problem${count === 1 ? '' : 's'} with the TLS secrets of ${ingresses} ingresses: ${findings}.`,
} as const;

/** What "cloudgate renew" did to one Certificate. */
export const RENEW = {
  cannotReread: (error: string) => `cannot read it again: ${error}`,
  alreadyIssuing: (reason: string) => `cert-manager is already issuing it (${reason}): nothing to start`,
  rateLimited: (until: string) =>
    `the ACME CA's rate limit holds until ${until}: a new order now counts against it again. Wait (cert-manager tries again by itself), or give --force`,
  triggered: (certificate: string) => `Manually triggered issuance of Certificate ${certificate}`,
  triggerFailed: (certificate: string, error: string) =>
    `failed to trigger issuance of Certificate ${certificate}: ${error}`,
  kubectlExitCode: (code: number | null) => `kubectl exit code ${code}`,
} as const;

/** What is wrong with one Certificate (its summary), and the parts of a summary. */
export const CERTIFICATE = {
  issuerMissing: (ref: string) => `its issuer ${ref} does not exist`,
  otherKindExists: (ref: string, otherKind: string) => `it names ${ref}, which does not exist, but ${otherKind} does`,
  expired: (secret: string | undefined, notAfter: string | undefined, then: string) =>
    `its certificate (secret ${secret}) expired on ${notAfter}; ${then}`.replace(/; $/, ''),
  stale: (observed: unknown, generation: unknown) =>
    `its Ready condition is of generation ${observed}, the Certificate is at ${generation}: cert-manager has not looked at the change`,
  issuerNotReady: (ref: string, check: string) => `its issuer ${ref} is not Ready (${check} says why)`,
  atObject: (object: string, summary: string, extra: string) => `${object}: ${summary}${extra}`,
  otherIssuer: ' (its secret was issued by another issuer)',
  byHand: ' (asked for by hand)',
  aRenewal: ' (a renewal)',
  issuing: (why: string, walk: string) => `cert-manager is issuing it${why}${walk}`,
  walkStep: (object: string, summary: string) => `: ${object}: ${summary}`,
  retriesAt: (retryAt: string, attempts: number | undefined, last: string | undefined) =>
    `; cert-manager tries again at ${retryAt} (after ${attempts} failed attempts, the last at ${last})`,
  lastIssuanceFailed: (cause: string, reason: string, message: string, when: string) =>
    `its last issuance failed: ${cause} (${reason}${message ? `: ${message}` : ''})${when}`,
  noReadyCondition: 'no Ready condition yet',
  said: (reason: string | undefined, message: string | undefined) => `${reason}${message ? `: ${message}` : ''}`,
  notReadyNotIssuing: (said: string, cause: string | undefined) =>
    `not Ready (${said}) and cert-manager is not issuing it${cause !== undefined ? `: ${cause}` : ''}`,
  secretMissing: (secret: string) => `it says Ready but its secret ${secret} does not exist`,
  secretProblems: (secret: string | undefined, problems: string) =>
    `it says Ready but the secret ${secret}: ${problems}`,
  renewalNotStarted: (renewalTime: string | undefined) =>
    `its renewal time ${renewalTime} has passed and cert-manager has not started renewing`,
  finding: (who: string, summary: string | undefined) => `${who}: ${summary}`,
  fixFor: (whose: string, advice: string) => `${whose}: ${advice}`,
} as const;

/** What a TLS secret's own certificate and key say, as short phrases ("the secret …: <phrase>"). */
export const SECRET = {
  noTlsCrt: 'holds no tls.crt',
  notPem: (error: string) => `tls.crt is not a PEM certificate (${error})`,
  noCertificate: 'holds no certificate',
  expired: (notAfter: string) => `its certificate expired on ${notAfter}`,
  keyEmpty: 'its tls.key is empty',
  keyMismatch: 'its tls.key does not belong to its certificate',
  keyUnreadable: 'its tls.key is not a readable private key',
  notCovered: (names: string[], uncovered: string[]) =>
    `its certificate (${names.join(', ') || 'no DNS name'}) does not cover ${uncovered.join(', ')}`,
} as const;

/** What is wrong with one ingress's TLS, and the fix (values already escaped; lists already joined). */
export const INGRESS_FINDING = {
  cannotList: (namespace: string, error: string) => `the ingresses of ${namespace} cannot be listed: ${error}`,
  letList: (namespace: string) =>
    `Let this user list ingresses in ${namespace} (kubectl auth can-i list ingresses -n ${namespace}).`,
  noSecretName: (hosts: string) =>
    `its tls entry for ${hosts || 'no host'} names no secretName, so the ingress controller serves its default certificate`,
  setSecretName: 'Set tls[].secretName (the platform names it <service>-certs) and redeploy.',
  issuerOnSupplied: (secret: string, key: string, value: string) =>
    `uses the supplied wildcard secret ${secret} but carries ${key}: ${value}, so cert-manager will replace the operator's certificate in it with one it issues`,
  removeIssuerAnnotation: (ingress: string, namespace: string, key: string, secretName: string) =>
    `Remove the annotation (kubectl annotate ingress ${ingress} -n ${namespace} ${key}-) and the Certificate it made (kubectl delete certificate ${secretName} -n ${namespace}); keep cluster_issuer_type: none so the deployment does not add it again, and put your certificate back if it was replaced.`,
  secretMissing: (secret: string, hosts: string) =>
    `its TLS secret ${secret} does not exist, so ${hosts || 'its hosts'} get the ingress controller's default certificate`,
  copySuppliedHere: (namespace: string, secretName: string) =>
    `Create the supplied wildcard secret in namespace ${namespace} too (a secret is visible only in its own namespace): kubectl create secret tls ${secretName} -n ${namespace} --cert=FULLCHAIN.pem --key=KEY.pem, or apply the manifest "cloudgate setup" wrote with this namespace.`,
  notIssuedYet: (namespace: string, secretName: string) =>
    `cert-manager has not issued it: see why with kube.certificates or "cloudgate status certificate ${namespace}/${secretName}" (the ingress's Certificate is named after its secret).`,
  createOrAnnotate: (issuer: string) =>
    `Create the TLS secret, or annotate the ingress with cert-manager.io/cluster-issuer: ${issuer} so cert-manager issues it.`,
  secretUnreadable: (secret: string, error: string) => `its TLS secret ${secret} cannot be read: ${error}`,
  letGetSecrets: (namespace: string) =>
    `Let this user get secrets in ${namespace} (kubectl auth can-i get secrets -n ${namespace}).`,
  wrongType: (secret: string, type: string) =>
    `its secret ${secret} has type ${type}, not kubernetes.io/tls, so the ingress controller ignores it`,
  recreateAsTls: (secretName: string, namespace: string, issued: boolean) =>
    `Recreate it as a TLS secret: kubectl delete secret ${secretName} -n ${namespace}, then kubectl create secret tls ${secretName} -n ${namespace} --cert=FULLCHAIN.pem --key=KEY.pem${issued ? ' (or let cert-manager issue it again after the delete)' : ''}.`,
  noTlsCrt: (secret: string) => `its secret ${secret} holds no tls.crt`,
  recreateWithTlsCrt:
    'A TLS secret needs tls.crt (certificate, intermediates) and tls.key: recreate it with kubectl create secret tls.',
  recreateWithPem: 'Recreate the secret with a PEM certificate chain in tls.crt.',
  notCovered: (secret: string, names: string | undefined, uncovered: string) =>
    `the certificate in ${secret} (${names !== undefined ? `names ${names}` : 'no DNS subjectAltName'}) does not cover ${uncovered}`,
  putCoveringCertificate: (uncovered: string, secret: string) =>
    `Put a certificate naming ${uncovered} in ${secret} (a wildcard *.domain covers one label, not the domain itself nor deeper names).`,
  deleteForReissue:
    "cert-manager issued it for other names: delete the secret (cloudgate regenerate does it) so cert-manager issues one for the ingress's hosts.",
  leftoverIssuer: (issuer: string, stillUsed: boolean) =>
    `the ClusterIssuer ${issuer} is left over from before while cluster_issuer_type is none${stillUsed ? ', and these ingresses still ask cert-manager to issue from it' : ''}`,
  deleteLeftoverIssuer: (issuer: string) =>
    `The deployment does not delete it: remove the issuer annotation from the ingresses that should use the supplied wildcard, then kubectl delete clusterissuer ${issuer}.`,
  ruleHostWithoutTls: (hosts: string) =>
    `serves ${hosts} (spec.rules) but no tls[].hosts entry names it, so HTTPS there gets the ingress controller's default certificate`,
  addTlsHost: (hosts: string) =>
    `Add ${hosts} to tls[].hosts, or correct the rule's host (the platform takes both from the same host variable: redeploy).`,
  tlsHostWithoutRule: (hosts: string, rules: string) =>
    `names ${hosts} in tls[].hosts but no rule serves it (rules: ${rules})`,
  removeTlsHost: (hosts: string) =>
    `Remove ${hosts} from tls[].hosts or add the rule: cert-manager requests a certificate for every TLS host, and a name nothing serves cannot be validated over HTTP-01.`,
  duplicateHost: (count: number, host: string, secrets: string | undefined) =>
    `${count} ingresses claim the host ${host}${secrets !== undefined ? ` with different TLS secrets (${secrets}); the controller serves only one of them` : ''}`,
  keepOnOneIngress: (host: string) =>
    `Keep ${host} on one ingress: give the other service its own host variable, or delete the stale ingress.`,
  at: (ingress: string, text: string) => `${ingress}: ${text}`,
} as const;
