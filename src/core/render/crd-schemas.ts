/**
 * cert-manager's own OpenAPI schemas, used to check what the platform would apply before the API
 * server sees it. The build extracts them from the CRD files in data/cert-manager-crds/ into
 * dist/crd-schemas.json (scripts/crd-schemas.mjs); it is found by walking up from this module, so
 * the same code works from the bundle and from src/ after a build (tests).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CrdSchema {
  kind: string;
  /** The cert-manager release the schema comes from. */
  version: string;
  schema: Record<string, unknown>;
}

function schemasFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const candidate of [join(dir, 'crd-schemas.json'), join(dir, 'dist', 'crd-schemas.json')]) {
      if (existsSync(candidate)) return candidate;
    }
    dir = dirname(dir);
  }
  throw new Error('crd-schemas.json was not found next to the cloudgate installation; rebuild (npm run build) or reinstall cloudgate.');
}

let schemas: Record<string, CrdSchema[]> | undefined;

/**
 * The schemas of a cert-manager kind, one per bundled release (the one the platform pins, then the
 * newest); empty for kinds cert-manager does not define.
 */
export function crdSchemas(kind: string): CrdSchema[] {
  schemas ??= JSON.parse(readFileSync(schemasFile(), 'utf8')) as Record<string, CrdSchema[]>;
  return Object.hasOwn(schemas, kind) ? schemas[kind] : [];
}
