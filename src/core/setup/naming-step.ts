/**
 * The walkthrough's first question on a new inventory: which variable names the deployment reads. The
 * real platform reads its own (route53, cloudflare, venafi, ...); cloudgate's neutral names are read
 * only by a deployment written for them. The answer travels to the plan as the answers key `names`.
 */
import type { NamesDetection } from '../config/naming-detect.js';
import { withProduct } from '../config/platform-names.js';
import type { NamingProfile } from '../render/names.js';
import type { Step, WizardAnswers } from './wizard-flow.js';

export const NAMES_STEP = 'names';

export function namingStep(detection: NamesDetection): Step {
  const neutral = ['clouddnsb', 'dnsc', 'commercialca'].map(withProduct).join(', ');
  return {
    id: NAMES_STEP, kind: 'select', section: 'Variable names', required: true, secret: false,
    title: 'Which variable names does your deployment read?',
    help: detection.profile
      ? `Detected from ${detection.evidence}: change it only if that file belongs to another deployment`
      : 'Nothing in the inventory folder tells: the real platform reads its own names',
    defaultValue: detection.profile ?? 'platform',
    choices: [
      { value: 'platform', label: "The platform's own names", help: 'openstack_helm_ingress_*, route53, cloudflare, venafi, cert-manager-...: what the real platform reads' },
      { value: 'spec', label: "cloudgate's neutral names", help: `cloud_helm_ingress_*, ${neutral}, ...: only for a deployment written to read them` },
    ],
  };
}

/** The names the answers chose, else `fallback`. */
export function namesOf(answers: WizardAnswers, fallback?: NamingProfile): NamingProfile | undefined {
  const chosen = answers[NAMES_STEP];
  return chosen === 'platform' || chosen === 'spec' ? chosen : fallback;
}
