/** The kube group's words about issuers: the platform's ClusterIssuer, the others, and drift from the inventory. */

export const ISSUER = {
  notReady: (cause: string, said: string) => `it is not Ready: ${cause} (${said})`,
  noCondition: (said: string) =>
    `it has no Ready condition yet${said ? ` (${said})` : ''}: cert-manager has not processed it yet`,
  isReady: (said: string) => `it is Ready (${said})`,
  stale: (readySaid: string, observed: unknown, generation: unknown) =>
    `it says ${readySaid} of generation ${observed}, but it is at generation ${generation}: cert-manager has not looked at its latest change`,
  notProcessedYet:
    "cert-manager's controller has not processed the change yet; if this stays, see kube.cert-manager and the controller log.",
  checkController: 'Check that the cert-manager controller runs (kubectl get pods -n cert-manager; kube.cert-manager).',
  judged: (shown: string, summary: string) => `${shown}: ${summary}.`,
  wrongType: (shown: string, live: string, wanted: string) =>
    `${shown} is Ready but of type ${live}, while the inventory says ${wanted}.`,
  deployThenRegenerate:
    'Deploy the inventory, then run "cloudgate regenerate" so the certificates are issued by the new issuer.',
  ready: (shown: string, live: string, said: string) => `${shown} (${live}) is Ready (${said}).`,
  noKind: "cert-manager's CRDs are not installed: the cluster has no ClusterIssuer kind.",
  installCertManager: 'Install cert-manager (the platform does it first), then deploy the inventory.',
  missing: (name: string) => `The ClusterIssuer "${name}" does not exist.`,
  deployPlatform: 'Deploy the platform with this inventory (cert-manager and its CRDs must be installed first).',
} as const;

export const ISSUERS = {
  allReady: (count: number, list: string) => `${count} issuer${count === 1 ? '' : 's'} Ready: ${list}.`,
  onlyPlatform: "No issuer besides the platform's ClusterIssuer.",
  deploySelfSigned:
    'ClusterIssuer self-signed: deploy the platform (its cluster_issuer role creates it whatever the issuer type).',
  notReady: (count: number, problems: string) =>
    `${count} issuer${count === 1 ? '' : 's'} not Ready or missing: ${problems}.`,
} as const;

export const DRIFT = {
  cannotRead: (what: string, error: string) => `Cannot read ${what}: ${error}`,
  checkSecretAccess: 'Check your access to the cluster (kubectl auth can-i get secrets -n cert-manager).',
  matches: (name: string, names: string) =>
    `The cluster's ClusterIssuer "${name}" and its credential Secrets match what the inventory renders${names}.`,
  absentAsExpected: (name: string) => `No ClusterIssuer "${name}", as the inventory's issuer none expects.`,
  deleteLeftover: (name: string) =>
    `The platform never deletes it with issuer none, and deploying does not either. Once no Certificate uses it any more (kubectl get certificates -A -o wide shows each one's issuer), delete it by hand: kubectl delete clusterissuer ${name}`,
  typeChanged: (live: string, rendered: string | undefined) =>
    `The cluster runs ${live}, the inventory says ${rendered}: `,
  deployThenRegenerate: 'The inventory was changed but not deployed: run the deployment, then "cloudgate regenerate".',
  deployOrRender:
    'Either the inventory changed since the last deployment (run it), or someone edited the cluster by hand (deploying restores the inventory\'s values). "cloudgate render" shows what the inventory makes.',
} as const;
