/**
 * Doctor group `tls`: one `tls.<host>` check per configured endpoint, plus `tls.catalog` for the
 * endpoints the sign-in chain's service catalog names (known only once `signin.scope` ran).
 */
import { setMaxListeners } from 'node:events';
import { SERVICE_CATALOG } from '../../doctor/facts.js';
import type { Check, CheckResult, RunResult } from '../../doctor/types.js';
import type { CheckProvider } from '../../doctor/area.js';
import type { RunServices } from '../../doctor/services.js';
import { probeTls, TlsProbeError } from '../../net/tls-probe.js';
import { trustOf } from '../../net/trust.js';
import { stalledHandshakeAdvice } from '../../net/http-errors.js';
import {
  endpointId,
  endpointsFromCatalog,
  endpointsFromInventory,
  endpointsFromSettings,
  unique,
  type Endpoint,
} from './endpoints.js';
import { expectationsFrom, type ServedExpectations } from '../../config/expectations.js';
import { inventoryValuesOnDemand } from '../../inventory/values-on-demand.js';
import { messageOf } from '../../errors.js';
import { settingList } from '../../config/settings.js';
import type { EndpointFacts } from './analyze.js';
import { CATALOG, UNREACHABLE } from './messages.js';

/** Probes in flight at once: enough that 50 endpoints take about as long as the slowest one. */
const PROBE_CONCURRENCY = 64;

export const provideChecks: CheckProvider = async (input) => {
  const values = await inventoryValuesOnDemand(input);
  const expected = expectationsFrom(values, input.inventoryPath);
  const configured = unique([
    ...endpointsFromSettings(settingList(input, 'tls', 'endpoints'), input.configPath),
    ...endpointsFromInventory(values),
  ]);
  // The runner runs a bounded number of checks at once; the probes of all endpoints start together
  // when the first tls check runs, so each check mostly waits for a result already on its way.
  // They stop with the signal of the check that started them: every check's signal ends with the run
  // (Ctrl+C, the deadline), and the probes end by their own timeout before that check's.
  let probes: Map<Endpoint, Promise<CheckResult<EndpointFacts>>> | undefined;
  const resultOf = (endpoint: Endpoint, services: RunServices, signal: AbortSignal) => {
    probes ??= new Map(probeAll(configured, expected, services, signal).map((p, i) => [configured[i], p]));
    return probes.get(endpoint)!;
  };
  const checks: Check[] = configured.map((endpoint) => ({
    id: endpointId(endpoint),
    group: 'tls',
    title: `TLS certificate served by ${endpoint.host}${endpoint.port === 443 ? '' : `:${endpoint.port}`}`,
    timeoutMs: input.network.timeoutMs + 1000,
    run: (ctx) => resultOf(endpoint, ctx.services, ctx.signal),
  }));
  checks.push({
    id: 'tls.catalog',
    group: 'tls',
    title: 'TLS certificates of the service catalog endpoints',
    // The sign-in chain hands the catalog on; without it (not configured, failed, not in the run) the runner says why.
    needs: [SERVICE_CATALOG],
    timeoutMs: input.network.timeoutMs * 2 + 1000,
    run: async (ctx): Promise<RunResult> => {
      const covered = new Set(configured.map(endpointId));
      const endpoints = endpointsFromCatalog(ctx.facts.need(SERVICE_CATALOG)).filter(
        (e) => !covered.has(endpointId(e)),
      );
      if (endpoints.length === 0) {
        return {
          unavailable: 'not-applicable',
          message: CATALOG.noEndpoint(covered.size > 0),
          text: CATALOG.coveredByOthers,
        };
      }
      return checkCatalog(endpoints, expected, ctx.services, ctx.signal);
    },
  });
  return checks;
};

export async function checkEndpoint(
  endpoint: Endpoint,
  expected: ServedExpectations,
  services: RunServices,
  signal?: AbortSignal,
): Promise<CheckResult<EndpointFacts>> {
  const { network } = services;
  try {
    // The analysis (certificate names, chain paths) loads while the handshake is under way, not before it.
    const probing = probeTls({
      host: endpoint.address ?? endpoint.host,
      servername: endpoint.host,
      port: endpoint.port,
      trust: trustOf(services),
      insecure: network.insecure,
      timeoutMs: network.timeoutMs,
      signal,
    });
    const [probe, { analyzeServed }] = await Promise.all([probing, import('./analyze.js')]);
    return analyzeServed(endpoint, probe, expected, services.clock.now(), { insecure: network.insecure });
  } catch (error) {
    const code =
      error instanceof TlsProbeError ? (error.stalled === 'handshake' ? 'handshake-timeout' : error.code) : undefined;
    const target = endpoint.address ?? endpoint.host;
    const advice: Record<string, string> = {
      dns: UNREACHABLE.dns(endpoint.host, endpoint.origin),
      refused: UNREACHABLE.refused(`${target}:${endpoint.port}`, endpoint.origin),
      timeout: UNREACHABLE.timeout(`${target}:${endpoint.port}`),
      'handshake-timeout': stalledHandshakeAdvice(`${target}:${endpoint.port}`),
      handshake: UNREACHABLE.notTls(`${target}:${endpoint.port}`, endpoint.origin),
      'ca-file': UNREACHABLE.caFile,
    };
    return {
      status: 'fail',
      message: messageOf(error),
      advice: (code && advice[code]) ?? UNREACHABLE.checkReachable(endpoint.host, endpoint.port, endpoint.origin),
      facts: {
        endpoint: `${endpoint.host}:${endpoint.port}`,
        source: endpoint.origin,
        ...(endpoint.address ? { address: endpoint.address } : {}),
      },
      subject: { endpoint: `${endpoint.host}:${endpoint.port}` },
    };
  }
}

/** One line per catalog endpoint, as the check's parts (grouped, as flutter's grouped validators keep their sub-results). */
async function checkCatalog(
  endpoints: Endpoint[],
  expected: ServedExpectations,
  services: RunServices,
  signal: AbortSignal,
): Promise<CheckResult> {
  const settled = await Promise.all(probeAll(endpoints, expected, services, signal));
  const results = settled.map((result, i) => ({ id: endpointId(endpoints[i]), result }));
  results.sort((a, b) => a.id.localeCompare(b.id));
  const bad = results.filter((r) => r.result.status === 'fail' || r.result.status === 'warn');
  const status = results.some((r) => r.result.status === 'fail') ? 'fail' : bad.length ? 'warn' : 'ok';
  const parts = results.map(({ id, result }) => ({
    name: id,
    status: result.status,
    message: result.message,
    ...(result.advice ? { advice: result.advice } : {}),
  }));
  // Every catalog endpoint's certificates, each under its own host:port.
  const certificates = results.flatMap((r) => r.result.certificates ?? []);
  if (status === 'ok') return { status, message: CATALOG.allValid(results.length), parts, certificates };
  return {
    status,
    message: CATALOG.problems(bad.length, results.length, bad.map((r) => `${r.id}: ${r.result.message}`).join(' ')),
    advice: [...new Set(bad.map((r) => r.result.advice).filter(Boolean))].join(' '),
    parts,
    certificates,
  };
}

/** The checks of `endpoints`, probed at most PROBE_CONCURRENCY at once, all stopping with `signal`. */
function probeAll(
  endpoints: Endpoint[],
  expected: ServedExpectations,
  services: RunServices,
  signal: AbortSignal,
): Promise<CheckResult<EndpointFacts>>[] {
  // Each probe in flight listens to the signal: more listeners than Node's default warning limit (10).
  setMaxListeners(PROBE_CONCURRENCY + 10, signal);
  return mapBounded(endpoints, PROBE_CONCURRENCY, (e) => checkEndpoint(e, expected, services, signal));
}

/** Runs `work` over `items` with at most `limit` in flight; one promise per item, in order. */
function mapBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R>[] {
  let active = 0;
  const waiting: (() => void)[] = [];
  return items.map(async (item) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work(item);
    } finally {
      active--;
      waiting.shift()?.();
    }
  });
}
