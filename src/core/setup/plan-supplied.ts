/**
 * The supplied wildcard part of a setup plan: the certificate and key checked, and the TLS Secret
 * manifest they make. Ansible loads every file under an inventory's group_vars/ and host_vars/ as
 * variables, so the manifest (a Kubernetes object holding the private key) is written beside them,
 * in `<inventory root>/manifests/`, never among them; a manifest an older cloudgate left next to the
 * inventory file is moved there.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { DEFAULT_NAMESPACE, type Answers } from '../config/answers.js';
import { isSet } from '../config/validate.js';
import { UsageError } from '../errors.js';
import { hasErrors, type Finding } from '../findings.js';
import type { FileToWrite } from '../inventory/atomic-write.js';
import { textOf } from '../records.js';
import { registerSecret } from '../secrets.js';
import { loadSuppliedWildcard } from '../tls/supplied.js';
import { tlsSecretManifest } from './manifests.js';

export const DEFAULT_SUPPLIED_SECRET_NAME = 'wildcard-certs';
/** The folders whose files Ansible loads as variables. */
const VARS_FOLDERS = new Set(['group_vars', 'host_vars']);

export interface SuppliedPlan {
  secretName: string;
  namespaces: string[];
  manifestPath: string;
  certificateFile: string;
  keyFile: string;
  reordered: boolean;
  /** A manifest an older cloudgate wrote inside group_vars/ or host_vars/: removed once the new one is written. */
  movedFrom?: string;
}

export interface SuppliedInput {
  answers: Answers;
  /** The variables being set (cluster_issuer_type and the secret name are set here). */
  set: Record<string, unknown>;
  current: Record<string, unknown>;
  inventoryPath: string;
  secretManifestPath?: string;
  namespaces?: string[];
  fixOrder?: boolean;
  now?: Date;
}

export interface SuppliedPart {
  supplied?: SuppliedPlan;
  manifest?: FileToWrite;
  findings: Finding[];
  /** Variables to remove from the inventory, with why. */
  removed?: Record<string, string>;
}

/** The folder holding group_vars/ (the inventory root); the inventory file's folder when it is in no vars folder. */
export function inventoryRoot(inventoryPath: string): string {
  const parts = resolve(inventoryPath).split(sep);
  const at = parts.findIndex((part) => VARS_FOLDERS.has(part));
  return at > 0 ? parts.slice(0, at).join(sep) || sep : dirname(resolve(inventoryPath));
}

/** Whether Ansible would load this path as variables (it lies under a group_vars/ or host_vars/ folder). */
export function insideVarsFolder(path: string): boolean {
  return dirname(resolve(path))
    .split(sep)
    .some((part) => VARS_FOLDERS.has(part));
}

/** Where the TLS Secret manifest goes by default: `<inventory root>/manifests/<secret>.secret.yaml`. */
export function defaultManifestPath(inventoryPath: string, secretName: string): string {
  return join(inventoryRoot(inventoryPath), 'manifests', `${secretName}.secret.yaml`);
}

/** The namespaces of the answers' `namespace` (a list of names once the answers are resolved), or undefined. */
const namesOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : undefined;

export function planSupplied(input: SuppliedInput): SuppliedPart {
  const { answers, set, current } = input;
  const certificateFile = textOf(answers.wildcard_certificate_file);
  const keyFile = textOf(answers.wildcard_key_file);
  if (!certificateFile && !keyFile) return { findings: [] };
  if (!certificateFile || !keyFile) {
    throw new UsageError(
      'A supplied wildcard certificate needs both wildcard_certificate_file and wildcard_key_file.',
      `Add ${certificateFile ? 'wildcard_key_file' : 'wildcard_certificate_file'} to the answers.`,
    );
  }
  if (isSet(set.cluster_issuer_type) && set.cluster_issuer_type !== 'none') {
    throw new UsageError(
      `The answers supply a wildcard certificate but set cluster_issuer_type: ${String(set.cluster_issuer_type)}.`,
      'A supplied certificate needs cluster_issuer_type: none (the platform must not issue over it); remove cluster_issuer_type or set it to none.',
    );
  }
  const secretName = String(
    set.openstack_helm_ingress_secret_name ??
      current.openstack_helm_ingress_secret_name ??
      DEFAULT_SUPPLIED_SECRET_NAME,
  );
  set.cluster_issuer_type = 'none';
  set.openstack_helm_ingress_secret_name = secretName;
  const namespaces = input.namespaces?.length ? input.namespaces : (namesOf(answers.namespace) ?? [DEFAULT_NAMESPACE]);
  const manifestPath = resolve(input.secretManifestPath ?? defaultManifestPath(input.inventoryPath, secretName));
  const domain = textOf(set.openstack_helm_ingress_wildcard_domain ?? current.openstack_helm_ingress_wildcard_domain);
  const wildcard = loadSuppliedWildcard({
    certificateFile,
    keyFile,
    domain: domain || undefined,
    fixOrder: input.fixOrder ?? false,
    now: input.now,
  });
  registerSecret(wildcard.keyPem);
  const findings: Finding[] = [...wildcard.findings];
  // The domain only checks the certificate's names here: in the inventory it makes the platform issue a
  // wildcard Certificate of its own over the supplied secret, so it is not written (and an old one goes).
  delete set.openstack_helm_ingress_wildcard_domain;
  const removed: Record<string, string> = {};
  if (current.openstack_helm_ingress_wildcard_domain !== undefined) {
    removed.openstack_helm_ingress_wildcard_domain =
      'with a supplied wildcard the platform would issue its own Certificate over it';
    findings.push({
      rule: 'supplied-wildcard-domain',
      severity: 'info',
      variable: 'openstack_helm_ingress_wildcard_domain',
      message: `openstack_helm_ingress_wildcard_domain is removed from the inventory: with it the platform would issue its own *.${String(current.openstack_helm_ingress_wildcard_domain)} Certificate over the supplied one.`,
    });
  }
  if (insideVarsFolder(manifestPath)) {
    findings.push({
      rule: 'manifest-in-vars-folder',
      severity: 'error',
      variable: 'wildcard_certificate_file',
      message: `${manifestPath} is inside a group_vars/ or host_vars/ folder: Ansible would load the TLS Secret (its private key included) as variables of every host.`,
      advice: `Give --secret-manifest a path outside them, e.g. ${defaultManifestPath(input.inventoryPath, secretName)}, or leave it out.`,
    });
  }
  const old = join(dirname(resolve(input.inventoryPath)), `${secretName}.secret.yaml`);
  const movedFrom = old !== manifestPath && insideVarsFolder(old) && existsSync(old) ? old : undefined;
  if (movedFrom) {
    findings.push({
      rule: 'manifest-moved',
      severity: 'warning',
      variable: 'wildcard_certificate_file',
      message: `An older cloudgate wrote the TLS Secret manifest ${movedFrom} inside ${basename(dirname(movedFrom))}/, where Ansible loads it as variables (it holds the private key).`,
      advice: `This write puts it in ${manifestPath} and removes ${movedFrom}.`,
    });
  }
  const supplied: SuppliedPlan = {
    secretName,
    namespaces,
    manifestPath,
    certificateFile,
    keyFile,
    reordered: wildcard.reordered,
    ...(movedFrom ? { movedFrom } : {}),
  };
  if (hasErrors(findings)) return { supplied, findings, removed };
  return {
    supplied,
    findings,
    removed,
    manifest: {
      path: manifestPath,
      content: tlsSecretManifest({
        name: secretName,
        namespaces,
        chainPem: wildcard.chainPem,
        keyPem: wildcard.keyPem,
      }),
      mode: 0o600,
      holdsSecret: true,
      description: `TLS Secret manifest (${secretName} in ${namespaces.join(', ')}; beside the inventory, not in group_vars/, where Ansible would load it as variables)`,
    },
  };
}
