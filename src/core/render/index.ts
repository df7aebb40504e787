/**
 * `cloudgate render`: the objects the platform creates from the inventory, checked as the API server
 * would check them, with every Secret value masked.
 */
import { stringify } from 'yaml';
import { checkObjects } from './check.js';
import type { NamingProfile } from './names.js';
import { renderPlatform } from './objects.js';
import type { HelmRelease, KubeObject, RenderFinding, RenderedObject } from './types.js';

export const RENDER_SCHEMA = 'cloudgate.render/v1';
const MASK = '********';

export interface RenderResult {
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: RenderFinding[];
}

/** Renders and checks; the objects returned are masked (no Secret value survives). */
export function renderInventory(values: Record<string, unknown>, profile: NamingProfile = 'spec'): RenderResult {
  const rendered = renderPlatform(values, profile);
  const findings = [...rendered.findings, ...checkObjects(rendered.objects)];
  return { objects: rendered.objects.map((o) => ({ ...o, object: masked(o.object) })), helm: rendered.helm, findings };
}

function masked(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret') return object;
  const hide = (data: unknown) => Object.fromEntries(Object.keys((data ?? {}) as object).map((k) => [k, MASK]));
  return { ...object, ...(object.stringData ? { stringData: hide(object.stringData) } : {}), ...(object.data ? { data: hide(object.data) } : {}) };
}

export function renderJson(result: RenderResult): string {
  return JSON.stringify({ schema: RENDER_SCHEMA, objects: result.objects.map((o) => o.object), helm: result.helm, findings: result.findings }, null, 2) + '\n';
}

/** Multi-document YAML, each object under a comment naming the variables that made it. */
export function renderYaml(result: RenderResult): string {
  const docs = result.objects.map(({ object, from }) => {
    const made = from.length > 0 ? `# made from: ${[...new Set(from)].join(', ')}\n` : '# always created by the platform\n';
    return `# ${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}\n${made}${stringify(object, { lineWidth: 0 })}`;
  });
  const helm = result.helm.map((h) => `# Helm release ${h.namespace}/${h.name} (a webhook the solver needs), values:\n${stringify(h.values, { lineWidth: 0 }).replace(/^/gm, '#   ')}`);
  return [...helm, ...docs].map((d, i) => (i === 0 ? d : `---\n${d}`)).join('');
}
