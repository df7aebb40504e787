import { isDnsLabel, isDnsSubdomain } from '../kube/names.js';
import { UsageError } from '../errors.js';
import { registerSecret } from '../secrets.js';

/**
 * A `kubernetes.io/tls` Secret manifest, one Secret per namespace in one List, for a supplied wildcard: a
 * Secret is visible only in its own namespace, and the ingresses of `auth-system` and `monitoring`
 * use the same secret name as those of `openstack`. `chainPem` must already be in the order
 * certificate, intermediate(s), root.
 */
export function tlsSecretManifest(input: {
  name: string;
  namespaces: string[];
  chainPem: string;
  keyPem: string;
}): string {
  if (!isDnsSubdomain(input.name)) {
    throw new UsageError(
      `"${input.name}" is not a valid Secret name (openstack_helm_ingress_secret_name).`,
      'Use lower-case letters, digits, "-" and ".", starting and ending with a letter or digit (e.g. wildcard-tls).',
    );
  }
  const namespaces = [...new Set(input.namespaces.map((n) => n.trim()))];
  const bad = namespaces.filter((n) => !isDnsLabel(n));
  if (namespaces.length === 0 || bad.length) {
    throw new UsageError(
      namespaces.length === 0
        ? 'No namespace given for the TLS Secret.'
        : `Not a valid namespace name: ${bad.map((n) => `"${n}"`).join(', ')}.`,
      'Namespaces are lower-case letters, digits and "-", at most 63 characters (e.g. openstack, auth-system, monitoring).',
    );
  }
  if (
    !input.chainPem.includes('-----BEGIN CERTIFICATE-----') ||
    !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(input.keyPem)
  ) {
    throw new Error('tlsSecretManifest needs a PEM certificate chain and a PEM private key.');
  }
  const crt = Buffer.from(input.chainPem).toString('base64');
  const key = Buffer.from(input.keyPem).toString('base64');
  registerSecret(input.keyPem);
  registerSecret(key);
  // One document, a List: kubectl applies each item, and Ansible, should it read the inventory
  // folder as an inventory source, finds no group in it (each top-level key is a string or a list)
  // and never echoes a line of it, as it would for a second YAML document.
  const items = namespaces.map((namespace) =>
    [
      '- apiVersion: v1',
      '  kind: Secret',
      '  metadata:',
      `    name: ${input.name}`,
      `    namespace: ${namespace}`,
      '    labels:',
      '      app.kubernetes.io/managed-by: cloudgate',
      '  type: kubernetes.io/tls',
      '  data:',
      `    tls.crt: ${crt}`,
      `    tls.key: ${key}`,
      '',
    ].join('\n'),
  );
  const header = [
    '# TLS Secret of the supplied wildcard certificate, written by cloudgate setup.',
    '# It holds the private key: keep this file private. Apply it with: kubectl apply -f <this file>',
    '# The platform never renews this certificate: renew it before it expires and apply again.',
    '',
  ].join('\n');
  return `${header}apiVersion: v1\nkind: List\nitems:\n${items.join('')}`;
}
