/** How the live commands (doctor, serve, token, oidc) reach servers: timeout, trust, plain http, logging. */
import { UsageError } from '../errors.js';
import { lineWriter } from '../net/http-log.js';
import type { CloudSettings } from './clouds-yaml.js';

export interface NetworkSettings {
  timeoutMs: number;
  caFile?: string;
  insecure: boolean;
  allowHttp: boolean;
  verbose: boolean;
  log: (line: string) => void;
}

/** What the command line says about the network (`--timeout`, `--ca-file`, `--insecure`, `--allow-http`, `--verbose`). */
export interface NetworkOptions {
  /** `--timeout SECONDS` as given; checked by parseTimeout. */
  timeout?: string;
  caFile?: string;
  insecure: boolean;
  allowHttp: boolean;
  verbose: boolean;
}

export const NO_NETWORK_OPTIONS: NetworkOptions = { insecure: false, allowHttp: false, verbose: false };

export const TIMEOUT_RANGE_S = { min: 0.1, max: 3600, default: 10 } as const;

/**
 * `--timeout SECONDS`, the one place it is read: a plain decimal number from 0.1 to 3600. Returned
 * in milliseconds.
 */
export function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return TIMEOUT_RANGE_S.default * 1000;
  const text = String(raw).trim();
  const seconds = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= TIMEOUT_RANGE_S.min && seconds <= TIMEOUT_RANGE_S.max)) {
    throw new UsageError(
      `--timeout must be a number of seconds from ${TIMEOUT_RANGE_S.min} to ${TIMEOUT_RANGE_S.max}, not "${text}".`,
      `Give the time one request or check may take, e.g. --timeout 10 (the default).`,
    );
  }
  return Math.round(seconds * 1000);
}

/** A run's network settings when its command gives none (a test, a check run on its own). */
export const DEFAULT_NETWORK: NetworkSettings = {
  timeoutMs: TIMEOUT_RANGE_S.default * 1000,
  insecure: false,
  allowHttp: false,
  verbose: false,
  log: () => undefined,
};

/**
 * The network settings of one run from its flags and the clouds.yaml entry (`verify: false`). The CA
 * file is the one the settings resolver found (--ca-file, OS_CACERT, clouds.yaml cacert, the saved
 * settings: start-settings.ts): its order is not written again here.
 */
export function networkSettings(
  options: NetworkOptions,
  { stderr, cloud }: { stderr: NodeJS.WritableStream; cloud?: CloudSettings },
): NetworkSettings {
  return {
    timeoutMs: parseTimeout(options.timeout),
    caFile: options.caFile,
    insecure: options.insecure || (cloud?.insecure ?? false),
    allowHttp: options.allowHttp,
    verbose: options.verbose,
    log: lineWriter(stderr),
  };
}

/** How long a whole run (all of doctor's checks, or token's chain) may take: six timeouts, at least a minute. */
export function runDeadlineMs(network: Pick<NetworkSettings, 'timeoutMs'>): number {
  return Math.max(60_000, network.timeoutMs * 6);
}
