/**
 * The setup walkthrough as data: which question comes next for the answers so far (derived from
 * the variables table) and back navigation. One field's validation (wizard-validate.ts), the answers
 * for planSetup (wizard-answers.ts) and the file questions (wizard-files.ts) are re-exported here.
 * The Ink screens and the plain line mode only render this.
 */
import { INGRESS_NAMESPACES } from '../kube/platform.js';
import { DEFAULT_NAMESPACE } from '../config/answers.js';
import { respell, spelled, spelledValue } from '../config/neutral-names.js';
import { PLATFORM_NEEDS, platformFindings } from '../render/findings.js';
import { ALGORITHM as TSIG_ALGORITHM, KEY_NAME as TSIG_KEY_NAME, SECRET as TSIG_SECRET } from '../config/tsig-key.js';
import {
  ANNOTATION_PREFIX,
  ANNOTATION_SUFFIXES,
  VARIABLES,
  applies,
  choicesOf,
  variable,
  type NamingProfile,
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
  /** `--names spec`: the step's texts and its errors name the variables by their neutral aliases. */
  names?: NamingProfile;
}

/** Walkthrough-only keys: they choose the branch and are never written as such. */
export const CERTIFICATE_TYPE = 'certificate_type';
export const VENAFI_AUTH = 'venafi_auth';
export const ADD_ANNOTATIONS = 'add_subject_annotations';
export const WILDCARD_CERTIFICATE_FILE = 'wildcard_certificate_file';
export const WILDCARD_KEY_FILE = 'wildcard_key_file';
export const NAMESPACE = 'namespace';
/** Accepted at the certificate question: the supplied chain is written in the right order (as --fix-order). */
export const FIX_ORDER = 'wildcard_fix_order';
export const ANNOTATION_STEP = 'annotation:';
export const ACCESS_TOKEN = 'cluster_issuer_venafi_access_token';
const ACME_SERVER = 'cluster_issuer_acme_server';
export const PRIVATE_CA = 'cluster_issuer_acme_private_ca';
/** Rows the walkthrough asks through its own steps (certificate type, issuer, annotations). */
const OWN_STEPS = new Set([
  'openstack_helm_ingress_wildcard_domain',
  'openstack_helm_ingress_secret_name',
  'cluster_issuer_type',
  'atmosphere_ingress_annotations',
  'ingress_global_annotations',
]);

export interface FlowOptions {
  /** Ask only the issuer part (used by `cloudgate regenerate`). */
  only?: 'issuer';
  /** `--names spec`: each question names its variable by its neutral alias. */
  names?: NamingProfile;
  /** `--namespace` was given: the TLS secret's namespaces are not asked again. */
  namespacesGiven?: boolean;
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
    id: CERTIFICATE_TYPE,
    kind: 'select',
    title: 'Certificate type',
    section: 'Endpoint certificates',
    help: 'How the API endpoints get their TLS certificates',
    required: true,
    secret: false,
    choices: [
      {
        value: 'individual',
        label: 'Individual (default)',
        help: 'One certificate per API endpoint, issued and renewed automatically; needs no domain',
      },
      {
        value: 'wildcard-auto',
        label: 'Wildcard, issued automatically',
        help: 'One certificate for *.<domain> covering every endpoint, issued and renewed before expiry',
      },
      {
        value: 'wildcard-supplied',
        label: 'Wildcard, supplied by you',
        help: 'You provide the certificate and key; cloudgate writes a TLS secret manifest. You renew it yourself before expiry',
      },
    ],
  };
}

function wildcardDomainStep(names?: NamingProfile): Step {
  return {
    ...stepForVariable(variable('openstack_helm_ingress_wildcard_domain')!, names),
    title: 'Domain of the wildcard certificate, which covers *.<domain>',
    required: true,
    requiredError:
      'The domain is required for a wildcard certificate (without it every endpoint gets its own certificate: go back and choose Individual for that).',
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
export function stepForVariable(row: Variable, names: NamingProfile = 'platform'): Step {
  // The question in plain words; the variable it sets below it, as the inventory will write it.
  const base = {
    id: row.name,
    title: row.help,
    help: spelled(row.name, names),
    section: row.section,
    required: row.required,
    variable: row,
    secret: row.secret,
    example: row.example,
  };
  if (row.type === 'enum') {
    return {
      ...base,
      kind: 'select',
      choices: (row.values ?? []).map((v) => {
        // Shown as the inventory will write it (a neutral alias only with --names spec); the platform's word inside.
        const word = String(spelledValue(row.name, v, names));
        return { value: v, label: v === row.default ? `${word} (default)` : word, help: row.valueHelp?.[v] };
      }),
    };
  }
  if (row.type === 'bool') return { ...base, kind: 'select', choices: YES_NO };
  if (row.type === 'pem-certificate' || row.type === 'pem-key') return { ...base, kind: 'file', fileRole: 'pem' };
  return { ...base, kind: row.secret ? 'secret' : 'text' };
}

function venafiAuthStep(): Step {
  return {
    id: VENAFI_AUTH,
    kind: 'select',
    title: 'Venafi authentication',
    section: 'Venafi issuer',
    help: 'How cert-manager signs in to the Venafi TPP server',
    required: true,
    secret: false,
    choices: [
      {
        value: 'token',
        label: 'Access token (recommended)',
        help: 'One access token; the username and password method is being phased out',
      },
      {
        value: 'password',
        label: 'Username and password (legacy)',
        help: 'Legacy: phased out in newer versions of Venafi TPP; prefer an access token',
      },
    ],
  };
}

/** A custom CA only concerns an internal ACME server: without one (a public ACME CA) it is not asked. */
export function hasAcmeServer(answers: WizardAnswers): boolean {
  const server = answers[ACME_SERVER];
  return typeof server === 'string' && server.trim() !== '';
}

function issuerDetailSteps(answers: WizardAnswers, names?: NamingProfile): Step[] {
  const choices = choicesOf(answers);
  const steps: Step[] = [];
  const rows = VARIABLES.filter(
    (r) =>
      r.appliesWhen?.issuer && r.asked !== false && !OWN_STEPS.has(r.name) && !r.deprecatedBy && applies(r, choices),
  );
  const usesPassword = answers[VENAFI_AUTH] === 'password';
  for (const row of rows) {
    if (row.name === PRIVATE_CA && !hasAcmeServer(answers)) continue;
    const credential = row.legacy || row.name === ACCESS_TOKEN;
    if (credential && !steps.some((s) => s.id === VENAFI_AUTH)) steps.push(venafiAuthStep());
    if (credential && Boolean(row.legacy) !== usesPassword) continue;
    const step = stepForVariable(row, names);
    // Only one of the two methods is asked, so the chosen one is required; so is a file the platform needs.
    steps.push(
      credential || (step.kind === 'file' && neededByPlatform(row.name, answers)) ? { ...step, required: true } : step,
    );
  }
  return tsigSecretFirst(steps);
}

/**
 * The TSIG secret is asked before the key name and algorithm, and takes the key file tsig-keygen
 * wrote: the file's name and algorithm then become the next two answers.
 */
function tsigSecretFirst(steps: Step[]): Step[] {
  const at = steps.findIndex((s) => s.id === TSIG_SECRET);
  const first = steps.findIndex((s) => s.id === TSIG_ALGORITHM || s.id === TSIG_KEY_NAME);
  if (at < 0 || first < 0 || first > at) return steps;
  const secret: Step = {
    ...steps[at],
    title:
      'TSIG secret (base64), or the path of the key file tsig-keygen wrote (its name and algorithm are then taken from it)',
  };
  const rest = steps.filter((_, i) => i !== at);
  return [...rest.slice(0, first), secret, ...rest.slice(first)];
}

/** Whether the platform's templates use the variable without a default (unset, the deployment stops). */
function neededByPlatform(name: string, answers: WizardAnswers): boolean {
  return platformFindings({ ...answers, [name]: undefined }).some(
    (f) => f.rule === PLATFORM_NEEDS && f.variable === name,
  );
}

function annotationSteps(answers: WizardAnswers): Step[] {
  const row = variable('atmosphere_ingress_annotations')!;
  const ask: Step = {
    id: ADD_ANNOTATIONS,
    kind: 'select',
    title: 'Add certificate subject annotations?',
    section: row.section,
    help: 'Optional. Needed when a Venafi zone enforces subject fields (organization, country, ...)',
    required: true,
    secret: false,
    choices: YES_NO,
  };
  if (answers[ADD_ANNOTATIONS] !== 'true') return [ask];
  return [
    ask,
    ...ANNOTATION_SUFFIXES.map((suffix) => ({
      id: `${ANNOTATION_STEP}${suffix}`,
      kind: 'text' as const,
      title: `${ANNOTATION_PREFIX}/${suffix}`,
      help: `Optional, free text: the certificate's ${suffix.replace('subject-', '')} (leave empty to skip)`,
      section: row.section,
      required: false,
      secret: false,
    })),
  ];
}

/** Every question for the answers so far, in order. A step depends only on the answers before it. */
export function stepsFor(answers: WizardAnswers, flow: FlowOptions = {}): Step[] {
  const steps: Step[] = [];
  const options = flow;
  const type = certificateTypeOf(answers);
  if (options.only !== 'issuer') {
    steps.push(certificateTypeStep());
    // Left empty, the platform would silently issue individual certificates: in this branch it is
    // required, and the table's wording ("unset: individual certificates") does not fit the question.
    if (type === 'wildcard-auto') steps.push(wildcardDomainStep(options.names));
    if (type === 'wildcard-supplied') {
      steps.push(
        { ...stepForVariable(variable('openstack_helm_ingress_secret_name')!, options.names), required: true },
        fileStep(
          WILDCARD_CERTIFICATE_FILE,
          'Wildcard certificate file',
          'PEM file: the certificate first, then intermediate(s), then root',
          'wildcard-certificate',
        ),
        fileStep(
          WILDCARD_KEY_FILE,
          'Wildcard private key file',
          'PEM file with the private key of that certificate (checked against it)',
          'wildcard-key',
        ),
      );
      if (!options.namespacesGiven)
        steps.push({
          id: NAMESPACE,
          kind: 'text',
          title: 'Namespaces of the TLS secret',
          section: 'Endpoint certificates',
          help: 'Comma-separated; one Secret in each namespace whose ingress uses it: openstack (APIs), auth-system (Keycloak), monitoring',
          required: true,
          secret: false,
          defaultValue: DEFAULT_NAMESPACE,
          example: INGRESS_NAMESPACES.join(', '),
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
  return options.names === 'spec' ? steps.map(spelledForAliases) : steps;
}

/** `--names spec`: a step naming its variables by their neutral aliases (the line under the question already is). */
function spelledForAliases(step: Step): Step {
  const say = (text: string) => respell(text, 'spec');
  return {
    ...step,
    names: 'spec',
    title: say(step.title),
    ...(step.requiredError ? { requiredError: say(step.requiredError) } : {}),
    ...(step.choices ? { choices: step.choices.map((c) => ({ ...c, ...(c.help ? { help: say(c.help) } : {}) })) } : {}),
  };
}

// ---------------------------------------------------------------- state and navigation
// The unchecked moves; the front-ends go through questions.ts (checked answers, back as a cancel at the first question).

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
export type WizardAction =
  { type: 'answer'; value: AnswerValue; stepId?: string; also?: WizardAnswers } | { type: 'back' };

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
  // `also`: answers the given one brings (a TSIG key file's name and algorithm, a chain to put in order).
  const answers = { ...state.answers, ...action.also, [step.id]: action.value };
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

export { validateField, stepError, isOptional, issuerUrlError } from './wizard-validate.js';
export { answersFromInventory, toPlanAnswers } from './wizard-answers.js';
export {
  checkFileInput,
  keepHint,
  looksLikePath,
  pemOf,
  secretAnswer,
  secretInput,
  type FileCheck,
  type SecretInput,
} from './wizard-files.js';
