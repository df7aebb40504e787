/**
 * The kube group's words for the commands that look at one object: "cloudgate status certificate"
 * (STATUS) and "cloudgate inspect secret" (INSPECT). The field labels of the status follow
 * cmctl's; the sentences are here.
 */

export const STATUS = {
  kubectlExitCode: (code: number | null) => `kubectl exit code ${code}`,
  notJson: (command: string) => `kubectl ${command} printed something that is not JSON`,
  cannotReadCertificate: (ref: string, error: string) => `kubectl could not read the Certificate ${ref}: ${error}`,
  noCertificate: (ref: string) => `There is no Certificate ${ref}.`,
  didYouMean: (namespace: string, guess: string) => `Did you mean ${namespace}/${guess}? `,
  certificatesOf: (namespace: string, names: string) => `The Certificates of ${namespace}: ${names}.`,
  howToList:
    '"kubectl get certificates -A" lists them; an ingress with the cert-manager.io/cluster-issuer annotation makes one named after its TLS secret.',
  unknownIngressClass: "(the inventory's ingress class)",
  noEvents: 'Events: none (events last an hour)',
  cannotBeRead: (error: string) => `cannot be read: ${error}`,
  doesNotExist: 'does not exist',
  noConditionYet: 'none yet',
  failedAttempts: (count: number, last: string) => `Failed issuance attempts: ${count}, the last at ${last}`,
  noRequest: 'CertificateRequest: none for the next revision',
  noChallenges: 'Challenges: none',
  fine: 'Ready, current, and its secret holds a valid certificate with its key',
  verdictOk: (summary: string) => `Verdict: ok: ${summary}.`,
  verdict: (status: string, summary: string) => `Verdict: ${status}: ${summary}`,
  stuckAt: (step: string, object: string, reason: string) => `  Stuck at: ${step}, ${object} (${reason})`,
  triesAgain: (at: string) => `  cert-manager tries again at ${at}`,
  fix: (advice: string) => `  Fix: ${advice}`,
} as const;

/** What is wrong with a TLS secret, and its fix (values already escaped). */
export const INSPECT = {
  notTlsType: (where: string, type: string) =>
    `${where} is of type ${type}, not kubernetes.io/tls: an ingress controller ignores it.`,
  recreateAsTls: (name: string, namespace: string) =>
    `Recreate it as a TLS secret: kubectl create secret tls ${name} -n ${namespace} --cert=FULLCHAIN.pem --key=KEY.pem.`,
  putChainInPem: 'Put the certificate chain in PEM (certificate, intermediates, root) into tls.crt.',
  noCertificate: (where: string) => `${where} holds no tls.crt.`,
  tlsSecretNeeds: 'A TLS secret needs tls.crt (certificate, intermediates) and tls.key.',
  outOfOrder: (keyOwner: string | undefined, problems: string, right: string | undefined) =>
    `tls.crt is not in the order certificate, intermediate(s), root${keyOwner !== undefined ? ` (tls.key belongs to ${keyOwner})` : ''}: ${problems}${right ? ` The right order is ${right}.` : ''}`,
  putInOrder:
    'Put the certificate first, then the CA certificates that issued it ("cloudgate setup --fix-order" writes the chain in order for a supplied wildcard); an ingress controller serving this secret sends its own "Fake Certificate" meanwhile.',
  noKey: (where: string) => `${where} holds no tls.key.`,
  putKey: 'Put the private key of the certificate into tls.key.',
  keyUnreadable: (where: string) =>
    `tls.key of ${where} is not a private key cloudgate can read (PKCS#1, SEC 1 or PKCS#8 PEM, unencrypted).`,
  putUnencryptedKey: 'Put the unencrypted private key of the certificate into tls.key.',
  keyOfNone: (where: string) => `tls.key of ${where} belongs to none of the certificates of tls.crt.`,
  putMatchingKey: (first: string) =>
    `Put the private key of ${first} into tls.key, or the certificate issued for this key into tls.crt.`,
  keyOfAnother: (where: string, owner: string) =>
    `tls.key of ${where} belongs to ${owner}, not to the first certificate.`,
  putKeysCertificateFirst:
    'Put the certificate of this key first in tls.crt, or the key of the first certificate in tls.key.',
  expired: (leaf: string, at: string) => `Its certificate ${leaf} expired on ${at}.`,
  askWhyNotRenewed: (namespace: string, certificate: string) =>
    `cert-manager issued it: cloudgate status certificate ${namespace}/${certificate} says why it was not renewed.`,
  replaceSupplied:
    'Put a current certificate and its key in the secret (the platform never renews a supplied certificate).',
  notYetValid: (leaf: string, from: string) => `Its certificate ${leaf} is valid only from ${from}.`,
  checkIssuerClock: 'Check the clock of the machine that issued it.',
  expiresSoon: (leaf: string, days: number, at: string) => `Its certificate ${leaf} expires in ${days} days (${at}).`,
  certManagerRenews: 'cert-manager renews it before then by itself.',
  renewSupplied: 'Renew it before then: the platform never renews a supplied certificate.',
  namesDiffer: (said: string, names: string) =>
    `cert-manager's annotation says the names are ${said || '(none)'}, but the certificate names ${names || 'none'}: the certificate was replaced by hand, or cert-manager has not updated the secret.`,
  renewToReissue: (namespace: string, certificate: string | undefined) =>
    `cloudgate renew ${namespace}/${certificate ?? 'NAME'} makes cert-manager issue it again.`,
  noSecret: (ref: string) => `There is no Secret ${ref}.`,
  howToList: (namespace: string) =>
    `"kubectl get secrets -n ${namespace}" lists them; cert-manager names a Certificate's secret in its spec.secretName.`,
  cannotReadSecret: (ref: string, error: string) => `kubectl could not read the Secret ${ref}: ${error}`,
  keyMatches: 'belongs to the first certificate',
  keyMismatch: 'belongs to none of the certificates',
  keyMissing: 'missing',
  keyUnreadableShort: 'not readable',
  keyBelongsTo: (position: number | undefined) => `belongs to certificate ${position}, not the first`,
  verdictOk: 'Verdict: ok: the certificate is current and its key belongs to it.',
} as const;
