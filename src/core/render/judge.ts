/**
 * One judgement of the certificate variables, which `cloudgate render`, setup's review and `doctor
 * --only inventory` all give: the inventory rules (validate.ts) on the values as Ansible templates
 * them, then what the platform's role renders from them (objects.ts), checked as the API server,
 * cert-manager's webhook and the solvers would take it (check.ts, issuance.ts), and the values Jinja
 * would misread (value-hazards.ts). A finding the rules already make on a variable is not said twice.
 */
import { validate, type ValidateOptions } from '../config/validate.js';
import { VARIABLES, variable } from '../config/variables.js';
import { AnsibleTagged, isTagged, isVaulted } from '../inventory/ansible-tagged.js';
import type { Finding } from '../findings.js';
import { registerSecret } from '../secrets.js';
import { asRecord } from '../records.js';
import { checkObjects } from './check.js';
import { issuanceFindings } from './issuance.js';
import type { NamingProfile } from './names.js';
import { renderPlatform, type ModelRendered, type RenderOptions } from './objects.js';
import type { HelmRelease, RenderFinding, RenderedObject } from './types.js';
import { valueHazards } from './value-hazards.js';
import { RoleValues } from './values.js';

/** Rule ids of what the render finds (docs/checks.md). */
export const PLATFORM_NEEDS = 'platform-needs';
export const PLATFORM_SCHEMA = 'platform-schema';

export interface ValuesJudgement {
  /** The objects the role applies (unmasked: the caller masks Secret values before showing them). */
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: Finding[];
  /** The model's rendering, with what it read. */
  model: ModelRendered;
}

export interface JudgeOptions extends RenderOptions, ValidateOptions {
  profile?: NamingProfile;
  /**
   * The values the rules check, when they differ from what the role reads (`meant`: the neutral
   * aliases translated); default: the same values.
   */
  meant?: Record<string, unknown>;
  /** Variables whose value stays vaulted (no password opens it): their problems are not judged. */
  unchecked?: ReadonlySet<string>;
}

/** The judgement of values keyed by the platform's names, as the role reads them. */
export function judgeValues(values: Record<string, unknown>, options: JudgeOptions = {}): ValuesJudgement {
  const rendered = renderJudgement(values, options);
  return { ...rendered, findings: merge(ruleFindings(values, options), rendered.findings, options.unchecked) };
}

/** The inventory rules (validate.ts) on the values as Ansible templates them. */
export function ruleFindings(values: Record<string, unknown>, options: JudgeOptions = {}): Finding[] {
  return validate(forRules(options.meant ?? values, options), { now: options.now, sources: options.sources });
}

/** What cloudgate judges on rendered objects, whoever rendered them: the API server, cert-manager, the solvers. */
export function objectFindings(
  objects: RenderedObject[],
  helm: HelmRelease[],
  values: Record<string, unknown>,
  conversion: 'literal' | 'native',
): RenderFinding[] {
  return [...checkObjects(objects), ...issuanceFindings(objects, helm, { values, conversion })];
}

/** The render's part alone: the model's objects and what it, the API server, cert-manager and the solvers say. */
export function renderJudgement(
  values: Record<string, unknown>,
  options: JudgeOptions = {},
): { objects: RenderedObject[]; helm: HelmRelease[]; findings: RenderFinding[]; model: ModelRendered } {
  const model = renderPlatform(values, options.profile ?? 'platform', options);
  registerSecrets(model.objects);
  const findings = [
    ...model.findings,
    ...objectFindings(model.objects, model.helm, values, options.conversion ?? 'literal'),
    ...valueHazards(values, model.read),
  ];
  return { objects: model.objects, helm: model.helm, findings, model };
}

/** The rules' findings, then the render's not already said: one list, no variable judged twice. */
export function merge(
  rules: Finding[],
  rendered: RenderFinding[],
  unchecked: ReadonlySet<string> = new Set(),
): Finding[] {
  const errors = new Set(rules.filter((f) => f.severity === 'error' && f.variable).map((f) => f.variable));
  const said = new Set(rules.map((f) => `${f.rule} ${f.variable ?? ''}`));
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of [...rules, ...rendered.map(toFinding)]) {
    if (f.variable && unchecked.has(f.variable)) continue; // the vault's own finding says it stays vaulted
    const fromRender = !rules.includes(f);
    if (fromRender && f.variable && errors.has(f.variable) && !f.rule.startsWith('template-')) continue;
    if (fromRender && said.has(`${f.rule} ${f.variable ?? ''}`)) continue;
    const key = `${f.rule} ${f.variable ?? ''} ${f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

export function toFinding(f: RenderFinding): Finding {
  const about = variable(f.variable) || /^[a-z_][a-z0-9_]*$/.test(f.variable) ? { variable: f.variable } : {};
  return {
    rule: f.rule ?? PLATFORM_NEEDS,
    severity: f.severity,
    ...about,
    message: f.message,
    ...(f.advice ? { advice: f.advice } : {}),
  };
}

/**
 * What the rules check: each variable of the table as Ansible templates it (a template naming other
 * variables, resolved; one known only at deploy time stays as written, which the rules skip), a
 * vaulted value opened as literal text.
 */
function forRules(values: Record<string, unknown>, options: JudgeOptions): Record<string, unknown> {
  const role = new RoleValues(values, options.profile ?? 'platform', { objects: [], helm: [], findings: [] }, options);
  const out: Record<string, unknown> = { ...values };
  for (const row of VARIABLES) {
    const raw = values[row.name];
    if (raw === undefined) continue;
    if (isVaulted(raw) && options.open) {
      try {
        out[row.name] = new AnsibleTagged('!unsafe', options.open(raw.text));
      } catch {
        // stays vaulted: the vault findings say why
      }
      continue;
    }
    if (isTagged(raw) || typeof raw !== 'string' || !raw.includes('{')) continue;
    const r = role.resolved(row.name);
    if ('value' in r) out[row.name] = typeof r.value === 'string' ? new AnsibleTagged('!unsafe', r.value) : r.value;
  }
  return out;
}

function registerSecrets(objects: RenderedObject[]): void {
  for (const { object } of objects) {
    if (object.kind !== 'Secret') continue;
    for (const [key, value] of Object.entries(asRecord(object.stringData) ?? {})) {
      // Every Secret value is masked; the CA certificate is public.
      if (typeof value === 'string' && value.length >= 4 && key !== 'tls.crt') registerSecret(value);
    }
  }
}
