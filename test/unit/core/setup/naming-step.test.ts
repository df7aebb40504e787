import { describe, expect, it } from 'vitest';
import { NAMES_STEP, namesOf, namingStep } from '../../../../src/core/setup/naming-step.js';
import { stepsFor, toPlanAnswers } from '../../../../src/core/setup/wizard-flow.js';

describe('the naming question of a new inventory', () => {
  it('comes first, offering what the folder told, the platform\'s names when it told nothing', () => {
    const told = stepsFor({}, { askNames: { profile: 'spec', evidence: 'group_vars/all/other.yml (cloud_helm_ingress_wildcard_domain)' } });
    expect(told[0]).toMatchObject({ id: NAMES_STEP, kind: 'select', defaultValue: 'spec' });
    expect(told[0]!.help).toContain('group_vars/all/other.yml');
    expect(stepsFor({}, { askNames: {} })[0]).toMatchObject({ id: NAMES_STEP, defaultValue: 'platform' });
    expect(stepsFor({}, {})[0]!.id).not.toBe(NAMES_STEP);
  });

  it('shows the product beside each neutral word', () => {
    const spec = namingStep({}).choices!.find((c) => c.value === 'spec')!;
    expect(spec.help).toContain('clouddnsb (Route 53)');
    expect(spec.help).toContain('dnsc (Cloudflare)');
  });

  it('the answer spells the next questions and travels to the plan as names', () => {
    const answers = { [NAMES_STEP]: 'platform', cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'clouddnsb' };
    const steps = stepsFor(answers, { askNames: {} });
    expect(steps.find((s) => s.id === 'cluster_issuer_acme_clouddnsb_region')).toMatchObject({ names: 'platform', section: 'DNS-01 provider route53' });
    expect(toPlanAnswers(answers)).toMatchObject({ names: 'platform' });
    expect(toPlanAnswers({ cluster_issuer_type: 'acme' })).not.toHaveProperty('names');
    expect(namesOf({ [NAMES_STEP]: 'nonsense' }, 'spec')).toBe('spec');
  });
});
