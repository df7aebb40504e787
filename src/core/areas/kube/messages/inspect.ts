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
