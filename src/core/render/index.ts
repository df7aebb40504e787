/**
 * `cloudgate render`: the objects the platform creates from the inventory, checked as the API server
 * would check them, with every Secret value masked.
 */
import { stringify } from 'yaml';
import { checkObjects } from './check.js';
import type { NamingProfile } from './names.js';
import { renderPlatform, type RenderOptions } from './objects.js';
import type { HelmRelease, KubeObject, RenderFinding, RenderedObject } from './types.js';

export const RENDER_SCHEMA = 'cloudgate.render/v1';
const MASK = '********';

export interface RenderResult {
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: RenderFinding[];
}

/** Renders and checks; the objects returned are masked (no Secret value survives). */
export function renderInventory(values: Record<string, unknown>, profile: NamingProfile = 'platform', options: RenderOptions = {}): RenderResult {
  const rendered = renderPlatform(values, profile, options);
  const findings = [...rendered.findings, ...checkObjects(rendered.objects)];
  return { objects: rendered.objects.map((o) => ({ ...o, object: masked(o.object) })), helm: rendered.helm, findings };
}

function masked(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret') return object;
  const hide = (data: unknown) => Object.fromEntries(Object.keys((data ?? {})).map((k) => [k, MASK]));
  return { ...object, ...(object.stringData ? { stringData: hide(object.stringData) } : {}), ...(object.data ? { data: hide(object.data) } : {}) };
}

export function renderJson(result: RenderResult): string {
  return JSON.stringify({ schema: RENDER_SCHEMA, objects: result.objects.map((o) => o.object), helm: result.helm, findings: result.findings }, null, 2) + '\n';
}

/**
 * Multi-document YAML, each object under a comment naming the variables that made it. A webhook's Helm
 * release is no Kubernetes object: it is a comment, where the platform installs it (after the
 * self-signed ClusterIssuer, before the solver's objects), at the top of the next document.
 */
export function renderYaml(result: RenderResult): string {
  const helm = result.helm.map(helmComment).join('');
  const helmAt = Math.min(1, result.objects.length - 1);
  return result.objects.map(({ object, from }, i) => {
    const made = from.length > 0 ? `# made from: ${[...new Set(from)].join(', ')}\n` : '# always created by the platform\n';
    const name = `${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
    return `${i === 0 ? '' : '---\n'}${i === helmAt ? helm : ''}# ${object.kind} ${name}\n${made}${stringify(object, { lineWidth: 0 })}`;
  }).join('');
}

function helmComment(h: HelmRelease): string {
  const values = stringify(h.values, { lineWidth: 0 }).trimEnd().split('\n').map((line) => `#   ${line}\n`).join('');
  return `# Helm release ${h.namespace}/${h.name} (a webhook the solver needs; installed with Helm, not applied), values:\n${values}`;
}
