/**
 * Why the scope was refused, said only as far as something proves it. Keystone answers almost every
 * refused scope with a bare 401 (no such domain, no such project, no role: only its log tells them
 * apart). What the user may read tells more: the projects it may use (with their domains' ids), and a
 * scope by the same name in the domain of a listed project of that name, whose answer names that domain.
 */
import { HttpError } from '../../net/http.js';
import { closest } from '../../closest.js';
import { joinCapped } from '../../bounded.js';
import { StepError } from './advice.js';
import { scope, type ScopeTarget } from './identity.js';
import type { Handover } from './chain.js';
import type { StepEnv } from './step.js';
import { SCOPE_PROOF } from './messages/steps.js';

export async function proveScopeFailure(
  env: StepEnv,
  h: Handover,
  target: ScopeTarget,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof StepError)) return error;
  const { status, said } = error.facts;
  if (status === 400 && typeof said === 'string' && /Expecting to find domain in project/i.test(said)) {
    return new StepError(error.message, SCOPE_PROOF.nameProjectDomain, error.facts);
  }
  const projects = h.projects?.projects;
  if (status !== 401 || !projects || !h.unscoped) return error;
  const listing = joinCapped(projects.map((p) => `${p.name ?? '?'} (${p.id})`));
  if ('id' in target) {
    if (projects.some((p) => p.id === target.id)) return error;
    return new StepError(
      SCOPE_PROOF.idNotAmong(error.message, target.id, projects.length, listing),
      SCOPE_PROOF.chooseId,
      error.facts,
    );
  }
  const named = projects.filter((p) => p.name === target.name);
  if (named.length === 0) {
    const guess = closest(
      target.name,
      projects.flatMap((p) => (p.name ? [p.name] : [])),
    );
    return new StepError(
      SCOPE_PROOF.noNamed(error.message, target.name, listing),
      SCOPE_PROOF.chooseNamed(guess, target.name),
      { ...error.facts, ...(guess ? { did_you_mean: guess } : {}) },
    );
  }
  // The same name in another domain: a scope there that passes proves the configured domain is the wrong one.
  for (const candidate of named.slice(0, 3)) {
    if (!candidate.domain_id || ('id' in target.domain && target.domain.id === candidate.domain_id)) continue;
    try {
      const other = await scope(env, h.unscoped, { name: target.name, domain: { id: candidate.domain_id } });
      const domain = other.value.project.domain;
      const name = domain?.name ?? candidate.domain_id;
      return new StepError(
        SCOPE_PROOF.inOtherDomain(
          error.message,
          target.name,
          name,
          candidate.domain_id,
          'id' in target.domain ? SCOPE_PROOF.domainId(target.domain.id) : SCOPE_PROOF.domainName(target.domain.name),
        ),
        SCOPE_PROOF.setProjectDomain(name, candidate.domain_id),
        { ...error.facts, domain: { id: candidate.domain_id, name } },
      );
    } catch (probe) {
      if (!(probe instanceof StepError || probe instanceof HttpError)) throw probe;
    }
  }
  return error;
}
