// Builds dist/crd-validators.cjs: ajv's validators of the bundled cert-manager CRD schemas
// (data/cert-manager-crds/), generated as code at build time with ajv's standalone code generation.
// Compiling the schemas at run time cost ~200 ms and most of the memory of `doctor --only inventory`,
// `render` and `setup`; loading the generated code costs a few milliseconds. Two releases are bundled:
// the one the platform pins and the newest.
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = new URL('../', import.meta.url);
const DATA = new URL('data/cert-manager-crds/', ROOT);
const RELEASES = [
  { version: 'v1.15.5', folder: 'v1.15.5/', files: { ClusterIssuer: 'crd-clusterissuers.yaml', Certificate: 'crd-certificates.yaml' } },
  { version: 'v1.21.1', folder: '', files: { ClusterIssuer: 'cert-manager.io_clusterissuers.yaml', Certificate: 'cert-manager.io_certificates.yaml' } },
];

// Keywords whose value is one schema, a list of schemas, or a map of names to schemas.
const SCHEMA = new Set(['items', 'additionalProperties', 'not', 'additionalItems', 'contains', 'propertyNames', 'if', 'then', 'else']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'definitions', '$defs']);

/**
 * The schema as the validator needs it: without `description` (annotations only, most of the text) and
 * without the ACME solvers' `podTemplate` (a copy of most of a Pod's schema: the platform never sets it,
 * and it doubled the validators' size). A property named `description` in `properties` is kept.
 */
export function forValidation(schema) {
  if (Array.isArray(schema)) return schema.map(forValidation);
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description') continue;
    if (SCHEMA.has(key) || SCHEMA_LIST.has(key)) out[key] = forValidation(value);
    else if (SCHEMA_MAP.has(key)) {
      out[key] = Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'podTemplate').map(([name, s]) => [name, forValidation(s)]));
    } else out[key] = value;
  }
  return out;
}

/**
 * The schema with each property that is an object of its own (it has properties, or is a list of such
 * objects) moved into `definitions` behind a `$ref`. With ajv's `inlineRefs` off each becomes a function
 * of its own in the generated code, and V8 compiles a function when it first runs: checking an ACME
 * issuer compiles the code of the fields it has, not the whole CRD's (4 ms less in every run that
 * validates). What is accepted and the errors reported stay the same; only their schemaPath differs.
 */
export function withRefs(schema) {
  const definitions = {};
  const ownObject = (s) => Boolean(s.properties || s.items?.properties);
  const visit = (node) => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (SCHEMA_MAP.has(key)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => {
          const inner = visit(property);
          if (!ownObject(inner)) return [name, inner];
          const id = `p${Object.keys(definitions).length}`;
          definitions[id] = inner;
          return [name, { $ref: `#/definitions/${id}` }];
        }));
      } else if (SCHEMA.has(key) || SCHEMA_LIST.has(key)) out[key] = visit(value);
      else out[key] = value;
    }
    return out;
  };
  return { ...visit(schema), definitions };
}

/** Each bundled release's v1 schema of each kind, the pinned release first. */
export function crdSchemas() {
  const out = [];
  for (const { version, folder, files } of RELEASES) {
    for (const [kind, file] of Object.entries(files)) {
      const crd = parse(readFileSync(new URL(folder + file, DATA), 'utf8'));
      const v1 = crd.spec.versions.find((v) => v.name === 'v1') ?? crd.spec.versions[0];
      out.push({ kind, version, schema: forValidation(v1.schema.openAPIV3Schema) });
    }
  }
  return out;
}

/** The ajv instance the validators are generated with: its options decide what they accept. */
function validatorAjv() {
  // Kubernetes' schema extensions (x-kubernetes-*) are not JSON Schema keywords: strict mode off.
  // Formats: `byte` is base64 (checked); the numeric and date formats are not checked.
  // inlineRefs off: each $ref of withRefs is a function of its own.
  return new Ajv({ strict: false, allErrors: true, logger: false, inlineRefs: false, code: { source: true } })
    .addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
    .addFormat('int', true)
    .addFormat('int32', true)
    .addFormat('int64', true)
    .addFormat('date-time', true);
}

/**
 * Writes a CommonJS module exporting one validator per kind and release, named `<kind>@<release>`
 * (e.g. `ClusterIssuer@v1.15.5`), pinned release first. ajv's run-time helpers the generated code
 * requires are bundled in, so the file stands alone.
 */
export async function writeCrdValidators(path) {
  const ajv = validatorAjv();
  const names = {};
  for (const { kind, version, schema } of crdSchemas()) {
    const name = `${kind}@${version}`;
    ajv.addSchema(withRefs(schema), name);
    names[name] = name;
  }
  await build({
    stdin: { contents: standaloneCode(ajv, names), resolveDir: fileURLToPath(ROOT), sourcefile: 'crd-validators.cjs', loader: 'js' },
    outfile: fileURLToPath(path),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}
