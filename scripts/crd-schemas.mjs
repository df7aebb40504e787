// Extracts the v1 openAPIV3Schema of each bundled cert-manager CRD (data/cert-manager-crds/) into one
// compact JSON file that cloudgate reads at run time: parsing the CRDs' YAML on every run cost more
// memory than the rest of a command together. Two releases are bundled: the one the platform pins
// and the newest. The solvers' `podTemplate` (a copy of most of a Pod's schema) is left out: the
// platform never sets it, and compiling it doubled the memory of the validator.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const DATA = new URL('../data/cert-manager-crds/', import.meta.url);
const RELEASES = [
  { version: 'v1.15.5', folder: 'v1.15.5/', files: { ClusterIssuer: 'crd-clusterissuers.yaml', Certificate: 'crd-certificates.yaml' } },
  { version: 'v1.21.1', folder: '', files: { ClusterIssuer: 'cert-manager.io_clusterissuers.yaml', Certificate: 'cert-manager.io_certificates.yaml' } },
];

/** The schema without the `podTemplate` properties (kept: everything the platform can render). */
function withoutPodTemplates(node) {
  if (Array.isArray(node)) return node.map(withoutPodTemplates);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'podTemplate').map(([k, v]) => [k, withoutPodTemplates(v)]));
}

/** kind → the schema of each bundled release, the pinned one first. */
export function crdSchemas() {
  const out = {};
  for (const { version, folder, files } of RELEASES) {
    for (const [kind, file] of Object.entries(files)) {
      const crd = parse(readFileSync(new URL(folder + file, DATA), 'utf8'));
      const v1 = crd.spec.versions.find((v) => v.name === 'v1') ?? crd.spec.versions[0];
      (out[kind] ??= []).push({ kind, version, schema: withoutPodTemplates(v1.schema.openAPIV3Schema) });
    }
  }
  return out;
}

export function writeCrdSchemas(path) {
  writeFileSync(path, JSON.stringify(crdSchemas()));
}
