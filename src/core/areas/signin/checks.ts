/**
 * `cloudgate doctor --only signin`: the steps of the chain (chain.ts) as checks, plus two the doctor
 * adds: the broker token's claims against the identity mapping, and one call of a cloud API with the
 * scoped token. Each step hands the next its token under a typed key: the runner runs a step only when
 * what it needs was handed on, and otherwise says which step stopped the chain.
 */
import { factKey, SERVICE_CATALOG, type FactKey } from '../../doctor/facts.js';
import type { CheckProvider } from '../../doctor/area.js';
import type { Check, CheckContext, CheckResult, RunResult } from '../../doctor/types.js';
import { always, configured, isClosed, notApplicable, notConfigured, type Gate } from '../../doctor/gates.js';
import { HttpError, httpOf } from '../../net/http.js';
import { trustOf } from '../../net/trust.js';
import { StepError } from './advice.js';
import { callApi } from './api.js';
import { chainFor, type ChainStep, type ChainStepId, type Handover } from './chain.js';
import { checkClaims } from './claims.js';
import { proveHttpFailure } from './proofs.js';
import { isConfigured, readSigninSettings, usesIdpCredentials, type SigninSettings } from './settings.js';
import type { StepEnv, StepResult } from './step.js';
import type { Project, Scoped } from './identity.js';
import type { SigninFacts } from './facts.js';
import { CLOSED, TITLES } from './messages.js';

const GROUP = 'signin';

/** What the steps hand on, each under its own key: tokens, the project list, the scoped token. Never printed. */
const SUBJECT_TOKEN = factKey<string>(GROUP, 'the subject token');
const BROKER_TOKEN = factKey<string>(GROUP, 'the broker token');
const UNSCOPED_TOKEN = factKey<string>(GROUP, 'the unscoped token');
/** Read by signin.projects, even when it then fails (the project was not in it): the scope's proofs use it. */
const PROJECT_LIST = factKey<Project[]>(GROUP, 'the project list');
const CHOSEN_PROJECT = factKey<Project>(GROUP, 'the chosen project', {
  unset: { code: 'not-configured', text: CLOSED.chooseProject },
});
const SCOPED_TOKEN = factKey<Scoped>(GROUP, 'the scoped token');

export const provideChecks: CheckProvider = (input) => signinChecks(readSigninSettings(input));

export function toResult<T>(result: StepResult<T>): CheckResult<SigninFacts> {
  return {
    status: result.warning ? 'warn' : 'ok',
    message: result.message,
    advice: result.warning,
    facts: result.facts,
    ...(result.expiresAt ? { tokenExpiresAt: result.expiresAt } : {}),
  };
}

export function failure(error: unknown): CheckResult<SigninFacts> {
  if (error instanceof StepError)
    return { status: 'fail', message: error.message, advice: error.advice, facts: error.facts };
  if (error instanceof HttpError) {
    return {
      status: 'fail',
      message: error.message,
      advice: error.advice,
      facts: { kind: error.kind, url: error.url, ...(error.status ? { status: error.status } : {}) },
    };
  }
  throw error;
}

/** The facts each step takes and hands on, decided from the settings when the checks are listed. */
interface Wiring {
  needs: FactKey<unknown>[];
  uses: FactKey<unknown>[];
  provides: FactKey<unknown>[];
}

function wiringOf(id: ChainStepId, s: SigninSettings): Wiring {
  const none: Wiring = { needs: [], uses: [], provides: [] };
  switch (id) {
    case 'signin.idp-token':
      return { ...none, provides: [SUBJECT_TOKEN] };
    case 'signin.exchange':
      // A subject token given in the settings needs no step before the exchange.
      return { ...none, needs: usesIdpCredentials(s) ? [SUBJECT_TOKEN] : [], provides: [BROKER_TOKEN] };
    case 'signin.broker-token':
      return { ...none, provides: [BROKER_TOKEN] };
    case 'signin.federated':
      return { ...none, needs: [BROKER_TOKEN], provides: [UNSCOPED_TOKEN] };
    case 'signin.projects':
      return { ...none, needs: [UNSCOPED_TOKEN], provides: [PROJECT_LIST, CHOSEN_PROJECT] };
    case 'signin.scope': {
      // A project by id, or by name with its domain, is scoped to without the list; otherwise the list chooses it.
      const direct = Boolean(s.project && (s.projectIsId || s.projectDomain));
      return {
        needs: [UNSCOPED_TOKEN, ...(direct ? [] : [CHOSEN_PROJECT])],
        uses: [PROJECT_LIST, ...(direct ? [CHOSEN_PROJECT] : [])],
        provides: [SCOPED_TOKEN, SERVICE_CATALOG],
      };
    }
  }
}

/** The chain's gate, then the step's own: a setting it lacks, or a step the settings make unnecessary. */
function gatesOf(s: SigninSettings): { chain: Gate; step(step: ChainStep): Gate } {
  const chain = configured({ broker_url: isConfigured(s) }, CLOSED.chain);
  const step = (c: ChainStep): Gate => {
    if (isClosed(chain)) return chain;
    const closed = c.closed?.(s);
    if (closed) return (closed.code === 'not-applicable' ? notApplicable : notConfigured)(closed.message, closed.text);
    const names = c.lacking(s);
    if (names.length === 0) return always;
    const missing = CLOSED.missing(names);
    return notConfigured(missing.message, missing.text);
  };
  return { chain, step };
}

export function signinChecks(settings: SigninSettings): Check[] {
  const steps = chainFor(settings);
  const gates = gatesOf(settings);
  // Learnt by signin.projects, so signin.scope asks the path the identity service serves straight away.
  const flavour: StepEnv['flavour'] = {};
  const env = (ctx: CheckContext): StepEnv => ({
    http: httpOf(ctx.services),
    settings,
    signal: ctx.signal,
    clock: ctx.services.clock,
    flavour,
  });

  /** The handover of the chain's steps, from the facts this check may read. */
  const handoverOf = (ctx: CheckContext, wiring: Wiring): Handover => {
    const read = <T>(key: FactKey<T>) =>
      [...wiring.needs, ...wiring.uses].includes(key) ? ctx.facts.get(key) : undefined;
    const list = read(PROJECT_LIST);
    const chosen = read(CHOSEN_PROJECT);
    return {
      subject: read(SUBJECT_TOKEN) ?? settings.subjectToken,
      broker: read(BROKER_TOKEN),
      unscoped: read(UNSCOPED_TOKEN),
      // signin.projects ran before the scope: no list means it could not read one.
      ...(list ? { projects: { projects: list, ...(chosen ? { chosen } : {}) } } : {}),
      ...(wiring.uses.includes(PROJECT_LIST) && !list ? { listing: { read: false } } : {}),
    };
  };

  /** What a step handed on, under the keys it provides. */
  const handOn = (ctx: CheckContext, wiring: Wiring, h: Handover) => {
    const hand = <T>(key: FactKey<T>, value: T | undefined) => {
      if (value !== undefined && wiring.provides.includes(key)) ctx.facts.set(key, value);
    };
    hand(SUBJECT_TOKEN, h.subject);
    hand(BROKER_TOKEN, h.broker);
    hand(UNSCOPED_TOKEN, h.unscoped);
    hand(PROJECT_LIST, h.projects?.projects);
    hand(CHOSEN_PROJECT, h.projects?.chosen);
    hand(SCOPED_TOKEN, h.scoped);
    hand(SERVICE_CATALOG, h.scoped?.catalog);
  };

  const step = (s: ChainStep): Check => {
    const wiring = wiringOf(s.id, settings);
    return {
      id: s.id,
      group: GROUP,
      title: s.title,
      gate: gates.step(s),
      ...wiring,
      async run(ctx): Promise<RunResult<SigninFacts>> {
        const h = handoverOf(ctx, wiring);
        let result: CheckResult<SigninFacts>;
        try {
          const outcome = await s.run(env(ctx), h);
          if ('notRun' in outcome) {
            return {
              unavailable: outcome.reason?.code ?? 'not-applicable',
              message: outcome.notRun,
              text: outcome.reason?.text ?? outcome.advice ?? outcome.notRun,
            };
          }
          result = toResult(outcome);
        } catch (error) {
          // One more look at the server proves what a failed request alone cannot say (which CA, which scheme).
          const proven =
            error instanceof StepError || error instanceof HttpError
              ? await proveHttpFailure(
                  error,
                  settings,
                  { timeoutMs: ctx.services.network.timeoutMs, trust: trustOf(ctx.services) },
                  ctx.signal,
                )
              : error;
          result = failure(proven);
        } finally {
          handOn(ctx, wiring, h);
        }
        return result;
      },
    };
  };

  const chain = steps.map(step);
  const brokerAt = chain.findIndex((c) => c.provides?.includes(BROKER_TOKEN));
  const exchange = usesIdpCredentials(settings);
  const extra = (
    id: string,
    title: string,
    needs: FactKey<unknown>[],
    uses: FactKey<unknown>[],
    work: (ctx: CheckContext) => Promise<CheckResult<SigninFacts>>,
  ): Check => ({
    id,
    group: GROUP,
    title,
    gate: gates.chain,
    needs,
    uses,
    async run(ctx) {
      try {
        return await work(ctx);
      } catch (error) {
        return failure(error);
      }
    },
  });
  const claims = extra('signin.claims', TITLES.claims, [BROKER_TOKEN], exchange ? [SUBJECT_TOKEN] : [], async (ctx) =>
    checkClaims(env(ctx), {
      brokerToken: ctx.facts.need(BROKER_TOKEN),
      subjectToken: (exchange ? ctx.facts.get(SUBJECT_TOKEN) : undefined) ?? settings.subjectToken,
    }),
  );
  const api = extra('signin.api', TITLES.api, [SCOPED_TOKEN], [], async (ctx) =>
    toResult(await callApi(env(ctx), ctx.facts.need(SCOPED_TOKEN))),
  );
  // The claims are judged right after the step that yields the broker token.
  return [...chain.slice(0, brokerAt + 1), claims, ...chain.slice(brokerAt + 1), api];
}
