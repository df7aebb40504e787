/**
 * `cloudgate doctor --only signin`: the chain as six checks. Each runs after the previous one and
 * takes its input (a token, the chosen project) from the run's shared state; a step whose input is
 * missing is `skip` with the reason.
 */
import { SERVICE_CATALOG, stateKey, type CatalogService } from '../../doctor/state-keys.js';
import type { CheckProvider } from '../../doctor/input.js';
import type { Check, CheckContext, CheckResult } from '../../doctor/types.js';
import { HttpError, httpClientFor, type HttpClient } from '../../net/http.js';
import { StepError } from './advice.js';
import { readSigninSettings, isConfigured, missing, usesIdpCredentials, type SigninSettings } from './settings.js';
import { callApi } from './api.js';
import { exchange, idpToken } from './broker.js';
import { checkClaims, subjectAudience } from './claims.js';
import { federated, listProjects, scope, type Project, type Scoped } from './identity.js';
import type { StepEnv, StepResult } from './step.js';

const GROUP = 'signin';
const KEY = {
  subject: stateKey<string>('signin.subject-token'),
  broker: stateKey<string>('signin.broker-token'),
  unscoped: stateKey<string>('signin.unscoped-token'),
  project: stateKey<Project>('signin.project'),
  scoped: stateKey<Scoped>('signin.scoped'),
};

export const provideChecks: CheckProvider = (input) => signinChecks(readSigninSettings(input), () => httpClientFor(input.network));

export function toResult<T>(result: StepResult<T>): CheckResult {
  return { status: result.warning ? 'warn' : 'ok', message: result.message, advice: result.warning, details: result.details };
}

export function failure(error: unknown): CheckResult {
  if (error instanceof StepError) return { status: 'fail', message: error.message, advice: error.advice, details: error.details };
  if (error instanceof HttpError) {
    return { status: 'fail', message: error.message, advice: error.advice, details: { kind: error.kind, url: error.url, ...(error.status ? { status: error.status } : {}) } };
  }
  throw error;
}

function skip(message: string): CheckResult {
  return { status: 'skip', message };
}

/** Why a step's input is absent: the earlier step did not pass. */
// Each step's predecessor, to name the step that really stopped the chain rather than a row of skips.
const BEFORE: Record<string, string> = {
  'signin.exchange': 'signin.idp-token',
  'signin.federated': 'signin.exchange',
  'signin.projects': 'signin.federated',
  'signin.scope': 'signin.projects',
  'signin.api': 'signin.scope',
};

/** Why a step's input is absent: the step that stopped the chain did not pass. */
function blocked(ctx: CheckContext, id: string): CheckResult {
  let cause = id;
  let o = ctx.outcome(cause);
  while (o?.status === 'skip' && o.message.startsWith('Not run:') && BEFORE[cause] && ctx.outcome(BEFORE[cause])) {
    cause = BEFORE[cause]!;
    o = ctx.outcome(cause);
  }
  if (!o) return skip(`Not run: ${cause} did not run.`);
  return skip(o.status === 'skip' ? `Not run: ${cause} was skipped (${o.message.replace(/\.$/, '')}).` : `Not run: ${cause} did not pass (${o.status}).`);
}

export function signinChecks(settings: SigninSettings, http: () => HttpClient): Check[] {
  const configured = isConfigured(settings);
  const notConfigured = skip('The sign-in chain is not configured (no broker_url, identity_url or credentials); see the README section "Doctor group `signin`".');
  // Learnt by signin.projects, so signin.scope asks the path the identity service serves straight away.
  const flavour: StepEnv['flavour'] = {};
  const env = (ctx: CheckContext): StepEnv => ({ http: http(), settings, signal: ctx.signal, flavour });
  const lacking = (keys: (keyof SigninSettings)[]) => {
    const names = missing(settings, keys);
    return names.length ? skip(`Missing setting${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`) : undefined;
  };
  async function attempt<T>(ctx: CheckContext, step: () => Promise<StepResult<T>>, keep: (value: T) => void): Promise<CheckResult> {
    try {
      const result = await step();
      keep(result.value);
      return toResult(result);
    } catch (error) {
      return failure(error);
    }
  }

  const checks: Check[] = [
    {
      id: 'signin.idp-token',
      group: GROUP,
      title: 'Identity provider token (client credentials)',
      async run(ctx) {
        if (!configured) return notConfigured;
        if (!usesIdpCredentials(settings)) {
          if (settings.subjectToken) ctx.state.set(KEY.subject, settings.subjectToken);
          return skip('Not needed: the subject token is given (subject_token); idp_token_url, idp_client_id and idp_client_secret would fetch one.');
        }
        return lacking(['idpTokenUrl', 'idpClientId', 'idpClientSecret']) ?? attempt(ctx, () => idpToken(env(ctx)), (t) => ctx.state.set(KEY.subject, t));
      },
    },
    {
      id: 'signin.exchange',
      group: GROUP,
      title: 'Broker token exchange',
      after: ['signin.idp-token'],
      async run(ctx) {
        if (!configured) return notConfigured;
        const subject = ctx.state.get(KEY.subject);
        if (!subject) {
          return usesIdpCredentials(settings)
            ? blocked(ctx, 'signin.idp-token')
            : skip('Missing setting: subject_token (or idp_token_url, idp_client_id and idp_client_secret to get one).');
        }
        const result = lacking(['brokerUrl', 'realm', 'clientId', 'clientSecret']) ?? (await attempt(ctx, () => exchange(env(ctx), subject), (t) => ctx.state.set(KEY.broker, t)));
        // Known before the exchange; named only when the broker refused, since a broker that accepted did not need it.
        const audience = result.status === 'fail' ? subjectAudience(subject, settings) : undefined;
        return audience ? { ...result, advice: `${result.advice ?? ''} Also: ${audience.message} ${audience.advice}`.trim(), details: { ...result.details, subject_audience: { client: audience.client, aud: audience.aud, azp: audience.azp } } } : result;
      },
    },
    {
      id: 'signin.claims',
      group: GROUP,
      title: 'Broker token claims against the identity mapping',
      after: ['signin.exchange'],
      async run(ctx) {
        if (!configured) return notConfigured;
        const broker = ctx.state.get(KEY.broker);
        if (!broker) return blocked(ctx, 'signin.exchange');
        try {
          return await checkClaims(env(ctx), { brokerToken: broker, subjectToken: ctx.state.get(KEY.subject) });
        } catch (error) {
          return failure(error);
        }
      },
    },
    {
      id: 'signin.federated',
      group: GROUP,
      title: 'Federated sign-in (unscoped token)',
      after: ['signin.exchange'],
      async run(ctx) {
        if (!configured) return notConfigured;
        const broker = ctx.state.get(KEY.broker);
        if (!broker) return blocked(ctx, 'signin.exchange');
        return lacking(['identityUrl', 'idpId']) ?? attempt(ctx, () => federated(env(ctx), broker), (t) => ctx.state.set(KEY.unscoped, t));
      },
    },
    {
      id: 'signin.projects',
      group: GROUP,
      title: 'Projects of the user',
      after: ['signin.federated'],
      async run(ctx) {
        if (!configured) return notConfigured;
        const unscoped = ctx.state.get(KEY.unscoped);
        if (!unscoped) return blocked(ctx, 'signin.federated');
        return attempt(ctx, () => listProjects(env(ctx), unscoped), (v) => v.chosen && ctx.state.set(KEY.project, v.chosen));
      },
    },
    {
      id: 'signin.scope',
      group: GROUP,
      title: 'Project-scoped token and catalog',
      after: ['signin.projects'],
      async run(ctx) {
        if (!configured) return notConfigured;
        const unscoped = ctx.state.get(KEY.unscoped);
        if (!unscoped) return blocked(ctx, 'signin.federated');
        const chosen = ctx.state.get(KEY.project);
        const listing = ctx.outcome('signin.projects');
        // The project list is optional when the project id is known: a failed listing need not stop scoping.
        const unreadable = listing?.status === 'fail' && !listing.details?.projects;
        const projectId = chosen?.id ?? (unreadable && settings.projectIsId ? settings.project : undefined);
        if (!projectId) {
          if (!settings.project) return skip('No project chosen: set project (--project, OS_PROJECT_ID or OS_PROJECT_NAME).');
          return unreadable
            ? skip(`Not run: signin.projects did not pass (fail), and project "${settings.project}" looks like a name, which needs the list (an id would do without).`)
            : skip('Not run: signin.projects did not find the project.');
        }
        const result = await attempt(ctx, () => scope(env(ctx), unscoped, projectId), (v) => {
          ctx.state.set(KEY.scoped, v);
          ctx.state.set(SERVICE_CATALOG, v.catalog as CatalogService[]);
        });
        if (!chosen && result.status !== 'fail') {
          return { ...result, status: 'warn', advice: `Scoped with project "${projectId}" taken as an id, although the project list could not be read (see signin.projects).` };
        }
        return result;
      },
    },
    {
      id: 'signin.api',
      group: GROUP,
      title: 'Cloud API call with the scoped token',
      after: ['signin.scope'],
      async run(ctx) {
        if (!configured) return notConfigured;
        const scoped = ctx.state.get(KEY.scoped);
        if (!scoped) return blocked(ctx, 'signin.scope');
        return attempt(ctx, () => callApi(env(ctx), scoped), () => undefined);
      },
    },
  ];
  return checks;
}
