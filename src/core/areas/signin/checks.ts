/**
 * `cloudgate doctor --only signin`: the steps of the chain (chain.ts) as checks, each after the one it
 * takes its input from, plus two the doctor adds: the broker token's claims against the identity
 * mapping, and one call of a cloud API with the scoped token. A step whose input is missing is `skip`
 * naming the step that stopped the chain.
 */
import { SERVICE_CATALOG, stateKey } from '../../doctor/state-keys.js';
import type { CheckProvider } from '../../doctor/input.js';
import type { Check, CheckContext, CheckResult, SkipReason } from '../../doctor/types.js';
import { always, configured, type Gate } from '../../doctor/gates.js';
import { HttpError, httpClientFor, type HttpClient } from '../../net/http.js';
import { StepError } from './advice.js';
import { callApi } from './api.js';
import { brokerStepOf, chainFor, type ChainStep, type Handover, type NotRun } from './chain.js';
import { checkClaims } from './claims.js';
import { proveHttpFailure } from './proofs.js';
import { isConfigured, readSigninSettings, type SigninSettings } from './settings.js';
import type { StepEnv, StepResult } from './step.js';
import type { NetworkSettings } from '../../config/network.js';

const GROUP = 'signin';
/** What the steps of this run handed on (tokens, the project list): never printed. */
const HANDOVER = stateKey<Handover>('signin.handover');

export const provideChecks: CheckProvider = (input) => signinChecks(readSigninSettings(input), () => httpClientFor(input.network), input.network);

export function toResult<T>(result: StepResult<T>): CheckResult {
  return { status: result.warning ? 'warn' : 'ok', message: result.message, advice: result.warning, details: result.details, ...(result.expiresAt ? { tokenExpiresAt: result.expiresAt } : {}) };
}

export function failure(error: unknown): CheckResult {
  if (error instanceof StepError) return { status: 'fail', message: error.message, advice: error.advice, details: error.details };
  if (error instanceof HttpError) {
    return { status: 'fail', message: error.message, advice: error.advice, details: { kind: error.kind, url: error.url, ...(error.status ? { status: error.status } : {}) } };
  }
  throw error;
}

function skip(message: string, reason?: SkipReason): CheckResult {
  return { status: 'skip', message, ...(reason ? { reason } : {}) };
}

/** Why a step's input is absent: the step that stopped the chain did not pass. */
function blocked(ctx: CheckContext, id: string, BEFORE: Record<string, string>): CheckResult {
  let cause = id;
  let o = ctx.outcome(cause);
  while (o?.status === 'skip' && o.reason?.code === 'needs-failed' && BEFORE[cause] && ctx.outcome(BEFORE[cause])) {
    cause = BEFORE[cause]!;
    o = ctx.outcome(cause);
  }
  if (!o) return skip(`Not run: ${cause} did not run.`, { code: 'needs-failed', text: `Run ${cause} too.` });
  if (o.status !== 'skip') return skip(`Not run: ${cause} did not pass (${o.status}).`, { code: 'needs-failed', text: `Fix what ${cause} reports first.` });
  // Skipped for want of a setting: what to set is the same for the steps after it.
  return skip(`Not run: ${cause} was skipped (${o.message.replace(/\.$/, '')}).`, o.reason ?? { code: 'needs-failed', text: `${cause} was skipped.` });
}

function handoverOf(ctx: CheckContext): Handover {
  let handover = ctx.state.get(HANDOVER);
  if (!handover) ctx.state.set(HANDOVER, (handover = {}));
  return handover;
}

export function signinChecks(settings: SigninSettings, http: () => HttpClient, network?: Pick<NetworkSettings, 'caFile' | 'timeoutMs'>): Check[] {
  const steps = chainFor(settings);
  // Each check's predecessor, to name the step that really stopped the chain rather than a row of skips.
  const BEFORE: Record<string, string> = {
    ...Object.fromEntries(steps.filter((s) => s.after).map((s) => [s.id, s.after!])),
    'signin.api': 'signin.scope',
  };
  const brokerStep = brokerStepOf(settings);
  const chainGate = configured({ broker_url: isConfigured(settings) }, {
    message: 'The sign-in chain is not configured (no clouds.yaml cloud, broker_url, identity_url or credentials).',
    text: 'Give --cloud NAME (an entry of clouds.yaml, as openstack --os-cloud), --config FILE with a "signin:" section, or set CLOUDGATE_BROKER_URL, CLOUDGATE_REALM, CLOUDGATE_CLIENT_ID, '
      + 'CLOUDGATE_CLIENT_SECRET, CLOUDGATE_SUBJECT_TOKEN (or the CLOUDGATE_IDP_* client credentials), OS_AUTH_URL and OS_IDENTITY_PROVIDER.',
  });
  /** The chain's gate, then the step's own settings (names as the operator writes them). */
  const gateOf = (names: string[]): Gate => {
    if (chainGate.kind === 'configured' && !chainGate.open) return chainGate;
    if (names.length === 0) return always;
    return configured(Object.fromEntries(names.map((name) => [name, undefined])), {
      message: `Missing setting${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`,
      text: `Set ${names.join(', ')} in the environment (CLOUDGATE_<NAME>, OS_*) or the "signin:" section of --config.`,
    });
  };
  // Learnt by signin.projects, so signin.scope asks the path the identity service serves straight away.
  const flavour: StepEnv['flavour'] = {};
  const env = (ctx: CheckContext): StepEnv => ({ http: http(), settings, signal: ctx.signal, flavour });

  /** A check of the group: what every one of them does before and after its own work. */
  const check = (
    id: string,
    title: string,
    after: string | undefined,
    work: (ctx: CheckContext, handover: Handover) => Promise<CheckResult | NotRun>,
    lacking: () => string[] = () => [],
  ): Check => ({
    id,
    group: GROUP,
    title,
    ...(after ? { after: [after] } : {}),
    gate: gateOf(lacking()),
    async run(ctx) {
      try {
        const result = await work(ctx, handoverOf(ctx));
        if ('notRun' in result) return result.blockedBy ? blocked(ctx, result.blockedBy, BEFORE) : skip(result.notRun, result.reason);
        return result;
      } catch (error) {
        return failure(error);
      }
    },
  });

  const step = (id: ChainStep['id'], decorate: (result: CheckResult, ctx: CheckContext, handover: Handover) => CheckResult = (r) => r): Check => {
    const s = steps.find((c) => c.id === id)!;
    return check(s.id, s.title, s.after, async (ctx, handover) => {
      let result: CheckResult;
      try {
        const outcome = await s.run(env(ctx), handover);
        if ('notRun' in outcome) return outcome;
        result = toResult(outcome);
      } catch (error) {
        // One more look at the server proves what a failed request alone cannot say (which CA, which scheme).
        const proven = network && (error instanceof StepError || error instanceof HttpError) ? await proveHttpFailure(error, settings, network, ctx.signal) : error;
        result = failure(proven);
      }
      return decorate(result, ctx, handover);
    }, () => s.lacking(settings));
  };
  const has = (id: ChainStep['id']) => steps.some((c) => c.id === id);

  return [
    ...(has('signin.idp-token') ? [step('signin.idp-token')] : []),
    ...(has('signin.exchange') ? [step('signin.exchange')] : []),
    ...(has('signin.broker-token') ? [step('signin.broker-token')] : []),
    check('signin.claims', 'Broker token claims against the identity mapping', brokerStep, async (ctx, { broker, subject }) =>
      broker ? checkClaims(env(ctx), { brokerToken: broker, subjectToken: subject }) : { notRun: 'no broker token', blockedBy: brokerStep }),
    step('signin.federated'),
    step('signin.projects'),
    step('signin.scope', (result, ctx, { scoped }) => {
      if (scoped) ctx.state.set(SERVICE_CATALOG, scoped.catalog);
      return result;
    }),
    check('signin.api', 'Cloud API call with the scoped token', 'signin.scope', async (ctx, { scoped }) =>
      scoped ? toResult(await callApi(env(ctx), scoped)) : { notRun: 'no scoped token', blockedBy: 'signin.scope' }),
  ];
}
