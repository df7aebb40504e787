/**
 * The validators the build generates (scripts/crd-validators.mjs → dist/crd-validators.cjs), loaded
 * from the file next to the installation: walking up from this module, so the same code works from the
 * bundle and from src/ after a build (tests). The single executable carries the file inside instead:
 * its build (scripts/build-exe.mjs) replaces this module with one that bundles the generated file.
 */
import type { ValidateFunction } from 'ajv';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = 'crd-validators.cjs';

function validatorsFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const candidate of [join(dir, FILE), join(dir, 'dist', FILE)]) {
      if (existsSync(candidate)) return candidate;
    }
    dir = dirname(dir);
  }
  throw new Error(
    `${FILE} was not found next to the cloudgate installation; rebuild (npm run build) or reinstall cloudgate.`,
  );
}

/** `<kind>@<release>` → validate function, as the generated file exports them. */
export function loadGeneratedValidators(): Record<string, ValidateFunction> {
  // The generated file is ajv's standalone code, typed by what the build writes into it.
  return createRequire(import.meta.url)(validatorsFile()) as Record<string, ValidateFunction>;
}
