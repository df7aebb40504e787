/**
 * The walkthrough's answers and the inventory: the first answers from an existing inventory's values,
 * and the answers object planSetup takes. Pure.
 */
import { ANNOTATION_PREFIX, ANNOTATION_SUFFIXES } from '../config/variables.js';
import { asRecord } from '../records.js';
import {
  ACCESS_TOKEN,
  ADD_ANNOTATIONS,
  ANNOTATION_STEP,
  CERTIFICATE_TYPE,
  VENAFI_AUTH,
  PRIVATE_CA,
  certificateTypeOf,
  defaultFor,
  hasAcmeServer,
  stepsFor,
  type WizardAnswers,
} from './wizard-flow.js';

/** The walkthrough's defaults from an existing inventory's values. */
export function answersFromInventory(values: Record<string, unknown>): WizardAnswers {
  const answers: WizardAnswers = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === 'string' || typeof v === 'boolean') answers[k] = v;
    else if (typeof v === 'number') answers[k] = String(v);
  }
  if (typeof values.openstack_helm_ingress_secret_name === 'string' && values.openstack_helm_ingress_secret_name) {
    answers[CERTIFICATE_TYPE] = 'wildcard-supplied';
  } else if (
    typeof values.openstack_helm_ingress_wildcard_domain === 'string' &&
    values.openstack_helm_ingress_wildcard_domain
  ) {
    answers[CERTIFICATE_TYPE] = 'wildcard-auto';
  }
  if (values.cluster_issuer_venafi_username && !values[ACCESS_TOKEN]) answers[VENAFI_AUTH] = 'password';
  const map = asRecord(values.atmosphere_ingress_annotations ?? values.ingress_global_annotations);
  if (map) {
    for (const suffix of ANNOTATION_SUFFIXES) {
      const v = map[`${ANNOTATION_PREFIX}/${suffix}`];
      if (typeof v === 'string' && v) {
        answers[`${ANNOTATION_STEP}${suffix}`] = v;
        answers[ADD_ANNOTATIONS] = 'true';
      }
    }
  }
  return answers;
}

/**
 * The answers object for planSetup: inventory variable names and the tool keys, only for the chosen branch.
 * A question left empty is `null`, which removes a value the inventory held before.
 */
export function toPlanAnswers(answers: WizardAnswers): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const annotations: Record<string, string> = {};
  // All steps, also those not asked (issuer-only mode): their answers are the inventory's values.
  for (const step of stepsFor(answers)) {
    const value = answers[step.id] ?? (step.kind === 'select' ? defaultFor(step, answers) : undefined);
    if (step.id.startsWith(ANNOTATION_STEP)) {
      if (typeof value === 'string' && value.trim())
        annotations[`${ANNOTATION_PREFIX}/${step.id.slice(ANNOTATION_STEP.length)}`] = value.trim();
      continue;
    }
    if (step.id === CERTIFICATE_TYPE || step.id === VENAFI_AUTH || step.id === ADD_ANNOTATIONS) continue;
    if (value === undefined) continue;
    if (value === '') out[step.id] = step.variable ? null : undefined;
    else if (step.variable?.type === 'bool') out[step.id] = value === true || value === 'true';
    else out[step.id] = typeof value === 'string' ? value.trim() : value;
    if (out[step.id] === undefined) delete out[step.id];
  }
  const type = certificateTypeOf(answers);
  if (type === 'individual') {
    out.openstack_helm_ingress_wildcard_domain = null;
    out.openstack_helm_ingress_secret_name = null;
  }
  if (type === 'wildcard-auto') out.openstack_helm_ingress_secret_name = null;
  if (type === 'wildcard-supplied') out.cluster_issuer_type = 'none';
  // Not asked without a server, so a value left from before would be stale: remove it.
  if (out.cluster_issuer_type === 'acme' && !hasAcmeServer(answers)) out[PRIVATE_CA] = null;
  if (Object.keys(annotations).length > 0) out.atmosphere_ingress_annotations = annotations;
  else if (answers[ADD_ANNOTATIONS] === 'false') out.atmosphere_ingress_annotations = null;
  return out;
}
