/**
 * Regenerating after an issuer change (the old certificates stay until deleted): which certificate secrets the
 * previous issuer left behind, the exact kubectl commands that delete them, and a report of a run
 * that stopped half-way. Pure: the command wires kubectl to it.
 *
 * cert-manager marks every secret it manages with `cert-manager.io/issuer-name` (and -kind,
 * certificate-name); those naming the platform's issuer are the stale ones, whatever their names.
 */
import { asRecord, memberOf, textOf } from '../records.js';
import { shellQuote } from '../shell-quote.js';
import { issuedByCurrent, type IssuerIdentity } from './regenerate-issued.js';

export const ISSUER_NAME_ANNOTATION = 'cert-manager.io/issuer-name';
export const ISSUER_KIND_ANNOTATION = 'cert-manager.io/issuer-kind';
export const CERTIFICATE_NAME_ANNOTATION = 'cert-manager.io/certificate-name';
export { PLATFORM_ISSUER } from '../kube/platform.js';

export interface SecretSummary {
  namespace: string;
  name: string;
  type?: string;
  annotations: Record<string, string>;
  createdAt?: string;
  /** tls.crt (certificates only: tls.key is never kept). */
  certificatePem?: string;
}

export interface StaleSecret {
  namespace: string;
  name: string;
  /** The cert-manager Certificate that will issue it again. */
  certificate?: string;
}

export interface KeptSecret {
  namespace: string;
  name: string;
  reason: string;
}

export interface StaleSelection {
  stale: StaleSecret[];
  /** Secrets cert-manager manages that are deliberately left alone, with why. */
  kept: KeptSecret[];
}

export interface SelectionOptions {
  issuerName: string;
  /** What the current issuer issues: its secrets are kept, so a second run deletes nothing. */
  current?: IssuerIdentity;
  /** Secret names never deleted: the supplied wildcard (openstack_helm_ingress_secret_name). */
  protectedNames: string[];
}

/** Kubernetes `SecretList` items → summaries (anything malformed is skipped). */
export function summarizeSecrets(list: unknown): SecretSummary[] {
  const items = memberOf(list, 'items');
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown) => {
    const meta = memberOf(item, 'metadata');
    const name = textOf(memberOf(meta, 'name'));
    const namespace = textOf(memberOf(meta, 'namespace'));
    if (name === undefined || namespace === undefined) return [];
    const annotations = textsOf(memberOf(meta, 'annotations'));
    const createdAt = memberOf(meta, 'creationTimestamp');
    const crt = memberOf(memberOf(item, 'data'), 'tls.crt');
    return [
      {
        namespace,
        name,
        type: textOf(memberOf(item, 'type')),
        annotations,
        ...(typeof createdAt === 'string' ? { createdAt } : {}),
        ...(typeof crt === 'string' ? { certificatePem: Buffer.from(crt, 'base64').toString('utf8') } : {}),
      },
    ];
  });
}

/** The text members of a mapping (Kubernetes annotations are all text), or none. */
const textsOf = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(asRecord(value) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

export function selectStaleSecrets(secrets: SecretSummary[], options: SelectionOptions): StaleSelection {
  const stale: StaleSecret[] = [];
  const kept: KeptSecret[] = [];
  for (const secret of secrets) {
    const issuer = secret.annotations[ISSUER_NAME_ANNOTATION];
    const kind = secret.annotations[ISSUER_KIND_ANNOTATION] ?? 'Issuer';
    const { namespace, name } = secret;
    if (options.protectedNames.includes(name)) {
      if (issuer !== undefined || secret.type === 'kubernetes.io/tls') {
        kept.push({
          namespace,
          name,
          reason: 'the supplied wildcard certificate (openstack_helm_ingress_secret_name): never deleted',
        });
      }
      continue;
    }
    if (issuer === undefined) continue;
    if (issuer !== options.issuerName || kind !== 'ClusterIssuer') {
      kept.push({
        namespace,
        name,
        reason: `issued by ${kind} "${issuer}", not by ClusterIssuer "${options.issuerName}"`,
      });
      continue;
    }
    const current = options.current ? issuedByCurrent(secret, options.current) : undefined;
    if (current) {
      kept.push({ namespace, name, reason: current });
      continue;
    }
    stale.push({ namespace, name, certificate: secret.annotations[CERTIFICATE_NAME_ANNOTATION] });
  }
  const order = (a: { namespace: string; name: string }, b: { namespace: string; name: string }) =>
    a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);
  return { stale: stale.sort(order), kept: kept.sort(order) };
}

/** The kubectl arguments that delete one secret (no binary, no global flags). */
export function deleteArgs(secret: { namespace: string; name: string }): string[] {
  // `--` ends the options: a secret named `-x` is a name, not a flag.
  return ['delete', 'secret', `--namespace=${secret.namespace}`, '--', secret.name];
}

/** The command as an operator would type it (for --dry-run and for what is left to do). */
export function commandLine(secret: { namespace: string; name: string }, context?: string): string {
  return ['kubectl', ...(context ? [`--context=${context}`] : []), ...deleteArgs(secret)].map(shellQuote).join(' ');
}

export interface DeletionReport {
  deleted: StaleSecret[];
  failed?: { secret: StaleSecret; error: string };
  /** Not attempted because an earlier deletion failed. */
  remaining: StaleSecret[];
}

/** Lines describing a finished or interrupted run; the commands still to run when it stopped. */
export function describeDeletion(report: DeletionReport, context?: string): string[] {
  const lines: string[] = [];
  const name = (s: StaleSecret) => `${s.namespace}/${s.name}`;
  if (report.deleted.length) lines.push(`Deleted ${report.deleted.length}: ${report.deleted.map(name).join(', ')}`);
  if (!report.failed) return lines;
  lines.push(`Failed to delete ${name(report.failed.secret)}: ${report.failed.error}`);
  const left = [report.failed.secret, ...report.remaining];
  lines.push(`Not deleted (${left.length}): ${left.map(name).join(', ')}`);
  lines.push('To finish by hand once the cause is fixed:');
  for (const secret of left) lines.push(`  ${commandLine(secret, context)}`);
  return lines;
}
