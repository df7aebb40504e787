/**
 * cert-manager's own OpenAPI schemas, used to check what the platform would apply before the API
 * server sees it. The build generates ajv validators of the CRDs in data/cert-manager-crds/ as code
 * (scripts/crd-validators.mjs → dist/crd-validators.cjs), so no schema is compiled at run time. The
 * file is found by walking up from this module, so the same code works from the bundle and from
 * src/ after a build (tests).
 */
import type { ValidateFunction } from 'ajv';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CrdValidator {
  kind: string;
  /** The cert-manager release the schema comes from. */
  version: string;
  validate: ValidateFunction;
}

const FILE = 'crd-validators.cjs';

function validatorsFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const candidate of [join(dir, FILE), join(dir, 'dist', FILE)]) {
      if (existsSync(candidate)) return candidate;
    }
    dir = dirname(dir);
  }
  throw new Error(`${FILE} was not found next to the cloudgate installation; rebuild (npm run build) or reinstall cloudgate.`);
}

/** `<kind>@<release>` → validator, the pinned release before the newest (the build's order). */
let generated: Record<string, ValidateFunction> | undefined;

/**
 * The validators of a cert-manager kind, one per bundled release (the one the platform pins, then
 * the newest); empty for kinds cert-manager does not define.
 */
export function crdValidators(kind: string): CrdValidator[] {
  // The file the build generates with ajv's standalone code: one validate function per kind@release.
  generated ??= createRequire(import.meta.url)(validatorsFile()) as Record<string, ValidateFunction>;
  return Object.entries(generated)
    .filter(([name]) => name.startsWith(`${kind}@`))
    .map(([name, validate]) => ({ kind, version: name.slice(kind.length + 1), validate }));
}
