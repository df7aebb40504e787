/**
 * The setup walkthrough as data: which question comes next for the answers so far (derived from
 * the variables table), back navigation, one field's validation, and turning the answers into the
 * `answers` object that planSetup takes. The Ink screens and the plain line mode only render this.
 * Everything is pure except checkFileInput, which reads the file an operator names.
 */
import { isDnsLabel } from '../kube/names.js';
import { INGRESS_NAMESPACES } from '../kube/platform.js';
import { DEFAULT_NAMESPACE } from '../config/answers.js';
import { platformValue, respell, spelled } from '../config/platform-names.js';
import type { NamingProfile } from '../render/names.js';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { issuerUrlProblems } from '../config/formats.js';
import { UsageError } from '../errors.js';
import type { Finding } from '../findings.js';
import { readRegularFileSync } from '../safe-read.js';
import { redact, registerSecret } from '../secrets.js';
import { loadSuppliedWildcard } from '../tls/supplied.js';
import { derError, looksLikeDer } from '../tls/pem.js';
import { pemVariableFindings } from '../tls/variable-rules.js';
import type { NamesDetection } from '../config/naming-detect.js';
import { NAMES_STEP, namesOf, namingStep } from './naming-step.js';
import { formatRule, validate } from '../config/validate.js';
import { PLATFORM_NEEDS, platformFindings } from '../render/findings.js';
import {
  ANNOTATION_PREFIX,
  ANNOTATION_SUFFIXES,
  VARIABLES,
  applies,
  choicesOf,
  variable,
  type Variable,
} from '../config/variables.js';

export type CertificateType = 'individual' | 'wildcard-auto' | 'wildcard-supplied';
export type AnswerValue = string | boolean;
/** Keyed by step id: inventory variable names, tool keys, and the walkthrough's own choices. */
export type WizardAnswers = Record<string, AnswerValue | undefined>;

export type StepKind = 'select' | 'text' | 'secret' | 'file';

export interface Choice {
  value: string;
  label: string;
  /** The one-line explanation shown while the choice is highlighted. */
  help?: string;
}

export type FileRole = 'wildcard-certificate' | 'wildcard-key' | 'pem';

export interface Step {
  id: string;
  kind: StepKind;
  /** The question, one short line. */
  title: string;
  /** One line of explanation under the question. */
  help: string;
  section: string;
  required: boolean;
  choices?: Choice[];
  /** The inventory row this step sets, when it sets one. */
  variable?: Variable;
  fileRole?: FileRole;
  /** The value is a secret: masked while typed, never shown back. */
  secret: boolean;
  example?: string;
  /** The value offered when neither the answers nor the inventory have one. */
  defaultValue?: string;
  /** The error for an empty answer to a required question, when `<title> is required.` says too little. */
  requiredError?: string;
  /** The variable names of the inventory: the step's texts and its errors are spelled that way. */
  names?: NamingProfile;
}

/** Walkthrough-only keys: they choose the branch and are never written as such. */
export const CERTIFICATE_TYPE = 'certificate_type';
export const COMMERCIALCA_AUTH = 'commercialca_auth';
export const ADD_ANNOTATIONS = 'add_subject_annotations';
export const WILDCARD_CERTIFICATE_FILE = 'wildcard_certificate_file';
export const WILDCARD_KEY_FILE = 'wildcard_key_file';
export const NAMESPACE = 'namespace';
const ANNOTATION_STEP = 'annotation:';
const ACCESS_TOKEN = 'cluster_issuer_commercialca_access_token';
const ACME_SERVER = 'cluster_issuer_acme_server';
const PRIVATE_CA = 'cluster_issuer_acme_private_ca';
/** Rows the walkthrough asks through its own steps (certificate type, issuer, annotations). */
const OWN_STEPS = new Set([
  'cloud_helm_ingress_wildcard_domain', 'cloud_helm_ingress_secret_name', 'cluster_issuer_type',
  'platform_ingress_annotations', 'ingress_global_annotations',
]);

export interface FlowOptions {
  /** Ask only the issuer part (used by `cloudgate regenerate`). */
  only?: 'issuer';
  /** The variable names the inventory uses: each question names its variable that way. */
  names?: NamingProfile;
  /** `--namespace` was given: the TLS secret's namespaces are not asked again. */
  namespacesGiven?: boolean;
  /** A new inventory without --names: first ask which names the deployment reads (naming-step.ts). */
  askNames?: NamesDetection;
}

/** The title every front-end shows above the questions: the command the operator ran. */
export function sessionTitle(options: FlowOptions): string {
  return options.only === 'issuer' ? 'cloudgate regenerate' : 'cloudgate setup';
}

const YES_NO: Choice[] = [
  { value: 'false', label: 'No' },
  { value: 'true', label: 'Yes' },
];

export function certificateTypeOf(answers: WizardAnswers): CertificateType {
  const t = answers[CERTIFICATE_TYPE];
  return t === 'wildcard-auto' || t === 'wildcard-supplied' ? t : 'individual';
}

function certificateTypeStep(): Step {
  return {
    id: CERTIFICATE_TYPE, kind: 'select', title: 'Certificate type', section: 'Endpoint certificates',
    help: 'How the API endpoints get their TLS certificates', required: true, secret: false,
    choices: [
      { value: 'individual', label: 'Individual (default)', help: 'One certificate per API endpoint, issued and renewed automatically; needs no domain' },
      { value: 'wildcard-auto', label: 'Wildcard, issued automatically', help: 'One certificate for *.<domain> covering every endpoint, issued and renewed before expiry' },
      { value: 'wildcard-supplied', label: 'Wildcard, supplied by you', help: 'You provide the certificate and key; cloudgate writes a TLS secret manifest. You renew it yourself before expiry' },
    ],
  };
}

function wildcardDomainStep(names?: NamingProfile): Step {
  return {
    ...stepForVariable(variable('cloud_helm_ingress_wildcard_domain')!, names),
    title: 'Domain of the wildcard certificate, which covers *.<domain>',
    required: true,
    requiredError: 'The domain is required for a wildcard certificate (without it every endpoint gets its own certificate: go back and choose Individual for that).',
  };
}

function fileStep(id: string, title: string, help: string, fileRole: FileRole): Step {
  return { id, kind: 'file', title, help, section: 'Endpoint certificates', required: true, fileRole, secret: false };
}

function issuerStep(answers: WizardAnswers, names?: NamingProfile): Step {
  const step = stepForVariable(variable('cluster_issuer_type')!, names);
  // `none` belongs to a supplied wildcard, which is not asked about its issuer.
  const choices = (step.choices ?? []).filter((c) => c.value !== 'none');
  return { ...step, title: 'Certificate issuer', required: true, choices };
}

/** The question for one row of the variables table. */
export function stepForVariable(row: Variable, names: NamingProfile = 'spec'): Step {
  // The question in plain words; the variable it sets below it, as the inventory spells it.
  const base = {
    id: row.name, title: row.help, help: spelled(row.name, names), section: row.section, required: row.required,
    variable: row, secret: row.secret, example: row.example,
  };
  if (row.type === 'enum') {
    return {
      ...base, kind: 'select',
      choices: (row.values ?? []).map((v) => {
        // Shown as the inventory writes it (`route53` for the platform's names); kept neutral inside.
        const word = names === 'platform' ? String(platformValue(row.name, v)) : v;
        return { value: v, label: v === row.default ? `${word} (default)` : word, help: row.valueHelp?.[v] };
      }),
    };
  }
  if (row.type === 'bool') return { ...base, kind: 'select', choices: YES_NO };
  if (row.type === 'pem-certificate' || row.type === 'pem-key') return { ...base, kind: 'file', fileRole: 'pem' };
  return { ...base, kind: row.secret ? 'secret' : 'text' };
}

function commercialcaAuthStep(): Step {
  return {
    id: COMMERCIALCA_AUTH, kind: 'select', title: 'Commercial CA authentication', section: 'Commercial CA issuer',
    help: 'How the certificate manager signs in to the TPP server of the commercial CA', required: true, secret: false,
    choices: [
      { value: 'token', label: 'Access token (recommended)', help: 'One access token; the username and password method is being phased out' },
      { value: 'password', label: 'Username and password (legacy)', help: 'Legacy: phased out in newer versions of the commercial CA; prefer an access token' },
    ],
  };
}

/** A custom CA only concerns an internal ACME server: without one (a public ACME CA) it is not asked. */
function hasAcmeServer(answers: WizardAnswers): boolean {
  const server = answers[ACME_SERVER];
  return typeof server === 'string' && server.trim() !== '';
}

function issuerDetailSteps(answers: WizardAnswers, names?: NamingProfile): Step[] {
  const choices = choicesOf(answers);
  const steps: Step[] = [];
  const rows = VARIABLES.filter((r) => r.appliesWhen?.issuer && r.asked !== false && !OWN_STEPS.has(r.name) && !r.deprecatedBy && applies(r, choices));
  const usesPassword = answers[COMMERCIALCA_AUTH] === 'password';
  for (const row of rows) {
    if (row.name === PRIVATE_CA && !hasAcmeServer(answers)) continue;
    const credential = row.legacy || row.name === ACCESS_TOKEN;
    if (credential && !steps.some((s) => s.id === COMMERCIALCA_AUTH)) steps.push(commercialcaAuthStep());
    if (credential && Boolean(row.legacy) !== usesPassword) continue;
    const step = stepForVariable(row, names);
    // Only one of the two methods is asked, so the chosen one is required; so is a file the platform needs.
    steps.push(credential || (step.kind === 'file' && neededByPlatform(row.name, answers)) ? { ...step, required: true } : step);
  }
  return steps;
}

/** Whether the platform's templates use the variable without a default (unset, the deployment stops). */
function neededByPlatform(name: string, answers: WizardAnswers): boolean {
  return platformFindings({ ...answers, [name]: undefined }).some((f) => f.rule === PLATFORM_NEEDS && f.variable === name);
}

function annotationSteps(answers: WizardAnswers): Step[] {
  const row = variable('platform_ingress_annotations')!;
  const ask: Step = {
    id: ADD_ANNOTATIONS, kind: 'select', title: 'Add certificate subject annotations?', section: row.section,
    help: 'Optional. Needed when a commercial CA zone enforces subject fields (organization, country, ...)',
    required: true, secret: false, choices: YES_NO,
  };
  if (answers[ADD_ANNOTATIONS] !== 'true') return [ask];
  return [ask, ...ANNOTATION_SUFFIXES.map((suffix) => ({
    id: `${ANNOTATION_STEP}${suffix}`, kind: 'text' as const, title: `${ANNOTATION_PREFIX}/${suffix}`,
    help: `Optional, free text: the certificate's ${suffix.replace('subject-', '')} (leave empty to skip)`,
    section: row.section, required: false, secret: false,
  }))];
}

/** Every question for the answers so far, in order. A step depends only on the answers before it. */
export function stepsFor(answers: WizardAnswers, flow: FlowOptions = {}): Step[] {
  const steps: Step[] = flow.askNames ? [namingStep(flow.askNames)] : [];
  const options = { ...flow, names: namesOf(answers, flow.names) };
  const type = certificateTypeOf(answers);
  if (options.only !== 'issuer') {
    steps.push(certificateTypeStep());
    // Left empty, the platform would silently issue individual certificates: in this branch it is
    // required, and the table's wording ("unset: individual certificates") does not fit the question.
    if (type === 'wildcard-auto') steps.push(wildcardDomainStep(options.names));
    if (type === 'wildcard-supplied') {
      steps.push(
        { ...stepForVariable(variable('cloud_helm_ingress_secret_name')!, options.names), required: true },
        fileStep(WILDCARD_CERTIFICATE_FILE, 'Wildcard certificate file', 'PEM file: the certificate first, then intermediate(s), then root', 'wildcard-certificate'),
        fileStep(WILDCARD_KEY_FILE, 'Wildcard private key file', 'PEM file with the private key of that certificate (checked against it)', 'wildcard-key'),
      );
      if (!options.namespacesGiven) steps.push({
          id: NAMESPACE, kind: 'text', title: 'Namespaces of the TLS secret', section: 'Endpoint certificates',
          help: 'Comma-separated; one Secret in each namespace whose ingress uses it: openstack (APIs), auth-system (Keycloak), monitoring',
          required: true, secret: false, defaultValue: DEFAULT_NAMESPACE, example: INGRESS_NAMESPACES.join(', '),
      });
    }
  }
  // A supplied wildcard needs issuer none and nothing else: no question with one possible answer, and
  // no subject annotations for certificates nobody issues.
  if (type !== 'wildcard-supplied') {
    steps.push(issuerStep(answers, options.names));
    steps.push(...issuerDetailSteps(answers, options.names));
    if (options.only !== 'issuer') steps.push(...annotationSteps(answers));
  }
  return options.names === 'platform' ? steps.map(spelledForPlatform) : steps;
}

/** A step as a platform-names inventory reads it: "DNS-01 via cloudflare", not the neutral word. */
function spelledForPlatform(step: Step): Step {
  const say = (text: string) => respell(text, 'platform');
  return {
    ...step, names: 'platform', title: say(step.title), help: say(step.help), section: say(step.section),
    ...(step.requiredError ? { requiredError: say(step.requiredError) } : {}),
    ...(step.choices ? { choices: step.choices.map((c) => ({ ...c, label: say(c.label), ...(c.help ? { help: say(c.help) } : {}) })) } : {}),
  };
}

// ---------------------------------------------------------------- state and navigation

export interface WizardState {
  answers: WizardAnswers;
  /** Index into stepsFor(answers); equal to its length on the review. */
  index: number;
  options: FlowOptions;
}

/**
 * `stepId`: the question the answer is for. Keys can arrive before the next question is drawn: an
 * answer meant for a question that is no longer current is dropped, never given to the next one.
 */
export type WizardAction = { type: 'answer'; value: AnswerValue; stepId?: string } | { type: 'back' };

export function initialState(answers: WizardAnswers = {}, options: FlowOptions = {}): WizardState {
  return { answers: { ...answers }, index: 0, options };
}

export function currentStep(state: WizardState): Step | undefined {
  return stepsFor(state.answers, state.options)[state.index];
}

export function isReview(state: WizardState): boolean {
  return state.index >= stepsFor(state.answers, state.options).length;
}

/** Answers are kept when going back, including those of a branch no longer chosen. */
export function reduce(state: WizardState, action: WizardAction): WizardState {
  if (action.type === 'back') return { ...state, index: Math.max(0, state.index - 1) };
  const step = currentStep(state);
  if (!step || (action.stepId !== undefined && action.stepId !== step.id)) return state;
  const answers = { ...state.answers, [step.id]: action.value };
  return { ...state, answers, index: state.index + 1 };
}

/** The value a step starts with: the answer already given or in the inventory, else the table default. */
export function defaultFor(step: Step, answers: WizardAnswers): AnswerValue | undefined {
  const given = answers[step.id];
  if (given !== undefined && given !== '') return given;
  if (step.defaultValue !== undefined) return step.defaultValue;
  if (step.kind === 'select') {
    const d = step.variable?.default;
    const offered = step.choices ?? [];
    if (d !== undefined && offered.some((c) => c.value === String(d))) return String(d);
    return offered[0]?.value;
  }
  return undefined;
}

/** Index of the choice to highlight first. */
export function defaultChoiceIndex(step: Step, answers: WizardAnswers): number {
  const d = defaultFor(step, answers);
  const i = (step.choices ?? []).findIndex((c) => c.value === String(d));
  return i < 0 ? 0 : i;
}

// ---------------------------------------------------------------- one field's validation

/** The inline error for a typed value, or undefined when it is acceptable. */
export function validateField(step: Step, raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return step.required ? step.requiredError ?? `${step.title} is required.` : undefined;
  if (step.id === NAMESPACE) {
    const bad = value.split(',').map((n) => n.trim()).find((n) => !isDnsLabel(n));
    return bad === undefined ? undefined : `"${bad}" is not a Kubernetes namespace name (lower-case letters, digits and "-").`;
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
  const error = neutralStepError(step, value, answers);
  return error === undefined ? undefined : respell(error, step.names ?? 'spec');
}

function neutralStepError(step: Step, value: AnswerValue, answers: WizardAnswers): string | undefined {
  if (typeof value === 'string' && step.kind !== 'select') {
    const own = validateField(step, value);
    if (own) return own;
  }
  if (!step.variable || step.kind === 'file') return undefined;
  const values = toPlanAnswers({ ...answers, [step.id]: value });
  const rules = validate(values);
  // Then what the deployment would fail on (e.g. the clouddnsb region, which its templates need).
  const f = [...rules, ...platformFindings(values, rules)].find((x) => x.severity === 'error' && x.variable === step.id);
  return f ? [f.message, f.advice].filter(Boolean).join(' ') : undefined;
}

/** Whether a question may be left empty, given the answers before it (a row's `required` is not all:
 * e.g. the clouddnsb role is optional for ambient but required for clusteroidc). */
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


// ---------------------------------------------------------------- answers for planSetup

/** The walkthrough's defaults from an existing inventory's values. */
export function answersFromInventory(values: Record<string, unknown>): WizardAnswers {
  const answers: WizardAnswers = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === 'string' || typeof v === 'boolean') answers[k] = v;
    else if (typeof v === 'number') answers[k] = String(v);
  }
  if (typeof values.cloud_helm_ingress_secret_name === 'string' && values.cloud_helm_ingress_secret_name) {
    answers[CERTIFICATE_TYPE] = 'wildcard-supplied';
  } else if (typeof values.cloud_helm_ingress_wildcard_domain === 'string' && values.cloud_helm_ingress_wildcard_domain) {
    answers[CERTIFICATE_TYPE] = 'wildcard-auto';
  }
  if (values.cluster_issuer_commercialca_username && !values[ACCESS_TOKEN]) answers[COMMERCIALCA_AUTH] = 'password';
  const map = (values.platform_ingress_annotations ?? values.ingress_global_annotations) as Record<string, unknown> | undefined;
  if (map && typeof map === 'object') {
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
  // The names the first question chose (a new inventory): the plan writes the inventory in them.
  const names = namesOf(answers);
  if (names) out.names = names;
  for (const step of stepsFor(answers)) {
    const value = answers[step.id] ?? (step.kind === 'select' ? defaultFor(step, answers) : undefined);
    if (step.id.startsWith(ANNOTATION_STEP)) {
      if (typeof value === 'string' && value.trim()) annotations[`${ANNOTATION_PREFIX}/${step.id.slice(ANNOTATION_STEP.length)}`] = value.trim();
      continue;
    }
    if (step.id === CERTIFICATE_TYPE || step.id === COMMERCIALCA_AUTH || step.id === ADD_ANNOTATIONS) continue;
    if (step.id === NAMES_STEP) continue;
    if (value === undefined) continue;
    if (value === '') out[step.id] = step.variable ? null : undefined;
    else if (step.variable?.type === 'bool') out[step.id] = value === true || value === 'true';
    else out[step.id] = typeof value === 'string' ? value.trim() : value;
    if (out[step.id] === undefined) delete out[step.id];
  }
  const type = certificateTypeOf(answers);
  if (type === 'individual') {
    out.cloud_helm_ingress_wildcard_domain = null;
    out.cloud_helm_ingress_secret_name = null;
  }
  if (type === 'wildcard-auto') out.cloud_helm_ingress_secret_name = null;
  if (type === 'wildcard-supplied') out.cluster_issuer_type = 'none';
  // Not asked without a server, so a value left from before would be stale: remove it.
  if (out.cluster_issuer_type === 'acme' && !hasAcmeServer(answers)) out[PRIVATE_CA] = null;
  if (Object.keys(annotations).length > 0) out.platform_ingress_annotations = annotations;
  else if (answers[ADD_ANNOTATIONS] === 'false') out.platform_ingress_annotations = null;
  return out;
}

// ---------------------------------------------------------------- file inputs

export interface FileCheck {
  /** What to store as the answer (`file:PATH` for PEM variables, the absolute path for tool keys). */
  value?: string;
  /** Errors keep the walkthrough on this question; warnings are shown and may be accepted. */
  findings: Finding[];
}

/** Reads a file input and runs the certificate checks that can run with the answers so far. */
export function checkFileInput(step: Step, raw: string, answers: WizardAnswers, cwd: string): FileCheck {
  const typed = raw.trim().replace(/^file:/, '').replace(/^~(?=\/)/, homedir());
  const path = resolve(cwd, typed);
  const subject = step.variable?.name ?? step.id;
  let text: string;
  try {
    if (!statSync(path).isFile()) return problem(subject, `${path} is not a file.`, 'Give the path of a PEM file.');
    // Read on the open file: a pipe swapped in after the check is refused, a huge file is not loaded.
    text = readRegularFileSync(path, { what: 'the file' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? / (E[A-Z]+)\.$/.exec((error as Error).message)?.[1];
    if (!code && error instanceof UsageError) return problem(subject, error.message, 'Give the path of a PEM file of at most 1 MiB.');
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable (permission denied)' : `cannot be read (${code ?? String(error)})`;
    return problem(subject, `${path} ${why}.`, 'Check the path; it is relative to the current directory.');
  }
  const isKey = step.fileRole === 'wildcard-key' || step.variable?.type === 'pem-key';
  if (isKey) registerSecret(text);
  const marker = isKey ? /-----BEGIN [A-Z ]*PRIVATE KEY-----/ : /-----BEGIN CERTIFICATE-----/;
  if (!marker.test(text)) {
    // A DER file gets the conversion command, as in the answers mode.
    if (looksLikeDer(text)) {
      const der = derError(path);
      return problem(subject, der.message, der.advice!);
    }
    return problem(subject, `${path} holds no PEM ${isKey ? 'private key' : 'certificate'}.`,
      `Expected a block starting with -----BEGIN ${isKey ? 'PRIVATE KEY' : 'CERTIFICATE'}-----.`);
  }
  const value = step.fileRole === 'pem' ? `file:${path}` : path;
  return { value, findings: certificateFindings(step, path, text, answers, cwd) };
}

function certificateFindings(step: Step, path: string, text: string, answers: WizardAnswers, cwd: string): Finding[] {
  try {
    if (step.fileRole === 'wildcard-key') {
      const certificateFile = String(answers[WILDCARD_CERTIFICATE_FILE] ?? '');
      if (!certificateFile) return [];
      const domain = answers.cloud_helm_ingress_wildcard_domain;
      return loadSuppliedWildcard({
        certificateFile, keyFile: path, fixOrder: false, domain: typeof domain === 'string' && domain ? domain : undefined,
      }).findings;
    }
    if (step.fileRole !== 'pem' || !step.variable) return [];
    const values: Record<string, unknown> = { [step.variable.name]: text };
    const files: Record<string, string> = { [step.variable.name]: path };
    if (step.variable.type === 'pem-key') {
      // The key is checked against the certificate given just before it.
      const certificate = pemOf(answers.cluster_issuer_ca_certificate, cwd);
      if (certificate) values.cluster_issuer_ca_certificate = certificate;
      const certificateFile = answers.cluster_issuer_ca_certificate;
      if (typeof certificateFile === 'string' && certificateFile.startsWith('file:')) files.cluster_issuer_ca_certificate = resolve(cwd, certificateFile.slice(5));
    }
    const name = step.variable.name;
    return pemVariableFindings(values, new Date(), files).filter((f) => f.variable === undefined || f.variable === name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [{ rule: 'certificate-check', variable: step.variable?.name ?? step.id, severity: 'warning', message: `The certificate checks could not run: ${redact(message)}` }];
  }
}

/** The PEM text of an answer given inline or as `file:PATH`. */
export function pemOf(value: AnswerValue | undefined, cwd: string): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (!value.startsWith('file:')) return value;
  try {
    return readRegularFileSync(resolve(cwd, value.slice(5)), { what: 'the PEM file' });
  } catch {
    return undefined;
  }
}

function problem(variable: string, message: string, advice: string): FileCheck {
  return { findings: [{ rule: 'file-input', variable, severity: 'error', message, advice }] };
}
