/**
 * Checks rendered objects as the API server would, in its order: first the schema (cert-manager's CRDs
 * with a real JSON Schema validator, Kubernetes' own rules for core objects: names, Secret keys and
 * `stringData` values), then cert-manager's validating webhook for an issuer the schema accepts
 * (cert-manager-webhook.ts). Each refusal names the release(s) that refuse and the variable to change.
 */
import { isDnsSubdomain, isSecretDataKey } from '../kube/names.js';
import type { ErrorObject } from 'ajv';
import { crdValidators } from './crd-validators.js';
import { issuerErrors, WEBHOOK_VERSIONS } from './cert-manager-webhook.js';
import { isOneOf } from '../records.js';
import { dotted, variableAt } from './field-variables.js';
import { defaultName } from '../config/variables.js';
import { isUnknownValue } from './values.js';
import type { KubeObject, RenderedObject, RenderFinding } from './types.js';

export function checkObjects(objects: RenderedObject[]): RenderFinding[] {
  // The API server drops null fields of a custom resource before it checks (and stores) it.
  return objects.flatMap(({ object, from, nameFrom }) => {
    const stored = withoutNulls(object) as KubeObject; // withoutNulls keeps the object's shape
    return [...nameFindings(object, from, nameFrom), ...secretFindings(object, from), ...cmFindings(stored, from)];
  });
}

/** The API server drops null fields of a custom resource before checking it. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

/** The value at a JSON pointer (`/spec/acme/server`). */
function at(object: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? Reflect.get(v, k.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined),
      object,
    );
}

/** A field path (`spec.acme.solvers[0].dns01`) as a JSON pointer. */
const pointerOf = (path: string) =>
  `/${path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .join('/')}`;

export function label(object: KubeObject): string {
  return `${object.kind}/${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}

const versionsText = (versions: string[]) =>
  `cert-manager ${versions.map((v) => `v${v.replace(/^v/, '')}`).join(' and ')}`;

/** The schema's refusals, then the webhook's for the releases whose schema accepts the object. */
function cmFindings(object: KubeObject, from: string[]): RenderFinding[] {
  const bySchema = new Map<string, { error: ErrorObject; versions: string[] }>();
  const byWebhook = new Map<string, { path: string; versions: string[] }>();
  for (const { validate, version } of crdValidators(object.kind)) {
    // The webhook sees the object only once the schema accepts it; its refusals are said too, so that
    // one fix does not just uncover the next.
    if (object.kind === 'ClusterIssuer' || object.kind === 'Issuer') {
      const release = version.replace(/^v/, '');
      for (const e of isOneOf(WEBHOOK_VERSIONS, release) ? issuerErrors(object.spec, release) : []) {
        // A value known only at deploy time is not judged.
        if (isUnknownValue(at(object, pointerOf(e.path)))) continue;
        const seen = byWebhook.get(e.text) ?? { path: e.path, versions: [] };
        seen.versions.push(version);
        byWebhook.set(e.text, seen);
      }
    }
    if (validate(object)) continue;
    for (const error of (validate.errors ?? []).filter(
      (e) => meaningful(e) && !isUnknownValue(at(object, e.instancePath)),
    )) {
      const key = `${error.instancePath} ${error.message}`;
      const seen = bySchema.get(key) ?? { error, versions: [] };
      seen.versions.push(version);
      bySchema.set(key, seen);
    }
  }
  // A field the schema already refuses (a missing required one) is not said again by the webhook.
  const refused = new Set([...bySchema.values()].map(({ error }) => dotted(schemaPath(error))));
  for (const [text, { path }] of byWebhook) if (refused.has(dotted(path))) byWebhook.delete(text);
  return [
    ...[...bySchema.values()].map(({ error: e, versions }): RenderFinding => ({
      variable: variableFor(object, schemaPath(e), from) ?? label(object),
      severity: 'error',
      rule: 'platform-schema',
      message: `${label(object)}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'} (${versionsText(versions)} schema${versions.length > 1 ? 's' : ''}): the API server would refuse this object.`,
      ...(advice(e) ? { advice: advice(e) } : {}),
    })),
    ...[...byWebhook].map(([text, { path, versions }]): RenderFinding => {
      const name = variableFor(object, path, from);
      return {
        variable: name ?? label(object),
        severity: 'error',
        rule: 'cert-manager-webhook',
        message: `${label(object)}: admission webhook "webhook.cert-manager.io" denied the request: ${text} (${versionsText(versions)}): the API server refuses the object, and the deployment stops there.`,
        advice: webhookAdvice(path, name),
      };
    }),
  ];
}

function schemaPath(e: ErrorObject): string {
  // A missing property is reported on its parent: the variable is the property's.
  return e.keyword === 'required' ? `${e.instancePath}/${String(e.params.missingProperty)}` : e.instancePath;
}

function variableFor(object: KubeObject, path: string, from: string[]): string | undefined {
  if (dotted(path) === 'spec.ca.secretName') return from.find((n) => /_(ca|self_signed)_secret_name$/.test(n));
  return variableAt(object, path);
}

function webhookAdvice(path: string, name: string | undefined): string {
  const field = dotted(path);
  const own = name ? defaultName(name) : undefined;
  if (name && own) return `Remove ${name} to use the role's default (${own}), or give it a value.`;
  if (field.endsWith('rfc2136.tsigAlgorithm'))
    return "Use one of HMACMD5, HMACSHA1, HMACSHA256, HMACSHA512 (any case): cert-manager does not read BIND's hmac-sha256 spelling.";
  if (field.endsWith('rfc2136.nameserver'))
    return 'Write host:port or a host alone (cert-manager adds :53); an IPv6 address in brackets, e.g. [2001:db8::1]:53.';
  if (field.endsWith('route53.region'))
    return 'Set cluster_issuer_acme_route53_region (cert-manager v1.15.5, which the platform pins, requires it; v1.21.1 does not).';
  return name
    ? `Give ${name} a value: cert-manager does not accept it empty.`
    : 'Give the field a value: cert-manager does not accept it empty.';
}

/** ajv reports each failed branch of a oneOf/anyOf too; the leaf errors say what is wrong. */
function meaningful(e: ErrorObject): boolean {
  return e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if';
}

function advice(e: ErrorObject): string | undefined {
  if (e.keyword === 'format' && e.params.format === 'byte') {
    return 'This field takes base64 data: the platform passes the variable as written, so give the bundle base64-encoded (base64 -w0 bundle.pem).';
  }
  const allowed: unknown = e.params.allowedValues;
  if (e.keyword === 'enum' && Array.isArray(allowed)) return `Use one of: ${allowed.map(String).join(', ')}.`;
  if (e.keyword === 'type') return 'Quote the value in the inventory, so that it is text.';
  return undefined;
}

function nameFindings(object: KubeObject, from: string[], nameFrom?: string): RenderFinding[] {
  const out: RenderFinding[] = [];
  const name = object.metadata.name;
  const who = nameFrom ?? from[0] ?? label(object);
  if (isUnknownValue(name)) return out;
  if (typeof name !== 'string' || name === '') {
    return [
      {
        variable: who,
        severity: 'error',
        rule: 'api-refuses',
        message: `${object.kind} without a name (${who} is empty or null): the API server refuses it ("metadata.name: Required value: name or generateName is required"), and the deployment stops there.`,
        advice: `Give ${who} a value, or remove the line to use the role's default.`,
      },
    ];
  }
  const rbac = object.kind === 'Role' || object.kind === 'RoleBinding';
  // RBAC names are path segments (':' allowed); other objects' names are DNS subdomains.
  const valid = rbac ? !/[/%]/.test(name) && name !== '.' && name !== '..' : isDnsSubdomain(name);
  if (!valid) {
    out.push({
      variable: who,
      severity: 'error',
      rule: 'api-refuses',
      message: `${label(object)}: "${name}" is not a valid ${object.kind} name: the API server would refuse it.`,
      advice: rbac
        ? 'Leave out "/" and "%".'
        : 'Use lower-case letters, digits, "-" and "." only, starting and ending with a letter or digit.',
    });
  }
  const namespace = object.metadata.namespace;
  if (
    namespace !== undefined &&
    !isUnknownValue(namespace) &&
    (typeof namespace !== 'string' || namespace === '' || !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace))
  ) {
    out.push({
      variable: who,
      severity: 'error',
      rule: 'api-refuses',
      message: `${label(object)}: the namespace "${String(namespace)}" is not a valid namespace name: the API server would refuse the object.`,
      advice: 'Use a DNS label: lower-case letters, digits and "-".',
    });
  }
  return out;
}

/** A Secret's keys, and its `stringData` values: the API server decodes them as text. */
function secretFindings(object: KubeObject, from: string[]): RenderFinding[] {
  if (object.kind !== 'Secret') return [];
  const out: RenderFinding[] = [];
  const data = (object.stringData ?? object.data ?? {}) as Record<string, unknown>; // the role writes a mapping
  for (const [key, value] of Object.entries(data)) {
    if (!isSecretDataKey(key))
      out.push({
        variable: from[0] ?? label(object),
        severity: 'error',
        rule: 'api-refuses',
        message: `${label(object)}: "${key}" is not a valid Secret data key.`,
      });
    if (value !== null && typeof value !== 'string') {
      const type = typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'bool' : 'object';
      const variable =
        from.find((n) => n.endsWith(`_${key.replace(/-/g, '_')}`)) ??
        from.find((n) => !n.endsWith('_secret_name')) ??
        from[0] ??
        label(object);
      out.push({
        variable,
        severity: 'error',
        rule: 'api-refuses',
        message: `${label(object)}: stringData.${key} would be a ${type === 'bool' ? 'boolean' : type}, not text (the role passes "{{ ${variable} }}" with the YAML type kept): the API server refuses the Secret ("json: cannot unmarshal ${type} into Go struct field Secret.stringData of type string"), and the deployment stops there.`,
        advice: `Quote the value of ${variable} in the inventory ("...", or !unsafe '...'), so that it is text.`,
      });
    }
  }
  return out;
}
