/**
 * A projected service-account token for the token service, made exactly as cert-manager
 * makes it (`kubectl create token <sa> -n <namespace> --audience <sts audience> --duration 600s`), or
 * read from --token-file. The token is registered as a secret before anything can print it.
 */
import { resolve } from 'node:path';
import type { DoctorInput } from '../../doctor/input.js';
import type { CheckContext, CheckResult } from '../../doctor/types.js';
import { firstLine, kubectl } from '../../kube/kubectl.js';
import { always, cluster, notConfigured, type Gate } from '../../doctor/gates.js';
import { isDnsSubdomain } from '../../kube/names.js';
import { kubeOptionsFor } from '../../kube/options.js';
import { audiences, jwtClaims, stringClaim } from '../../jwt/token.js';
import { readOwnedFileSync } from '../../safe-read.js';
import { registerSecret } from '../../secrets.js';
import type { DiscoverySettings } from '../../config/discovery-settings.js';
import { messageOf } from '../../errors.js';
import { CLOSED } from './messages.js';
import { TOKEN } from './messages/document.js';

export interface MintedToken {
  token: string;
  /** Where it came from, for messages (never the token). */
  from: string;
}

/** The command cert-manager's request amounts to (`audience`: the token service's; none: the cluster's own). */
export function mintCommand(s: DiscoverySettings, audience?: string): string[] {
  return [
    'create',
    'token',
    s.serviceAccount,
    '-n',
    s.namespace,
    ...(audience ? ['--audience', audience] : []),
    '--duration',
    '600s',
  ];
}

/** A token, or why none could be had: kubectl refused (`failed`), or the token file is unreadable. */
export type TokenSource = MintedToken | { failed: string; command: string } | CheckResult;

/**
 * Where the token of discovery.token and discovery.sts comes from, decided when they are listed: the
 * token file when one is given, else the cluster (the runner asks whether kubectl reaches it), for a
 * service account name kubectl can be given.
 */
export function tokenGate(s: DiscoverySettings, input: DoctorInput): Gate {
  if (s.tokenFile) return always;
  // `kubectl create token` takes no names after `--`: a name that could pass for a flag is refused instead.
  if (!isDnsSubdomain(s.serviceAccount)) {
    const closed = CLOSED.badServiceAccount(s.serviceAccount);
    return notConfigured(closed.message, closed.text);
  }
  return cluster(kubeOptionsFor(input), { lead: CLOSED.noTokenFromCluster });
}

/** The token from --token-file, or minted for the service account in the context the gate found; the one way both checks get it. */
export async function readOrMintToken(
  s: DiscoverySettings,
  input: DoctorInput,
  ctx: CheckContext,
  audience?: string,
): Promise<TokenSource> {
  if (s.tokenFile) {
    let token: string;
    try {
      token = readOwnedFileSync(resolve(input.cwd, s.tokenFile), {
        what: 'the token file',
        maxBytes: 64 * 1024,
      }).trim();
    } catch (error) {
      return { status: 'fail', message: messageOf(error), advice: TOKEN.checkTokenFile };
    }
    registerSecret(token);
    return { token, from: `--token-file ${s.tokenFile}` };
  }
  const kube = kubeOptionsFor(input, { signal: ctx.signal, log: (line) => ctx.log(line) });
  const context = ctx.cluster?.context;
  if (!context) throw new Error("a token was minted without the cluster gate's context");
  const args = mintCommand(s, audience);
  const result = await kubectl(args, { ...kube, context, secretOutput: true });
  if (result.exitCode !== 0)
    return { failed: firstLine(result.stderr) || `exit code ${result.exitCode}`, command: `kubectl ${args.join(' ')}` };
  return { token: result.stdout.trim(), from: `kubectl ${args.join(' ')} (context ${context})` };
}

export async function stsToken(
  s: DiscoverySettings,
  input: DoctorInput,
  ctx: CheckContext,
): Promise<MintedToken | CheckResult> {
  const source = await readOrMintToken(s, input, ctx, s.stsAudience);
  if ('failed' in source) {
    return {
      status: 'fail',
      message: TOKEN.requestFailed(source.command, source.failed),
      advice: TOKEN.requestLikeCertManager(s.namespace),
    };
  }
  return source;
}

export interface TokenClaims {
  iss?: string;
  sub?: string;
  aud: string[];
  exp?: number;
}

/** The claims as the token service reads them, unverified (only to explain a refusal); undefined if not a JWT. */
export function readClaims(token: string): TokenClaims | undefined {
  const claims = jwtClaims(token);
  if (!claims) return undefined;
  return {
    iss: stringClaim(claims, 'iss'),
    sub: stringClaim(claims, 'sub'),
    aud: audiences(claims),
    exp: typeof claims.exp === 'number' ? claims.exp : undefined,
  };
}
