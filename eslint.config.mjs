// ESLint for cloudgate: typescript-eslint's type-aware rules, over src/ and test/. The linter's packages live in tools/lint/
// (their own TypeScript 5, which typescript-eslint needs); scripts/lint.mjs installs and runs them.
import { createRequire } from 'node:module';

const require = createRequire(new URL('./tools/lint/package.json', import.meta.url));
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const { defineConfig } = require('eslint/config');
const castNeedsWhy = (await import('./tools/lint/rules/cast-needs-why.mjs')).default;
// The project's own rules (tools/lint/rules/), documented in docs/development.md.
const cloudgate = { meta: { name: 'cloudgate' }, rules: { 'cast-needs-why': castNeedsWhy } };

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'tools/', 'node_modules/', '.bench/'] },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { cloudgate },
    rules: {
      'cloudgate/cast-needs-why': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Terminal escapes are matched on purpose (src/core/escape.ts and the renderers).
      'no-control-regex': 'off',
      // Messages quote values read from servers and files (typed unknown) on purpose; they are escaped
      // for the terminal where they are printed, and String() of such a value is what the operator sees.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Checks and front-ends pass interface methods (run, write, log) as plain functions that use no `this`.
      '@typescript-eslint/unbound-method': 'off',
      // An async function without await still returns a promise, as the interface it implements asks.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The tests: the same type-aware rules (a promise left floating, a misused one), without the ones
    // whose subject is production code: what a test reads from the CLI's JSON is untyped on purpose,
    // non-null assertions say what the test expects, and helpers await what may or may not be a promise.
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-control-regex': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
);
