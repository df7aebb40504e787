/**
 * The sign-in chain as one sequence of steps: which settings each needs, what each hands on to the
 * next, and when a step may fail without stopping the chain. The broker token comes from a token
 * exchange (the platform's chain: signin.idp-token, signin.exchange) or, with one of the OpenStack
 * client's OpenID Connect auth types, straight from the broker (signin.broker-token). `cloudgate doctor
 * --only signin` runs each step as a check (checks.ts); `cloudgate token` runs them straight through
 * (runChain), stopping at the first failure with the step's name, what failed and the fix.
 */
import { HttpError } from '../../net/http.js';
import { StepError } from './advice.js';
import { exchange, idpToken } from './broker.js';
import { directGrant, givenToken } from './direct-grant.js';
import { federated, listProjects, scope, type Project, type Scoped, type ScopeTarget } from './identity.js';
import { proveScopeFailure } from './scope-proof.js';
import {
  ENDPOINT_NAMES,
  knowsTokenEndpoint,
  missing,
  usesIdpCredentials,
  type BrokerGrant,
  type SigninSettings,
} from './settings.js';
import type { StepEnv, StepResult } from './step.js';
import type { SkipReason } from '../../doctor/types.js';
import { joinCapped } from '../../bounded.js';
import { CLOSED, UNATTENDED } from './messages.js';
import { TOKENS } from './messages/steps.js';

export type ChainStepId =
  | 'signin.idp-token'
  | 'signin.exchange'
  | 'signin.broker-token'
  | 'signin.federated'
  | 'signin.projects'
  | 'signin.scope';

/** What the steps of one run hand on to the later ones. */
export interface Handover {
  subject?: string;
  broker?: string;
  unscoped?: string;
  projects?: { projects: Project[]; chosen?: Project };
  /** signin.projects started but delivered no list: `read` when it read one all the same (the project was not in it). */
  listing?: { read: boolean };
  scoped?: Scoped;
}

/** A step that did not run, and why (`cloudgate token` says it; the doctor decides these when it lists the checks). */
export interface NotRun {
  notRun: string;
  /** Nothing is wrong: the settings make the step unnecessary. */
  notNeeded?: boolean;
  /** What to do, when the operator must choose (`token` shows it). */
  advice?: string;
  /** Why, as a code, when a setting is missing (the doctor's skip reason). */
  reason?: SkipReason & { code: 'not-configured' | 'needs-failed' };
}

export interface ChainStep {
  id: ChainStepId;
  title: string;
  /** The step whose result this one takes. */
  after?: ChainStepId;
  /** The settings it needs and lacks, as the operator names them. */
  lacking(s: SigninSettings): string[];
  /** Why the settings make the step pointless or impossible to run, when they do (the doctor's gate). */
  closed?(s: SigninSettings): { code: 'not-applicable' | 'not-configured'; message: string; text: string } | undefined;
  /** Throws a StepError or HttpError when the step fails. */
  run(env: StepEnv, handover: Handover): Promise<StepResult<unknown> | NotRun>;
  /** Whether the chain goes on after this step failed (`cloudgate token`): the next steps can do without it. */
  mayFail?(handover: Handover, s: SigninSettings): boolean;
}

const IDP_SETTINGS: (keyof SigninSettings)[] = ['idpTokenUrl', 'idpClientId', 'idpClientSecret'];

const { noSubject: NO_SUBJECT, subjectGiven: SUBJECT_GIVEN } = CLOSED;

const IDP_TOKEN: ChainStep = {
  id: 'signin.idp-token',
  title: 'Identity provider token (client credentials)',
  lacking: (s) => (usesIdpCredentials(s) ? missing(s, IDP_SETTINGS) : []),
  closed(s) {
    if (usesIdpCredentials(s)) return undefined;
    if (s.subjectToken) return { code: 'not-applicable', message: SUBJECT_GIVEN, text: SUBJECT_GIVEN };
    return { code: 'not-configured', message: TOKENS.noSubject(NO_SUBJECT), text: NO_SUBJECT };
  },
  async run(env, h) {
    if (!usesIdpCredentials(env.settings)) {
      h.subject = env.settings.subjectToken;
      if (!h.subject)
        return { notRun: TOKENS.noSubject(NO_SUBJECT), reason: { code: 'not-configured', text: NO_SUBJECT } };
      return { notRun: SUBJECT_GIVEN, notNeeded: true };
    }
    const result = await idpToken(env);
    h.subject = result.value;
    return result;
  },
};

const EXCHANGE: ChainStep = {
  id: 'signin.exchange',
  title: 'Broker token exchange',
  after: 'signin.idp-token',
  lacking: (s) => [
    ...(s.tokenEndpoint ? [] : missing(s, ['brokerUrl', 'realm'])),
    ...missing(s, ['clientId', 'clientSecret']),
    ...(!usesIdpCredentials(s) && !s.subjectToken
      ? ['subject_token (or idp_token_url, idp_client_id and idp_client_secret to get one)']
      : []),
  ],
  async run(env, h) {
    const result = await exchange(env, given(h.subject, 'the subject token'));
    h.broker = result.value;
    return result;
  },
};

const BROKER_TITLES: Record<Exclude<BrokerGrant, 'exchange'>, string> = {
  client_credentials: 'Broker token (client credentials)',
  password: 'Broker token (password)',
  access_token: 'Broker token (access token given)',
  authorization_code: 'Broker token (authorization code)',
};

function unattended(s: SigninSettings): string {
  return CLOSED.unattended(s.authType ?? 'v3oidcauthcode');
}

/** The broker token straight from the broker, as the OpenStack client's OpenID Connect auth type gets it. */
function brokerTokenStep(grant: Exclude<BrokerGrant, 'exchange'>): ChainStep {
  return {
    id: 'signin.broker-token',
    title: BROKER_TITLES[grant],
    lacking: (s) => {
      const endpoint = knowsTokenEndpoint(s) ? [] : [ENDPOINT_NAMES];
      if (grant === 'client_credentials') return [...endpoint, ...missing(s, ['clientId', 'clientSecret'])];
      if (grant === 'password') return [...endpoint, ...missing(s, ['clientId', 'username', 'password'])];
      if (grant === 'access_token') return missing(s, ['accessToken']);
      return [];
    },
    closed: (s) =>
      grant === 'authorization_code' ? { code: 'not-configured', message: unattended(s), text: UNATTENDED } : undefined,
    async run(env, h) {
      if (grant === 'authorization_code')
        return { notRun: unattended(env.settings), reason: { code: 'not-configured', text: UNATTENDED } };
      const result = grant === 'access_token' ? givenToken(env) : await directGrant(env, grant);
      h.broker = result.value;
      return result;
    },
  };
}

function federatedStep(after: ChainStepId): ChainStep {
  return {
    id: 'signin.federated',
    title: 'Federated sign-in (unscoped token)',
    after,
    lacking: (s) => missing(s, ['identityUrl', 'idpId']),
    async run(env, h) {
      const result = await federated(env, given(h.broker, 'the broker token'));
      h.unscoped = result.value;
      return result;
    },
  };
}

const PROJECTS: ChainStep = {
  id: 'signin.projects',
  title: 'Projects of the user',
  after: 'signin.federated',
  lacking: () => [],
  // Scoping to a project by id, or by name with its domain, does not need the list.
  mayFail: (h, s) => !('notRun' in scopeTarget(h, s)),
  async run(env, h) {
    const unscoped = given(h.unscoped, 'the unscoped token');
    // Until the list arrives it counts as unread: a step that times out leaves it so.
    h.listing = { read: false };
    try {
      const result = await listProjects(env, unscoped);
      h.projects = result.value;
      h.listing = undefined;
      return result;
    } catch (error) {
      const listed = error instanceof StepError ? error.facts.projects : undefined;
      h.listing = { read: listed !== undefined };
      // The list read all the same proves, at the scope, which projects the user may use.
      if (listed) h.projects = { projects: listed };
      throw error;
    }
  },
};

const SCOPE: ChainStep = {
  id: 'signin.scope',
  title: 'Project-scoped token and catalog',
  after: 'signin.projects',
  lacking: () => [],
  async run(env, h) {
    const unscoped = given(h.unscoped, 'the unscoped token');
    const target = scopeTarget(h, env.settings);
    if ('notRun' in target) return target;
    let result: StepResult<Scoped>;
    try {
      result = await scope(env, unscoped, target.target);
    } catch (error) {
      throw await proveScopeFailure(env, h, target.target, error);
    }
    h.scoped = result.value;
    if (target.listed) return result;
    const taken = `Scoped with project "${env.settings.project}" taken as an id, although the project list could not be read (see signin.projects).`;
    return { ...result, warning: [taken, result.warning].filter(Boolean).join(' ') };
  },
};

/** A step's input that the steps before it handed on: they ran and passed, or this step is not run at all. */
function given<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`a sign-in step ran without ${what}`);
  return value;
}

/** The exchange chain: the platform's own, and the one without an OpenID Connect auth type. */
export const CHAIN: ChainStep[] = [IDP_TOKEN, EXCHANGE, federatedStep('signin.exchange'), PROJECTS, SCOPE];

/** The steps of the chain these settings sign in with. */
export function chainFor(s: SigninSettings): ChainStep[] {
  if (s.grant === 'exchange') return CHAIN;
  return [brokerTokenStep(s.grant), federatedStep('signin.broker-token'), PROJECTS, SCOPE];
}

/** The step that yields the broker token (the claims check follows it). */
export const brokerStepOf = (s: SigninSettings): ChainStepId =>
  s.grant === 'exchange' ? 'signin.exchange' : 'signin.broker-token';

/**
 * What to scope to, as keystoneauth scopes: by the project's id, or by its name and its domain; a name
 * without a domain, as cloudgate also accepts, is looked up in the user's list. Otherwise why scoping
 * cannot go ahead. `listed`: the list was read, or is not needed.
 */
export function scopeTarget(h: Handover, s: SigninSettings): { target: ScopeTarget; listed: boolean } | NotRun {
  const unread = h.listing !== undefined && !h.listing.read;
  if (s.project && s.projectIsId) return { target: { id: s.project }, listed: !unread };
  if (s.project && s.projectDomain) {
    const domain = s.projectDomainBy === 'id' ? { id: s.projectDomain } : { name: s.projectDomain };
    return { target: { name: s.project, domain }, listed: true };
  }
  if (h.projects?.chosen) return { target: { id: h.projects.chosen.id }, listed: true };
  if (!s.project) {
    const names = joinCapped((h.projects?.projects ?? []).map((p) => `${p.name ?? '?'} (${p.id})`));
    return {
      notRun: `No project chosen: set project (--project, OS_PROJECT_ID or OS_PROJECT_NAME)${names ? `; the user may access: ${names}` : ''}.`,
      advice: CLOSED.chooseProject,
      reason: { code: 'not-configured', text: CLOSED.chooseProject },
    };
  }
  return {
    notRun: unread
      ? `Not run: signin.projects did not pass (fail), and project "${s.project}" is a name without its domain, which needs the list (an id, or the name with project_domain, would do without).`
      : 'Not run: signin.projects did not find the project.',
    reason: { code: 'needs-failed', text: 'Fix what signin.projects reports first.' },
  };
}

/** Every setting the chain lacks, as the operator names them. */
export function requiredSettings(s: SigninSettings): string[] {
  return [...new Set(chainFor(s).flatMap((step) => step.lacking(s)))];
}

export class ChainError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly advice: string,
    /** The chain could not start or go on for want of a setting or a choice (a usage error, exit 2). */
    readonly input = false,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

/** `cloudgate token`: every step in turn; returns the scoped token or throws a ChainError naming the step. */
export async function runChain(
  env: StepEnv,
  progress: (step: string, result: StepResult<unknown>) => void = () => undefined,
  explain: (error: StepError | HttpError) => Promise<StepError | HttpError> = async (e) => e,
): Promise<Scoped> {
  const lacking = requiredSettings(env.settings);
  if (lacking.length) {
    throw new ChainError(
      'settings',
      `Missing setting${lacking.length > 1 ? 's' : ''}: ${lacking.join(', ')}.`,
      'Set them in the environment (CLOUDGATE_<NAME>, OS_*) or in the "signin:" section of --config; see the README section "cloudgate token".',
      true,
    );
  }
  const handover: Handover = {};
  for (const step of chainFor(env.settings)) {
    let result: StepResult<unknown> | NotRun;
    try {
      result = await step.run(env, handover);
    } catch (error) {
      if (!(error instanceof StepError || error instanceof HttpError)) throw error;
      if (step.mayFail?.(handover, env.settings)) continue;
      const proven = await explain(error);
      throw new ChainError(step.id, proven.message, proven.advice);
    }
    if ('notRun' in result) {
      if (result.notNeeded) continue;
      throw new ChainError(
        step.id,
        result.notRun,
        result.advice ?? 'Run "cloudgate doctor --only signin" to see every step.',
        true,
      );
    }
    progress(step.id, result);
  }
  return handover.scoped!;
}
