/**
 * One field's validation in the walkthrough: the format of a typed value, then the rules of the
 * inventory that concern it given the answers before it. Pure, but for reading again the TSIG key file
 * an answer names (its name and algorithm are compared with the answers, as the plan compares them).
 */
import { isDnsLabel } from '../kube/names.js';
import { respell } from '../config/neutral-names.js';
import { issuerUrlProblems } from '../config/formats.js';
import { formatRule, validate } from '../config/validate.js';
import { platformFindings } from '../render/findings.js';
import { SECRET as TSIG_SECRET } from '../config/tsig-key.js';
import { NAMESPACE, type AnswerValue, type Step, type WizardAnswers } from './wizard-flow.js';
import { toPlanAnswers } from './wizard-answers.js';
import { answeredKeyFile } from './wizard-files.js';

/** The inline error for a typed value, or undefined when it is acceptable. */
export function validateField(step: Step, raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return step.required ? (step.requiredError ?? `${step.title} is required.`) : undefined;
  if (step.id === NAMESPACE) {
    const bad = value
      .split(',')
      .map((n) => n.trim())
      .find((n) => !isDnsLabel(n));
    return bad === undefined
      ? undefined
      : `"${bad}" is not a Kubernetes namespace name (lower-case letters, digits and "-").`;
  }
  // The same format rules as the answers file and the doctor (an http:// URL is refused here too).
  const problem = step.variable ? formatRule(step.variable, value)[0] : undefined;
  return problem ? [problem.message, problem.advice].filter(Boolean).join(' ') : undefined;
}

/**
 * The inline error for a value about to be accepted: the field's own format first, then the rules of
 * validate() that concern this variable given the answers before it (e.g. HTTP-01 with a wildcard).
 */
export function stepError(step: Step, value: AnswerValue, answers: WizardAnswers): string | undefined {
  const error = fieldError(step, value, answers);
  return error === undefined ? undefined : respell(error, step.names ?? 'platform');
}

function fieldError(step: Step, value: AnswerValue, answers: WizardAnswers): string | undefined {
  // A key file given as the TSIG secret was read and checked on input (secretInput); the plan reads it again.
  if (step.id === TSIG_SECRET && typeof value === 'string' && value.startsWith('file:')) return undefined;
  if (typeof value === 'string' && step.kind !== 'select') {
    const own = validateField(step, value);
    if (own) return own;
  }
  if (!step.variable || step.kind === 'file') return undefined;
  const values = toPlanAnswers({ ...answers, [step.id]: value });
  const tsigKey = answeredKeyFile(values);
  if (tsigKey) values[TSIG_SECRET] = tsigKey.secret;
  const rules = validate(values, tsigKey ? { sources: { files: {}, tsigKey } } : {});
  // Then what the deployment would fail on (e.g. the route53 region, which its templates need).
  const f = [...rules, ...platformFindings(values, rules, step.names ?? 'platform')].find(
    (x) => x.severity === 'error' && x.variable === step.id,
  );
  return f ? [f.message, f.advice].filter(Boolean).join(' ') : undefined;
}

/** Whether a question may be left empty, given the answers before it (a row's `required` is not all:
 * e.g. the route53 role is optional for ambient but required for kubernetes). */
export function isOptional(step: Step, answers: WizardAnswers): boolean {
  return !step.required && step.kind !== 'select' && stepError(step, '', answers) === undefined;
}

/** The inline error for the public issuer URL the discovery checks fetch (https, no query or fragment). */
export function issuerUrlError(raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return 'Give the public issuer URL, e.g. https://oidc.example.com/cluster1.';
  const problems = issuerUrlProblems(value);
  if (problems.length === 0) return undefined;
  return URL.canParse(value) ? `${value} is not usable as the issuer URL: ${problems.join(' ')}` : problems[0];
}
