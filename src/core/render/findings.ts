/**
 * What the rendering finds (a variable the platform's templates need but the inventory leaves unset,
 * an object cert-manager's schema or Kubernetes would refuse), as inventory findings: setup and
 * `doctor --only inventory` then refuse what the deployment would fail on.
 */
import type { Finding } from '../findings.js';
import { variable } from '../config/variables.js';
import { checkObjects } from './check.js';
import type { NamingProfile } from './names.js';
import { renderPlatform, type RenderOptions } from './objects.js';
import type { RenderFinding } from './types.js';

/** Rule ids: an unset variable the platform needs, and an object the API server would refuse. */
export const PLATFORM_NEEDS = 'platform-needs';
export const PLATFORM_SCHEMA = 'platform-schema';

/**
 * The render findings not already said by `known` (the inventory rules' findings): a variable that
 * already has an error there is not reported twice.
 */
export function platformFindings(values: Record<string, unknown>, known: Finding[] = [], profile: NamingProfile = 'platform', options: RenderOptions & { yamlNulls?: boolean } = {}): Finding[] {
  // In answers and plans a null removes the variable; only an inventory's own YAML null is a value (yamlNulls).
  const read = options.yamlNulls ? values : Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));
  // The same two steps as renderInventory: the branch's own findings, then the checks of its objects.
  const rendered = renderPlatform(read, profile, options);
  const reported = new Set(known.filter((f) => f.severity === 'error' && f.variable).map((f) => f.variable));
  const out = [
    ...rendered.findings.map((f) => toFinding(f, PLATFORM_NEEDS)),
    ...checkObjects(rendered.objects).map((f) => toFinding(f, PLATFORM_SCHEMA)),
  ];
  return out.filter((f) => !(f.variable && reported.has(f.variable)));
}

function toFinding(f: RenderFinding, rule: string): Finding {
  const about = variable(f.variable) ? { variable: f.variable } : {};
  return { rule, severity: f.severity, ...about, message: f.message, ...(f.advice ? { advice: f.advice } : {}) };
}
