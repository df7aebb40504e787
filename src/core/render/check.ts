/**
 * Checks rendered objects as the API server would: cert-manager kinds against cert-manager's schema
 * (a real JSON Schema validator), core kinds against Kubernetes' naming rules.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { crdSchema } from './crd-schemas.js';
import type { KubeObject, RenderedObject, RenderFinding } from './types.js';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function validatorFor(kind: string): { validate: ValidateFunction; version: string } | undefined {
  const crd = crdSchema(kind);
  if (!crd) return undefined;
  let validate = validators.get(kind);
  if (!validate) {
    // Kubernetes' schema extensions (x-kubernetes-*) are not JSON Schema keywords: strict mode off.
    ajv ??= new Ajv({ strict: false, allErrors: true, logger: false })
      .addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
      .addFormat('int', true)
      .addFormat('int32', true)
      .addFormat('int64', true)
      .addFormat('date-time', true);
    validate = ajv.compile(crd.schema);
    validators.set(kind, validate);
  }
  return { validate, version: crd.version };
}

export function checkObjects(objects: RenderedObject[]): RenderFinding[] {
  return objects.flatMap(({ object, from }) => [...schemaFindings(object, from), ...nameFindings(object, from)]);
}

function label(object: KubeObject): string {
  return `${object.kind}/${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}

function schemaFindings(object: KubeObject, from: string[]): RenderFinding[] {
  const found = validatorFor(object.kind);
  if (!found || found.validate(object)) return [];
  return (found.validate.errors ?? []).filter(meaningful).map((e) => ({
    variable: variableFor(e, from) ?? label(object),
    severity: 'error',
    message: `${label(object)}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'} (cert-manager ${found.version} schema): the API server would refuse this object.`,
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
  [/\/venafi\/tpp\/caBundle$/, 'cluster_issuer_commercialca_tpp_ca_bundle'],
  [/\/venafi\/tpp\/url$/, 'cluster_issuer_commercialca_tpp_url'],
  [/\/acme\/email$/, 'cluster_issuer_acme_email'],
  [/\/acme\/server$/, 'cluster_issuer_acme_server'],
];

function variableFor(e: ErrorObject, from: string[]): string | undefined {
  return FIELD_VARIABLE.find(([path, name]) => path.test(e.instancePath) && from.includes(name))?.[1];
}

function nameFindings(object: KubeObject, from: string[]): RenderFinding[] {
  const out: RenderFinding[] = [];
  const name = object.metadata.name;
  const rbac = object.kind === 'Role' || object.kind === 'RoleBinding';
  // RBAC names are path segments (':' allowed); other objects' names are DNS subdomains.
  const valid = rbac ? name !== '' && !/[/%]/.test(name) && name !== '.' && name !== '..' : name.length <= 253 && DNS_SUBDOMAIN.test(name);
  if (!valid) {
    out.push({ variable: from[0] ?? label(object), severity: 'error', message: `${label(object)}: "${name}" is not a valid ${object.kind} name.`, advice: 'Use lower-case letters, digits, "-" and "." only.' });
  }
  if (object.kind === 'Secret') {
    for (const key of Object.keys((object.stringData ?? object.data ?? {}) as object)) {
      if (!SECRET_KEY.test(key)) out.push({ variable: from[0] ?? label(object), severity: 'error', message: `${label(object)}: "${key}" is not a valid Secret data key.` });
    }
  }
  return out;
}
