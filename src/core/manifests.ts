/**
 * A `kubernetes.io/tls` Secret manifest, one document per namespace, for a supplied wildcard.
 * Interface stub: the certificate work (issue 3) implements it.
 */
export function tlsSecretManifest(_input: { name: string; namespaces: string[]; chainPem: string; keyPem: string }): string {
  throw new Error('TLS secret manifests are not implemented yet');
}
