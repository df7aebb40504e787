// Extracts the v1 openAPIV3Schema of each bundled cert-manager CRD (data/cert-manager-crds/*.yaml)
// into one compact JSON file that cloudgate reads at run time: parsing 700 KB of YAML on every run
// cost more memory than the rest of a command together. The solvers' `podTemplate` (a copy of most
// of a Pod's schema) is left out: the platform never sets it, and compiling it doubled the memory
// of the validator.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const DATA = new URL('../data/cert-manager-crds/', import.meta.url);
const FILES = { ClusterIssuer: 'cert-manager.io_clusterissuers.yaml', Certificate: 'cert-manager.io_certificates.yaml' };

/** The schema without the `podTemplate` properties (kept: everything the platform can render). */
function withoutPodTemplates(node) {
  if (Array.isArray(node)) return node.map(withoutPodTemplates);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'podTemplate').map(([k, v]) => [k, withoutPodTemplates(v)]));
}

export function crdSchemas() {
  const readme = readFileSync(new URL('README.md', DATA), 'utf8');
  const out = {};
  for (const [kind, file] of Object.entries(FILES)) {
    const crd = parse(readFileSync(new URL(file, DATA), 'utf8'));
    const v1 = crd.spec.versions.find((v) => v.name === 'v1') ?? crd.spec.versions[0];
    const version = crd.metadata?.labels?.['app.kubernetes.io/version'] ?? /tag \*\*(v[\d.]+)\*\*/.exec(readme)?.[1] ?? 'bundled';
    out[kind] = { kind, version, schema: withoutPodTemplates(v1.schema.openAPIV3Schema) };
  }
  return out;
}

export function writeCrdSchemas(path) {
  writeFileSync(path, JSON.stringify(crdSchemas()));
}
