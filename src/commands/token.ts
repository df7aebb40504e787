import { shellQuote } from '../core/shell-quote.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { networkSettings, runDeadlineMs } from '../core/config/network.js';
import { startSettings } from '../core/config/start-settings.js';
import { loadConfigFile } from '../core/config/settings.js';
import { escapeLine } from '../core/escape.js';
import { EXIT, UsageError } from '../core/errors.js';
import { httpOf } from '../core/net/http.js';
import { trustOf } from '../core/net/trust.js';
import { openServices } from '../core/doctor/services.js';
import { ChainError, runChain } from '../core/areas/signin/chain.js';
import { readFlavour, writeFlavour } from '../core/areas/signin/flavour-cache.js';
import { cloudSettingsLines, readSigninSettings } from '../core/areas/signin/settings.js';
import { proveHttpFailure } from '../core/areas/signin/proofs.js';
import type { Scoped } from '../core/areas/signin/identity.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { networkOptionsOf } from './options.js';
import { TOKEN_FORMATS } from '../cli-options.js';

type Format = (typeof TOKEN_FORMATS)[number];

export async function run(ctx: CommandContext, flags: FlagsOf<'token'>): Promise<number> {
  const { env, cwd } = ctx;
  // One of TOKEN_FORMATS: the parser refused any other.
  const format = flags.format ?? 'value';
  const { config, findings } = await loadConfigFile(flags.config, cwd);
  const given = flags.project === undefined ? {} : { project: flags.project };
  // The cloud and the CA file as doctor finds them: flag, environment, clouds.yaml, the saved settings.
  const { cloud, caFile, sources } = await startSettings(
    { cloud: flags.cloud, caFile: flags.caFile, given },
    env,
    cwd,
    config,
  );
  const network = networkSettings({ ...networkOptionsOf(flags), caFile }, { stderr: ctx.stderr, cloud });
  const settings = readSigninSettings(sources);
  const { verbose, log } = network;
  if (network.caFile && !existsSync(resolve(cwd, network.caFile))) {
    throw new UsageError(`The CA file ${network.caFile} does not exist.`, 'Check --ca-file (or OS_CACERT).');
  }
  if (verbose) for (const line of cloudSettingsLines(sources)) log(escapeLine(line));
  for (const f of findings.filter((f) => f.section === 'signin' || f.section === undefined))
    log(escapeLine(`warning: ${f.message} ${f.advice}`));
  if (network.insecure)
    log('WARNING: --insecure: TLS certificates are NOT verified; the token may have been handed to an impostor.');

  // What the run owns (the HTTP client, the trust store) is closed when it ends.
  const services = openServices(network);
  const http = httpOf(services);
  const deadline = AbortSignal.timeout(runDeadlineMs(network));
  // Which paths the identity service serves, from the last run: one request per step when healthy.
  const flavour = { value: settings.identityUrl ? readFlavour(env, settings.identityUrl) : undefined };
  const known = flavour.value;
  let scoped: Scoped;
  try {
    scoped = await runChain(
      { http, settings, signal: deadline, clock: services.clock, flavour },
      (step, result) => {
        if (verbose) log(`✓ ${step}: ${result.message}`);
        if (result.warning) log(`! ${step}: ${result.warning}`);
      },
      (error) =>
        proveHttpFailure(error, settings, { timeoutMs: network.timeoutMs, trust: trustOf(services) }, deadline),
    );
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
    if (error.input) throw new UsageError(error.message, error.advice);
    log(`error: ${error.step}: ${error.message}`);
    log(`  ${error.advice}`);
    return EXIT.findings;
  } finally {
    await services.close();
    if (settings.identityUrl && flavour.value && flavour.value !== known) {
      const file = await writeFlavour(env, settings.identityUrl, flavour.value, log);
      if (verbose && file)
        log(
          `Remembered in ${file} that ${settings.identityUrl} serves the ${flavour.value === 'keystone' ? 'standard Keystone' : "platform's documented"} paths.`,
        );
    }
  }
  ctx.stdout.write(render(scoped, format, `${settings.identityUrl}/v3`));
  return EXIT.ok;
}

function render(scoped: Scoped, format: Format, authUrl: string): string {
  if (format === 'value') return `${scoped.token}\n`;
  if (format === 'env') {
    return [
      `export OS_TOKEN=${shellQuote(scoped.token)}`,
      `export OS_AUTH_URL=${shellQuote(authUrl)}`,
      'export OS_AUTH_TYPE=token',
      `export OS_PROJECT_ID=${shellQuote(scoped.project.id)}`,
      '',
    ].join('\n');
  }
  return (
    JSON.stringify(
      {
        token: scoped.token,
        expires_at: scoped.expiresAt ?? null,
        auth_url: authUrl,
        project: scoped.project,
        catalog: scoped.catalog,
      },
      null,
      2,
    ) + '\n'
  );
}
