import { UsageError, messageOf, codeOf } from '../core/errors.js';
import { startExporter } from '../serve/exporter.js';
import { DEFAULT_INTERVAL, DEFAULT_LISTEN, parseInterval, parseListen } from '../serve/options.js';
import { doctorInput, runOptionsOf } from '../core/doctor/input.js';
import { cloudgateVersion } from '../core/version.js';
import { AREA_METRICS, checksOf } from '../core/areas/index.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { doctorOptionsOf, onlyOf } from './options.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'serve'>): Promise<number> {
  const listen = parseListen(flags.listen ?? DEFAULT_LISTEN);
  const intervalMs = parseInterval(flags.interval ?? DEFAULT_INTERVAL);
  const only = onlyOf(flags);
  const input = await doctorInput(doctorOptionsOf(flags, ctx.cwd, 'serve'), ctx);
  // Once before listening: settings the checks reject (an unreadable file, say) are exit 2 here.
  await checksOf(input, only);

  let exporter;
  try {
    exporter = await startExporter({
      ...listen,
      intervalMs,
      version: cloudgateVersion(),
      areaMetrics: AREA_METRICS,
      provide: () => checksOf(input, only),
      runOptions: runOptionsOf(input),
      log: (line) => ctx.stderr.write(`${line}\n`),
    });
  } catch (error) {
    const code = codeOf(error);
    throw new UsageError(
      `Cannot listen on ${flags.listen ?? DEFAULT_LISTEN}: ${code ?? messageOf(error)}.`,
      code === 'EADDRINUSE'
        ? 'Another process uses that port: choose another with --listen HOST:PORT.'
        : 'Check the address given to --listen.',
    );
  }
  ctx.stderr.write(
    `Listening on http://${exporter.address} (/metrics, /checks, /healthz); a run every ${flags.interval ?? DEFAULT_INTERVAL}.\n`,
  );

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  // A check aborted mid-request may leave a socket or a kubectl child behind: they must not keep
  // the process past the second an orchestrator grants after SIGTERM.
  setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 0), 800).unref();
  await exporter.stop();
  ctx.stderr.write(`Stopped (${signal}) after ${exporter.runs()} run(s).\n`);
  return signal === 'SIGINT' ? 130 : 0;
}
