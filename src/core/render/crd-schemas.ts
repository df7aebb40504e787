/**
 * cert-manager's own OpenAPI schemas (the CRD files shipped in data/cert-manager-crds/), used to check
 * what the platform would apply before the API server sees it. Found by walking up from this module,
 * so the same code works from src/ (tests) and from the built bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export interface CrdSchema {
  kind: string;
  /** The cert-manager release the schema comes from. */
  version: string;
  schema: Record<string, unknown>;
}

const FILES: Record<string, string> = {
  ClusterIssuer: 'cert-manager.io_clusterissuers.yaml',
  Certificate: 'cert-manager.io_certificates.yaml',
};

function crdDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'data', 'cert-manager-crds');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('data/cert-manager-crds/ was not found next to the cloudgate installation; reinstall cloudgate.');
}

const cache = new Map<string, CrdSchema>();

/** The schema of a cert-manager kind, or undefined for kinds cert-manager does not define. */
export function crdSchema(kind: string): CrdSchema | undefined {
  const file = FILES[kind];
  if (!file) return undefined;
  let found = cache.get(kind);
  if (!found) {
    const dir = crdDir();
    const crd = parse(readFileSync(join(dir, file), 'utf8')) as {
      metadata?: { labels?: Record<string, string> };
      spec: { versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] };
    };
    const v1 = crd.spec.versions.find((v) => v.name === 'v1') ?? crd.spec.versions[0];
    found = { kind, version: bundledVersion(dir, crd.metadata?.labels), schema: v1.schema.openAPIV3Schema };
    cache.set(kind, found);
  }
  return found;
}

function bundledVersion(dir: string, labels: Record<string, string> | undefined): string {
  const label = labels?.['app.kubernetes.io/version'];
  if (label) return label;
  const readme = existsSync(join(dir, 'README.md')) ? readFileSync(join(dir, 'README.md'), 'utf8') : '';
  return /tag \*\*(v[\d.]+)\*\*/.exec(readme)?.[1] ?? 'bundled';
}
