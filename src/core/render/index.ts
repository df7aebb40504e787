/**
 * `cloudgate render`: the objects the platform creates from the inventory, checked as the API server
 * would check them, with every Secret value masked.
 */
import { stringify } from 'yaml';
import type { Finding } from '../findings.js';
import type { NamingProfile } from './names.js';
import { merge, renderJudgement } from './judge.js';
import type { RenderOptions } from './objects.js';
import type { HelmRelease, KubeObject, RenderedObject } from './types.js';

export const RENDER_SCHEMA = 'cloudgate.render/v1';
const MASK = '********';

export interface RenderResult {
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: Finding[];
}

/** What the render says of values (judge.ts, without the inventory rules), with every Secret value masked. */
export function renderInventory(
  values: Record<string, unknown>,
  profile: NamingProfile = 'platform',
  options: RenderOptions = {},
): RenderResult {
  const rendered = renderJudgement(values, { ...options, profile });
  return renderedResult({ ...rendered, findings: merge([], rendered.findings) });
}

/** What a judgement shows: the objects with every Secret value masked, the Helm releases, the findings. */
export function renderedResult(judged: {
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: Finding[];
}): RenderResult {
  return {
    objects: judged.objects.map((o) => ({ ...o, object: masked(o.object) })),
    helm: judged.helm,
    findings: judged.findings,
  };
}

function masked(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret') return object;
  const hide = (data: unknown) => Object.fromEntries(Object.keys(data ?? {}).map((k) => [k, MASK]));
  return {
    ...object,
    ...(object.stringData ? { stringData: hide(object.stringData) } : {}),
    ...(object.data ? { data: hide(object.data) } : {}),
  };
}

export function renderJson(
  result: RenderResult,
  engine?: { engine: string; description: string; ansibleCore?: string; collection?: string },
): string {
  const findings = result.findings.map((f) => ({
    rule: f.rule,
    variable: f.variable ?? null,
    severity: f.severity,
    message: f.message,
    ...(f.advice ? { advice: f.advice } : {}),
  }));
  return (
    JSON.stringify(
      {
        schema: RENDER_SCHEMA,
        ...(engine ? { engine } : {}),
        objects: result.objects.map((o) => o.object),
        helm: result.helm,
        findings,
      },
      null,
      2,
    ) + '\n'
  );
}

/**
 * Multi-document YAML, each object under a comment naming the variables that made it. A webhook's Helm
 * release is no Kubernetes object: it is a comment, where the platform installs it (after the
 * self-signed ClusterIssuer, before the solver's objects), at the top of the next document.
 */
export function renderYaml(result: RenderResult): string {
  const helm = result.helm.map(helmComment).join('');
  const helmAt = Math.min(1, result.objects.length - 1);
  return result.objects
    .map(({ object, from }, i) => {
      const made =
        from.length > 0 ? `# made from: ${[...new Set(from)].join(', ')}\n` : '# always created by the platform\n';
      const name = `${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
      return `${i === 0 ? '' : '---\n'}${i === helmAt ? helm : ''}# ${object.kind} ${name}\n${made}${stringify(object, { lineWidth: 0 })}`;
    })
    .join('');
}

function helmComment(h: HelmRelease): string {
  const values = stringify(h.values, { lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map((line) => `#   ${line}\n`)
    .join('');
  return `# Helm release ${h.namespace}/${h.name} (a webhook the solver needs; installed with Helm, not applied), values:\n${values}`;
}
