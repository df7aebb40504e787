/**
 * kubectl: the one way cloudgate talks to a cluster. Honours KUBECONFIG (inherited environment),
 * `--kubeconfig` and `--context`; every call has a timeout, at which kubectl and everything it started
 * is killed (core/child.ts). A non-zero exit is a result, not an exception; only a missing binary, a
 * timeout or a cancellation throw. Names that come from outside (secrets, service accounts) are passed
 * after `--`, so a name starting with `-` is never read as a flag.
 */
import { runChild } from './child.js';
import { redact, registerSecret } from '../secrets.js';

export interface KubectlOptions {
  context?: string;
  kubeconfig?: string;
  /** Written to kubectl's stdin (e.g. a manifest for `apply -f -`). */
  input?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Environment of kubectl; defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  /** stdout carries a secret (a token, a Secret's data): register it before anyone prints it. */
  secretOutput?: boolean;
  /** A line per command and its exit code (for --verbose); redacted here. */
  log?: (line: string) => void;
  /** kubectl's stdout as it comes. */
  onStdout?: (chunk: Buffer) => void;
  /** What this call is for, in words ("listing the secrets in openstack"): a kubectl that does not answer is reported with it. */
  step?: string;
}

export interface KubectlResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export type KubeAvailability = { ok: true; context: string } | { ok: false; reason: string };

const DEFAULT_TIMEOUT_MS = 20_000;

/** kubectl is not installed (or CLOUDGATE_KUBECTL names a missing file). */
export class KubectlMissing extends Error {
  constructor(readonly binary: string) {
    super(`kubectl was not found (looked for "${binary}" on PATH).`);
    this.name = 'KubectlMissing';
  }
  readonly advice = 'Install kubectl (https://kubernetes.io/docs/tasks/tools/) or set CLOUDGATE_KUBECTL to its path.';
}

/** kubectl ran but failed, timed out, or printed something that is not the JSON asked for. */
export class KubectlError extends Error {
  /** What to do about it, from how kubectl failed: a check that lets this error through reports it. */
  readonly advice: string;

  constructor(
    message: string,
    readonly result: KubectlResult,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'KubectlError';
    this.advice = kubectlAdvice(result.stderr, timedOut);
  }
}

function kubectlAdvice(stderr: string, timedOut: boolean): string {
  if (timedOut)
    return 'The cluster\'s API server did not answer in time: check "kubectl get --raw /readyz" with the same context, or raise --timeout.';
  if (/forbidden/i.test(stderr))
    return 'The kubectl user may not read this: check its rights with "kubectl auth can-i", or use a context that may.';
  if (/unauthorized|must be logged in|credentials/i.test(stderr))
    return "kubectl's credentials were refused: log in again, or check the user of the kubectl context.";
  if (/unable to connect|connection refused|no such host|i\/o timeout/i.test(stderr))
    return 'kubectl cannot reach the API server: check the cluster address of the kubectl context and the network to it.';
  return 'Check access to the cluster with the same kubectl context.';
}

export function kubectlBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLOUDGATE_KUBECTL || 'kubectl';
}

function globalArgs(opts: KubectlOptions, timeoutMs: number): string[] {
  const args = [`--request-timeout=${Math.max(1, Math.ceil(timeoutMs / 1000))}s`];
  if (opts.kubeconfig) args.push(`--kubeconfig=${opts.kubeconfig}`);
  if (opts.context) args.push(`--context=${opts.context}`);
  return args;
}

export async function kubectl(args: string[], opts: KubectlOptions = {}): Promise<KubectlResult> {
  const env = opts.env ?? process.env;
  const binary = kubectlBinary(env);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  opts.log?.(redact(`$ kubectl ${args.join(' ')}${opts.context ? ` --context=${opts.context}` : ''}`));
  // Global flags go first: after a `--` in `args` they would be read as names.
  const result = await runChild(binary, [...globalArgs(opts, timeoutMs), ...args], {
    input: opts.input ?? '',
    timeoutMs,
    signal: opts.signal,
    env,
    onStdout: opts.onStdout,
  });
  // ENOTDIR: a path through something that is not a folder (CLOUDGATE_KUBECTL=/nonexistent/kubectl).
  if (result.startError?.code === 'ENOENT' || result.startError?.code === 'ENOTDIR') throw new KubectlMissing(binary);
  if (result.startError)
    throw new Error(
      `kubectl (${binary}) could not be started: ${result.startError.code ?? result.startError.message}.`,
    );
  const { stdout, stderr } = result;
  if (opts.secretOutput) registerSecret(stdout);
  if (result.cancelled) throw opts.signal?.reason ?? new Error('kubectl was cancelled.');
  if (result.timedOut) {
    // kubectl's own timeout, not cloudgate's: it was stopped (with everything it started), and the step says what it was doing.
    throw new KubectlError(
      `kubectl ${describe(args)} did not answer within ${Math.round(timeoutMs / 1000)} s${opts.step ? ` (${opts.step})` : ''}; it was stopped.`,
      { exitCode: -1, stdout, stderr },
      true,
    );
  }
  opts.log?.(`  exit ${result.exitCode}${result.exitCode ? `: ${firstLine(stderr)}` : ''}`);
  return { exitCode: result.exitCode, stdout, stderr };
}

/** Inserts options before the `--` that ends them (at the end when there is none). */
export function withOptions(args: string[], ...options: string[]): string[] {
  const end = args.indexOf('--');
  return end < 0 ? [...args, ...options] : [...args.slice(0, end), ...options, ...args.slice(end)];
}

/** Runs kubectl asking for JSON (`-o json` is added unless the arguments choose an output). */
export async function kubectlJson<T>(args: string[], opts: KubectlOptions = {}): Promise<T> {
  const end = args.indexOf('--');
  const wantsOutput = (end < 0 ? args : args.slice(0, end)).some(
    (a) => a === '-o' || a.startsWith('-o=') || a.startsWith('--output') || a === '--raw',
  );
  const full = wantsOutput ? args : withOptions(args, '-o', 'json');
  const result = await kubectl(full, opts);
  if (result.exitCode !== 0) {
    throw new KubectlError(
      `kubectl ${describe(args)} failed: ${firstLine(result.stderr) || `exit code ${result.exitCode}`}`,
      result,
    );
  }
  try {
    // The object kubectl was asked for, in the shape the caller names: unchecked, read with `?.`.
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new KubectlError(
      `kubectl ${describe(args)} printed something that is not JSON: ${firstLine(result.stdout).slice(0, 200) || '(nothing)'}`,
      result,
    );
  }
}

/** What `kubectl get ... -o json` gave: the object, or why not (a missing object or kind is `notFound`). */
export type JsonGet = { ok: true; value: unknown } | { ok: false; notFound: boolean; error: string };

/** kubectlJson for a lookup that may find nothing: NotFound (or a kind the cluster lacks) is an answer, not a failure. */
export async function kubectlGet(args: string[], opts: KubectlOptions = {}): Promise<JsonGet> {
  try {
    return { ok: true, value: await kubectlJson<unknown>(args, opts) };
  } catch (error) {
    if (!(error instanceof KubectlError) || error.timedOut) throw error;
    const { stderr, exitCode } = error.result;
    if (exitCode === 0) return { ok: false, notFound: false, error: error.message };
    return {
      ok: false,
      notFound: /NotFound|doesn't have a resource type|not found/i.test(stderr),
      error: firstLine(stderr) || `kubectl exit code ${exitCode}`,
    };
  }
}

/** Plain-language first line of kubectl's stderr, redacted. */
export function firstLine(stderr: string): string {
  const line =
    stderr
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return redact(line.replace(/^error: /i, ''));
}

/** The first words of a kubectl command line, for a message: not ending on an option without its value. */
function describe(args: string[]): string {
  const shown = args.slice(0, 4);
  if (shown.length > 1 && /^-[^=]*$/.test(shown[shown.length - 1])) shown.pop();
  return redact(shown.join(' '));
}

/** The answers of one run (a doctor run, a serve round), per kubectl binary, kubeconfig and context. */
export type AvailabilityCache = Map<string, Promise<KubeAvailability>>;

/**
 * Whether cluster checks can run: kubectl installed, a context chosen, the API server answering.
 * The reason of a negative answer is a sentence fit for a `skip`. Asked once per kubeconfig/context
 * within `cache`, which the caller scopes to its run (the doctor's is in the run's state): a cluster
 * that comes back is seen by the next serve round.
 */
export function kubeAvailability(opts: KubectlOptions = {}, cache?: AvailabilityCache): Promise<KubeAvailability> {
  if (!cache) return probeAvailability(opts);
  const env = opts.env ?? process.env;
  const key = JSON.stringify([kubectlBinary(env), opts.kubeconfig ?? env.KUBECONFIG ?? '', opts.context ?? '']);
  let pending = cache.get(key);
  if (!pending) {
    pending = probeAvailability(opts);
    cache.set(key, pending);
  }
  return pending;
}

async function probeAvailability(opts: KubectlOptions): Promise<KubeAvailability> {
  const env = opts.env ?? process.env;
  const where = opts.kubeconfig ?? env.KUBECONFIG ?? '~/.kube/config';
  const quick = { ...opts, input: undefined, log: undefined, timeoutMs: Math.min(opts.timeoutMs ?? 10_000, 10_000) };
  try {
    let context = opts.context;
    if (!context) {
      const current = await kubectl(['config', 'current-context'], { ...quick, context: undefined });
      context = current.stdout.trim();
      if (current.exitCode !== 0 || !context) {
        return {
          ok: false,
          reason: `kubectl has no current context (kubeconfig ${where}); pass --context NAME or run "kubectl config use-context NAME".`,
        };
      }
    } else {
      const names = await kubectl(['config', 'get-contexts', '-o', 'name'], { ...quick, context: undefined });
      if (
        !names.stdout
          .split('\n')
          .map((l) => l.trim())
          .includes(context)
      ) {
        return {
          ok: false,
          reason: `kubectl has no context "${context}" (kubeconfig ${where}); "kubectl config get-contexts" lists them.`,
        };
      }
    }
    const version = await kubectl(['get', '--raw', '/version'], { ...quick, context });
    if (version.exitCode !== 0) {
      return {
        ok: false,
        reason: `the cluster of context "${context}" is unreachable: ${firstLine(version.stderr) || `kubectl exit code ${version.exitCode}`}.`,
      };
    }
    return { ok: true, context };
  } catch (error) {
    if (error instanceof KubectlMissing) return { ok: false, reason: `${error.message} ${error.advice}` };
    if (error instanceof KubectlError) return { ok: false, reason: `the cluster did not answer: ${error.message}` };
    throw error;
  }
}
