/**
 * cert-manager's own OpenAPI schemas, used to check what the platform would apply before the API
 * server sees it. The build generates ajv validators of the CRDs in data/cert-manager-crds/ as code
 * (scripts/crd-validators.mjs), so no schema is compiled at run time; ./crd-validators-file.ts loads
 * them on first use.
 */
import type { ValidateFunction } from 'ajv';
import { loadGeneratedValidators } from './crd-validators-file.js';

export interface CrdValidator {
  kind: string;
  /** The cert-manager release the schema comes from. */
  version: string;
  validate: ValidateFunction;
}

/** `<kind>@<release>` → validator, the pinned release before the newest (the build's order). */
let generated: Record<string, ValidateFunction> | undefined;

/**
 * The validators of a cert-manager kind, one per bundled release (the one the platform pins, then
 * the newest); empty for kinds cert-manager does not define.
 */
export function crdValidators(kind: string): CrdValidator[] {
  // The file the build generates with ajv's standalone code: one validate function per kind@release.
  generated ??= loadGeneratedValidators();
  return Object.entries(generated)
    .filter(([name]) => name.startsWith(`${kind}@`))
    .map(([name, validate]) => ({ kind, version: name.slice(kind.length + 1), validate }));
}
