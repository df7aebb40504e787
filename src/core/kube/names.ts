/** Kubernetes' naming rules, in one place: what the API server refuses, checked before it is asked. */

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** An RFC 1123 label (namespaces): lower-case letters, digits and "-", at most 63. */
export function isDnsLabel(name: string): boolean {
  return name.length <= 63 && LABEL.test(name);
}

/**
 * An RFC 1123 subdomain as Kubernetes checks it (most object names: Secrets, ServiceAccounts, ...):
 * labels joined by ".", at most 253 in all (Kubernetes sets no limit per label here).
 */
export function isDnsSubdomain(name: string): boolean {
  return name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

/** A key of a Secret's data: letters, digits, "-", "_" and ".". */
export function isSecretDataKey(key: string): boolean {
  return /^[-._a-zA-Z0-9]+$/.test(key);
}
