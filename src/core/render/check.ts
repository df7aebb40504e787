/**
 * Checks rendered objects as the API server would: cert-manager kinds against cert-manager's schema
 * (a real JSON Schema validator), core kinds against Kubernetes' naming rules.
 */
import { isDnsSubdomain, isSecretDataKey } from '../kube/names.js';
import type { ErrorObject } from 'ajv';
import { crdValidators } from './crd-validators.js';
import { isUnknownValue } from './values.js';
import type { KubeObject, RenderedObject, RenderFinding } from './types.js';

export function checkObjects(objects: RenderedObject[]): RenderFinding[] {
  // withoutNulls keeps the object's shape, null fields left out.
  return objects.flatMap(({ object, from, nameFrom }) => [...schemaFindings(withoutNulls(object) as KubeObject, from), ...nameFindings(object, from, nameFrom)]);
}

/** The API server drops null fields of a custom resource before checking it. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

/** The value at a JSON pointer (`/spec/acme/server`). */
function at(object: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((v, k) => (v && typeof v === 'object' ? Reflect.get(v, k.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined), object);
}

function label(object: KubeObject): string {
  return `${object.kind}/${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}

/** What each release's schema refuses; an error both refuse is one finding naming both releases. */
function schemaFindings(object: KubeObject, from: string[]): RenderFinding[] {
  const byError = new Map<string, { error: ErrorObject; versions: string[] }>();
  for (const { validate, version } of crdValidators(object.kind)) {
    if (validate(object)) continue;
    // A value known only at deploy time (vaulted, a template) is not judged.
    for (const error of (validate.errors ?? []).filter((e) => meaningful(e) && !isUnknownValue(at(object, e.instancePath)))) {
      const key = `${error.instancePath} ${error.message}`;
      const seen = byError.get(key) ?? { error, versions: [] };
      seen.versions.push(version);
      byError.set(key, seen);
    }
  }
  return [...byError.values()].map(({ error: e, versions }) => ({
    variable: variableFor(e, from) ?? label(object),
    severity: 'error',
    message: `${label(object)}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'} (cert-manager ${versions.join(' and ')} schema${versions.length > 1 ? 's' : ''}): the API server would refuse this object.`,
    advice: advice(e),
  }));
}

/** ajv reports each failed branch of a oneOf/anyOf too; the leaf errors say what is wrong. */
function meaningful(e: ErrorObject): boolean {
  return e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if';
}

function advice(e: ErrorObject): string | undefined {
  if (e.keyword === 'format' && e.params.format === 'byte') {
    return 'This field takes base64 data: the platform passes the variable as written, so give the bundle base64-encoded (base64 -w0 bundle.pem).';
  }
  return undefined;
}

const FIELD_VARIABLE: [RegExp, string][] = [
  [/\/venafi\/tpp\/caBundle$/, 'cluster_issuer_venafi_tpp_ca_bundle'],
  [/\/venafi\/tpp\/url$/, 'cluster_issuer_venafi_tpp_url'],
  [/\/acme\/email$/, 'cluster_issuer_acme_email'],
  [/\/acme\/server$/, 'cluster_issuer_acme_server'],
];

function variableFor(e: ErrorObject, from: string[]): string | undefined {
  // A missing property is reported on its parent: the variable is the property's.
  const path = e.keyword === 'required' ? `${e.instancePath}/${String(e.params.missingProperty)}` : e.instancePath;
  return FIELD_VARIABLE.find(([field, name]) => field.test(path) && from.includes(name))?.[1];
}

function nameFindings(object: KubeObject, from: string[], nameFrom?: string): RenderFinding[] {
  const out: RenderFinding[] = [];
  const name = object.metadata.name;
  // An empty or null name is reported where it is read; an unknown one is known only at deploy time.
  if (typeof name !== 'string' || name === '' || isUnknownValue(name)) return out;
  const rbac = object.kind === 'Role' || object.kind === 'RoleBinding';
  // RBAC names are path segments (':' allowed); other objects' names are DNS subdomains.
  const valid = rbac ? name !== '' && !/[/%]/.test(name) && name !== '.' && name !== '..' : isDnsSubdomain(name);
  if (!valid) {
    out.push({ variable: nameFrom ?? from[0] ?? label(object), severity: 'error', message: `${label(object)}: "${name}" is not a valid ${object.kind} name: the API server would refuse it.`, advice: rbac ? 'Leave out "/" and "%".' : 'Use lower-case letters, digits, "-" and "." only, starting and ending with a letter or digit.' });
  }
  if (object.kind === 'Secret') {
    for (const key of Object.keys((object.stringData ?? object.data ?? {}))) {
      if (!isSecretDataKey(key)) out.push({ variable: from[0] ?? label(object), severity: 'error', message: `${label(object)}: "${key}" is not a valid Secret data key.` });
    }
  }
  return out;
}
