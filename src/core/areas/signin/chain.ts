/**
 * The sign-in chain as one sequence of steps: which settings each needs, what each hands on to the
 * next, and when a step may fail without stopping the chain. `cloudgate doctor --only signin` runs
 * each step as a check (checks.ts); `cloudgate token` runs them straight through (runChain), stopping
 * at the first failure with the step's name, what failed and the fix.
 */
import { HttpError } from '../../net/http.js';
import { StepError } from './advice.js';
import { exchange, idpToken } from './broker.js';
import { federated, listProjects, scope, type Project, type Scoped } from './identity.js';
import { missing, usesIdpCredentials, type SigninSettings } from './settings.js';
import type { StepEnv, StepResult } from './step.js';
import type { SkipReason } from '../../doctor/types.js';
import { joinCapped } from '../../bounded.js';

export type ChainStepId = 'signin.idp-token' | 'signin.exchange' | 'signin.federated' | 'signin.projects' | 'signin.scope';

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

/** A step that did not run, and why. */
export interface NotRun {
  notRun: string;
  /** The earlier step that did not deliver this one's input. */
  blockedBy?: ChainStepId;
  /** Nothing is wrong: the settings make the step unnecessary. */
  notNeeded?: boolean;
  /** What to do, when the operator must choose (`token` shows it). */
  advice?: string;
  /** Why, as a code, when a setting is missing (the doctor's skip reason). */
  reason?: SkipReason;
}

export interface ChainStep {
  id: ChainStepId;
  title: string;
  /** The step whose result this one takes. */
  after?: ChainStepId;
  /** The settings it needs and lacks, as the operator names them. */
  lacking(s: SigninSettings): string[];
  /** Throws a StepError or HttpError when the step fails. */
  run(env: StepEnv, handover: Handover): Promise<StepResult<unknown> | NotRun>;
}

const IDP_SETTINGS: (keyof SigninSettings)[] = ['idpTokenUrl', 'idpClientId', 'idpClientSecret'];

export const CHAIN: ChainStep[] = [
  {
    id: 'signin.idp-token',
    title: 'Identity provider token (client credentials)',
    lacking: (s) => (usesIdpCredentials(s) ? missing(s, IDP_SETTINGS) : []),
    async run(env, h) {
      if (!usesIdpCredentials(env.settings)) {
        h.subject = env.settings.subjectToken;
        if (!h.subject) {
          const text = 'Set subject_token, or idp_token_url, idp_client_id and idp_client_secret to fetch one.';
          return { notRun: `No subject token and no identity provider client to fetch one. ${text}`, reason: { code: 'not-configured', text } };
        }
        return { notRun: 'Not needed: the subject token is given (subject_token); idp_token_url, idp_client_id and idp_client_secret would fetch one.', notNeeded: true };
      }
      const result = await idpToken(env);
      h.subject = result.value;
      return result;
    },
  },
  {
    id: 'signin.exchange',
    title: 'Broker token exchange',
    after: 'signin.idp-token',
    lacking: (s) => [
      ...missing(s, ['brokerUrl', 'realm', 'clientId', 'clientSecret']),
      ...(!usesIdpCredentials(s) && !s.subjectToken ? ['subject_token (or idp_token_url, idp_client_id and idp_client_secret to get one)'] : []),
    ],
    async run(env, h) {
      if (!h.subject) return { notRun: 'no subject token', blockedBy: 'signin.idp-token' };
      const result = await exchange(env, h.subject);
      h.broker = result.value;
      return result;
    },
  },
  {
    id: 'signin.federated',
    title: 'Federated sign-in (unscoped token)',
    after: 'signin.exchange',
    lacking: (s) => missing(s, ['identityUrl', 'idpId']),
    async run(env, h) {
      if (!h.broker) return { notRun: 'no broker token', blockedBy: 'signin.exchange' };
      const result = await federated(env, h.broker);
      h.unscoped = result.value;
      return result;
    },
  },
  {
    id: 'signin.projects',
    title: 'Projects of the user',
    after: 'signin.federated',
    lacking: () => [],
    async run(env, h) {
      if (!h.unscoped) return { notRun: 'no unscoped token', blockedBy: 'signin.federated' };
      // Until the list arrives it counts as unread: a step that times out leaves it so.
      h.listing = { read: false };
      try {
        const result = await listProjects(env, h.unscoped);
        h.projects = result.value;
        h.listing = undefined;
        return result;
      } catch (error) {
        h.listing = { read: error instanceof StepError && Array.isArray(error.details.projects) };
        throw error;
      }
    },
  },
  {
    id: 'signin.scope',
    title: 'Project-scoped token and catalog',
    after: 'signin.projects',
    lacking: () => [],
    async run(env, h) {
      if (!h.unscoped) return { notRun: 'no unscoped token', blockedBy: 'signin.federated' };
      const project = projectToScope(h, env.settings);
      if ('notRun' in project) return project;
      const result = await scope(env, h.unscoped, project.id);
      h.scoped = result.value;
      if (project.listed) return result;
      const taken = `Scoped with project "${project.id}" taken as an id, although the project list could not be read (see signin.projects).`;
      return { ...result, warning: [taken, result.warning].filter(Boolean).join(' ') };
    },
  },
];

/**
 * The project to scope to: the one the list chose, or the configured id when the list could not be
 * read (the list is optional when the id is known); otherwise why scoping cannot go ahead.
 */
export function projectToScope(h: Handover, s: SigninSettings): { id: string; listed: boolean } | NotRun {
  if (h.projects?.chosen) return { id: h.projects.chosen.id, listed: true };
  const unread = h.listing !== undefined && !h.listing.read;
  if (unread && s.project && s.projectIsId) return { id: s.project, listed: false };
  if (!s.project) {
    const names = joinCapped((h.projects?.projects ?? []).map((p) => `${p.name ?? '?'} (${p.id})`));
    return {
      notRun: `No project chosen: set project (--project, OS_PROJECT_ID or OS_PROJECT_NAME)${names ? `; the user may access: ${names}` : ''}.`,
      advice: 'Name one with --project, OS_PROJECT_ID, OS_PROJECT_NAME or "project" in the signin: section.',
      reason: { code: 'not-configured', text: 'Name one with --project, OS_PROJECT_ID, OS_PROJECT_NAME or "project" in the signin: section.' },
    };
  }
  return {
    notRun: unread
      ? `Not run: signin.projects did not pass (fail), and project "${s.project}" looks like a name, which needs the list (an id would do without).`
      : 'Not run: signin.projects did not find the project.',
    reason: { code: 'needs-failed', text: 'Fix what signin.projects reports first.' },
  };
}

/** Every setting the chain lacks, as the operator names them. */
export function requiredSettings(s: SigninSettings): string[] {
  return [...new Set(CHAIN.flatMap((step) => step.lacking(s)))];
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
export async function runChain(env: StepEnv, progress: (step: string, result: StepResult<unknown>) => void = () => undefined): Promise<Scoped> {
  const lacking = requiredSettings(env.settings);
  if (lacking.length) {
    throw new ChainError('settings', `Missing setting${lacking.length > 1 ? 's' : ''}: ${lacking.join(', ')}.`, 'Set them in the environment (CLOUDGATE_<NAME>, OS_*) or in the "signin:" section of --config; see the README section "cloudgate token".', true);
  }
  const handover: Handover = {};
  for (const step of CHAIN) {
    let result: StepResult<unknown> | NotRun;
    try {
      result = await step.run(env, handover);
    } catch (error) {
      if (!(error instanceof StepError || error instanceof HttpError)) throw error;
      if (step.id === 'signin.projects' && !('notRun' in projectToScope(handover, env.settings))) continue;
      throw new ChainError(step.id, error.message, error.advice);
    }
    if ('notRun' in result) {
      if (result.notNeeded) continue;
      throw new ChainError(step.id, result.notRun, result.advice ?? 'Run "cloudgate doctor --only signin" to see every step.', true);
    }
    progress(step.id, result);
  }
  return handover.scoped!;
}
