/**
 * The whole sign-in chain in one go, for `cloudgate token`: the same steps as the doctor checks,
 * stopping at the first failure with the step's name, what failed and the fix.
 */
import { HttpError } from '../../net/http.js';
import { StepError } from './advice.js';
import { missing, usesIdpCredentials } from './settings.js';
import { exchange, idpToken } from './broker.js';
import { federated, listProjects, scope, type Scoped } from './identity.js';
import type { StepEnv, StepResult } from './step.js';

export class ChainError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly advice: string,
    /** The chain could not start: settings are missing (a usage error, exit 2). */
    readonly input = false,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

export function requiredSettings(env: StepEnv): string[] {
  const s = env.settings;
  const keys = ['brokerUrl', 'realm', 'clientId', 'clientSecret', 'identityUrl', 'idpId'] as const;
  const lacking = missing(s, [...keys]);
  if (usesIdpCredentials(s)) lacking.push(...missing(s, ['idpTokenUrl', 'idpClientId', 'idpClientSecret']));
  else if (!s.subjectToken) lacking.push('subject_token (or idp_token_url, idp_client_id and idp_client_secret)');
  return lacking;
}

/** Runs the exchange, the federated sign-in, the project list and the scoping (and the client credentials grant when configured); returns the scoped token. */
export async function runChain(env: StepEnv, progress: (step: string, result: StepResult<unknown>) => void = () => undefined): Promise<Scoped> {
  const lacking = requiredSettings(env);
  if (lacking.length) {
    throw new ChainError('settings', `Missing setting${lacking.length > 1 ? 's' : ''}: ${lacking.join(', ')}.`, 'Set them in the environment (CLOUDGATE_<NAME>, OS_*) or in the "signin:" section of --config; see the README section "cloudgate token".', true);
  }
  const step = async <T>(name: string, run: () => Promise<StepResult<T>>): Promise<T> => {
    try {
      const result = await run();
      progress(name, result);
      return result.value;
    } catch (error) {
      if (error instanceof StepError || error instanceof HttpError) throw new ChainError(name, error.message, error.advice);
      throw error;
    }
  };
  const subject = usesIdpCredentials(env.settings) ? await step('signin.idp-token', () => idpToken(env)) : env.settings.subjectToken!;
  const broker = await step('signin.exchange', () => exchange(env, subject));
  const unscoped = await step('signin.federated', () => federated(env, broker));
  const wanted = env.settings.project;
  let projectId: string | undefined;
  try {
    const listed = await step('signin.projects', () => listProjects(env, unscoped));
    projectId = listed.chosen?.id;
    if (!projectId) {
      const names = listed.projects.map((p) => `${p.name ?? '?'} (${p.id})`).join(', ');
      throw new ChainError('signin.projects', `No project chosen; the user may access: ${names}.`, 'Name one with --project, OS_PROJECT_ID, OS_PROJECT_NAME or "project" in the signin: section.', true);
    }
  } catch (error) {
    // The project list is optional when the project id is known: scope with it if the list cannot be read.
    const unreadable = error instanceof ChainError && !error.input && !/is not among/.test(error.message);
    if (!(unreadable && wanted && env.settings.projectIsId)) throw error;
    projectId = wanted;
  }
  return step('signin.scope', () => scope(env, unscoped, projectId!));
}
