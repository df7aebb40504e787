/**
 * The one reader of a live ClusterIssuer or Issuer: what it is as the platform deploys it. The kube
 * checks, render's drift comparison and regenerate all read an issuer through here.
 *
 * cert-manager knows the mechanisms `acme`, `ca`, `venafi`, `selfSigned` and `vault`; the platform's
 * issuer types (cluster_issuer_type) map onto them, with one twist: the platform's `self-signed` type is
 * a `ca:` issuer over the Secret `*-selfsigned-ca`, which Certificate cert-manager/self-signed-ca (issued by
 * ClusterIssuer self-signed, the one `selfSigned: {}` issuer) makes. Such an issuer is `self-signed`
 * here, so a healthy self-signed platform is not "a ca issuer".
 */
import { asRecord, memberOf, textOf } from '../records.js';
import { readCondition, type CmObject, type ConditionState } from './objects.js';
import { CERT_MANAGER_NAMESPACE } from './platform.js';
import type { IssuerType } from '../config/variables.js';
import { ISSUER_TYPES, ISSUER_TYPE_VALUES } from '../config/vocabulary.js';

export type IssuerKind = 'ClusterIssuer' | 'Issuer';
/** What cert-manager runs: the one key of the issuer's spec. */
export type IssuerMechanism = 'acme' | 'ca' | 'venafi' | 'selfSigned' | 'vault' | 'unknown';
/** The issuer in the platform's words: a value of cluster_issuer_type (none aside). */
export type PlatformIssuerType = Exclude<IssuerType, 'none'>;

/** The ClusterIssuer every platform has, whose certificates are the CAs of the self-signed and namespaced CA issuers. */
export const SELF_SIGNED_CLUSTER_ISSUER = 'self-signed';
/** The platform's default name of the self-signed CA's Secret ends so (cert-manager-selfsigned-ca; the neutral names' certmgr-selfsigned-ca). */
const SELF_SIGNED_SECRET = /-selfsigned-ca$/;

const MECHANISMS: readonly IssuerMechanism[] = ['acme', 'ca', 'venafi', 'selfSigned', 'vault'];

export interface LiveIssuer {
  kind: IssuerKind;
  name: string;
  namespace?: string;
  /** `ClusterIssuer atmosphere`, `Issuer openstack/octavia-client`: how messages name it. */
  ref: string;
  mechanism: IssuerMechanism;
  /** Its cluster_issuer_type; undefined for a `selfSigned` or `vault` issuer, which the platform's type never is. */
  platformType?: PlatformIssuerType;
  /** `acme/http01`, `acme/route53`, `ca`, `self-signed`, `venafi`, `selfSigned`: mechanism and solver, for comparisons. */
  solver: string;
  /** A CA issuer's Secret, and the namespace it is read from (cert-manager's for a ClusterIssuer). */
  caSecret?: string;
  secretNamespace: string;
  acmeServer?: string;
  /** Its Ready condition, read with its generation. */
  ready?: ConditionState;
}

export interface IssuerHints {
  /** Secrets known to hold the platform's self-signed CA (selfSignedCaSecrets, the inventory's name). */
  selfSignedCaSecrets?: readonly string[];
}

/**
 * The Secrets of the self-signed CAs among `objects` (live or rendered): Certificates in cert-manager's
 * namespace issued by ClusterIssuer self-signed with isCA.
 */
export function selfSignedCaSecrets(objects: readonly unknown[]): string[] {
  return objects.flatMap((o) => {
    const meta = memberOf(o, 'metadata');
    const spec = memberOf(o, 'spec');
    const ref = memberOf(spec, 'issuerRef');
    const byRoot =
      textOf(memberOf(ref, 'name')) === SELF_SIGNED_CLUSTER_ISSUER && textOf(memberOf(ref, 'kind')) === 'ClusterIssuer';
    const secret = textOf(memberOf(spec, 'secretName'));
    const isCertificate =
      textOf(memberOf(o, 'kind')) === 'Certificate' && textOf(memberOf(meta, 'namespace')) === CERT_MANAGER_NAMESPACE;
    return isCertificate && byRoot && memberOf(spec, 'isCA') === true && secret ? [secret] : [];
  });
}

/**
 * The platform's issuer type whose ClusterIssuer has this `spec` field (vocabulary.ts: ISSUER_TYPES),
 * the self-signed type aside (a CA issuer over the platform's self-signed CA, told by its secret).
 */
function platformTypeOf(mechanism: IssuerMechanism): PlatformIssuerType | undefined {
  return ISSUER_TYPE_VALUES.find(
    (t): t is PlatformIssuerType => t !== 'self-signed' && t !== 'none' && ISSUER_TYPES[t].spec === mechanism,
  );
}

/** Reads a live (or rendered) ClusterIssuer or Issuer. */
export function readLiveIssuer(object: unknown, hints: IssuerHints = {}): LiveIssuer {
  const meta = memberOf(object, 'metadata');
  const kind: IssuerKind = textOf(memberOf(object, 'kind')) === 'Issuer' ? 'Issuer' : 'ClusterIssuer';
  const name = textOf(memberOf(meta, 'name')) ?? '?';
  const namespace = kind === 'Issuer' ? textOf(memberOf(meta, 'namespace')) : undefined;
  const spec = asRecord(memberOf(object, 'spec')) ?? {};
  const mechanism = MECHANISMS.find((m) => spec[m] !== undefined && spec[m] !== null) ?? 'unknown';
  const caSecret = mechanism === 'ca' ? textOf(memberOf(spec.ca, 'secretName')) : undefined;
  const selfSignedCa =
    caSecret !== undefined &&
    kind === 'ClusterIssuer' &&
    (SELF_SIGNED_SECRET.test(caSecret) || (hints.selfSignedCaSecrets ?? []).includes(caSecret));
  const platformType: PlatformIssuerType | undefined = selfSignedCa ? 'self-signed' : platformTypeOf(mechanism);
  return {
    kind,
    name,
    ...(namespace ? { namespace } : {}),
    ref: kind === 'Issuer' ? `Issuer ${namespace ?? '?'}/${name}` : `ClusterIssuer ${name}`,
    mechanism,
    ...(platformType ? { platformType } : {}),
    solver: selfSignedCa ? 'self-signed' : mechanism === 'acme' ? `acme/${acmeSolver(spec.acme)}` : mechanism,
    ...(caSecret ? { caSecret } : {}),
    secretNamespace: namespace ?? CERT_MANAGER_NAMESPACE,
    ...(mechanism === 'acme' && textOf(memberOf(spec.acme, 'server'))
      ? { acmeServer: textOf(memberOf(spec.acme, 'server')) }
      : {}),
    ...(readyOf(object) ? { ready: readyOf(object) } : {}),
  };
}

/** The first solver's kind: `http01`, or the DNS-01 provider (`route53`, `webhook`, ...). */
function acmeSolver(acme: unknown): string {
  const solvers = memberOf(acme, 'solvers');
  const solver = asRecord(Array.isArray(solvers) ? solvers[0] : undefined) ?? {};
  const dns01 = asRecord(solver.dns01);
  const provider = dns01 ? Object.keys(dns01).find((k) => k !== 'cnameStrategy') : solver.http01 ? 'http01' : undefined;
  return provider ?? 'none';
}

// An object kubectl returned (or the renderer made): its conditions are read member by member, unchecked.
const readyOf = (object: unknown): ConditionState | undefined =>
  asRecord(object) ? readCondition(object as CmObject, 'Ready') : undefined;

/** Whether the live issuer is of the inventory's cluster_issuer_type (the platform's value). */
export function isOfType(issuer: LiveIssuer, inventoryType: string | undefined): boolean {
  return inventoryType !== undefined && issuer.platformType === inventoryType;
}
