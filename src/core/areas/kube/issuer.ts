/** `kube.issuer`: the platform's ClusterIssuer (its name from the inventory) is Ready, of the inventory's type, and current. Pure. */
import type { CheckResult } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { readCondition, type CmObject } from '../../kube/objects.js';
import { liveIssuerType } from '../../setup/regenerate.js';
import { EAB_ADVICE } from './certificate-status.js';

/** Advice per cert-manager reason. */
const ISSUER_ADVICE: Record<string, string> = {
  ErrRegisterACMEAccount: 'cert-manager could not register the ACME account: check cluster_issuer_acme_email, cluster_issuer_acme_server (cloudgate doctor --only acme) and, for a private ACME CA, cluster_issuer_acme_private_ca.',
  ErrGetKeyPair: 'cert-manager cannot read the CA secret: check that it exists in the cert-manager namespace with tls.crt and tls.key (cluster_issuer_ca_certificate / _private_key).',
  ErrInvalidKeyPair: 'The CA secret\'s tls.key does not match its tls.crt: check cluster_issuer_ca_certificate (issuer first) and cluster_issuer_ca_private_key (cloudgate doctor --only certificate).',
  AuthFailed: 'Venafi refused the credentials: check cluster_issuer_venafi_access_token (or username/password) and the zone.',
  ErrorSetup: 'The issuer could not be set up: read the message above and the cert-manager controller log (kubectl logs -n cert-manager deploy/cert-manager).',
  InvalidConfig: 'The issuer\'s configuration is invalid: compare the inventory with "cloudgate doctor --only inventory" and redeploy.',
};
const EAB = /externalAccountRequired|external account binding/i;

/** The judgement of the live ClusterIssuer `name` against the inventory's issuer type. */
export function issuerResult(issuer: CmObject, issuerType: string | undefined, name = 'atmosphere'): CheckResult {
  const ready = readCondition(issuer, 'Ready');
  const liveType = liveIssuerType(issuer);
  const subject = { kind: 'ClusterIssuer', name };
  const details = { name, type: liveType, ready: ready?.status, reason: ready?.reason, message: ready?.message, ...(ready?.stale ? { observedGeneration: ready.observedGeneration, generation: ready.generation } : {}) };
  const said = ready ? `${ready.reason ?? 'no reason'}${ready.message ? `: ${escapeLine(ready.message)}` : ''}` : '';
  const stuck = (reason: string) => ({ step: 'issuer' as const, object: `ClusterIssuer ${name}`, reason });
  if (ready?.stale) {
    return { status: 'warn', message: `ClusterIssuer "${name}" says ${ready.status === 'True' ? 'Ready' : 'not Ready'} of generation ${ready.observedGeneration}, but it is at generation ${ready.generation}: cert-manager has not looked at its latest change.`,
      advice: 'cert-manager\'s controller has not processed the change yet; if this stays, see kube.cert-manager and the controller log.', details, subject };
  }
  if (ready?.status === 'False') {
    const advice = EAB.test(ready.message ?? '') ? EAB_ADVICE : ISSUER_ADVICE[ready.reason ?? ''] ?? `Read the message above and "kubectl describe clusterissuer ${name}".`;
    return { status: 'fail', message: `ClusterIssuer "${name}" is not Ready (${said}).`, advice, details, subject, stuck: stuck(ready.reason ?? 'NotReady') };
  }
  if (ready?.status !== 'True') {
    return { status: 'warn', message: `ClusterIssuer "${name}" has no Ready condition yet${said ? ` (${said})` : ''}.`, advice: 'cert-manager has not processed it yet; check that the cert-manager controller runs (kubectl get pods -n cert-manager).', details, subject };
  }
  if (issuerType && liveType && liveType !== issuerType) {
    return {
      status: 'warn',
      message: `ClusterIssuer "${name}" is Ready but of type ${liveType}, while the inventory says ${issuerType}.`,
      advice: 'Deploy the inventory, then run "cloudgate regenerate" so the certificates are issued by the new issuer.',
      details, subject,
    };
  }
  return { status: 'ok', message: `ClusterIssuer "${name}" (${liveType ?? 'unknown type'}) is Ready (${said}).`, details, subject };
}

/** The verdict when no ClusterIssuer of that name exists (or the cluster lacks cert-manager's CRDs). */
export function missingIssuerResult(name: string, crdsMissing: boolean): CheckResult {
  return crdsMissing
    ? { status: 'fail', message: 'cert-manager\'s CRDs are not installed: the cluster has no ClusterIssuer kind.', advice: 'Install cert-manager (the platform does it first), then deploy the inventory.', stuck: { step: 'controller', object: 'CustomResourceDefinition clusterissuers.cert-manager.io', reason: 'NotFound' } }
    : { status: 'fail', message: `The ClusterIssuer "${name}" does not exist.`, advice: 'Deploy the platform with this inventory (cert-manager and its CRDs must be installed first).', subject: { kind: 'ClusterIssuer', name }, stuck: { step: 'issuer', object: `ClusterIssuer ${name}`, reason: 'NotFound' } };
}
