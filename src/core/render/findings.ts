/**
 * What the rendering alone finds (a variable the platform's templates need but the inventory leaves
 * unset, an object the API server, cert-manager's webhook or a solver would refuse), as inventory
 * findings: the walkthrough asks again where the deployment would fail. The whole judgement (with the
 * inventory rules) is judge.ts.
 */
import type { Finding } from '../findings.js';
import { merge, renderJudgement } from './judge.js';
import type { NamingProfile } from './names.js';
import type { RenderOptions } from './objects.js';

export { PLATFORM_NEEDS, PLATFORM_SCHEMA } from './judge.js';

/**
 * The render findings not already said by `known` (the inventory rules' findings): a variable that
 * already has an error there is not reported twice.
 */
export function platformFindings(
  values: Record<string, unknown>,
  known: Finding[] = [],
  profile: NamingProfile = 'platform',
  options: RenderOptions & { yamlNulls?: boolean } = {},
): Finding[] {
  // In answers and plans a null removes the variable; only an inventory's own YAML null is a value (yamlNulls).
  const read = options.yamlNulls ? values : Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));
  const rendered = renderJudgement(read, { ...options, profile }).findings;
  return merge(known, rendered).filter((f) => !known.includes(f));
}
