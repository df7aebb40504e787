import { dirname, relative, resolve } from 'node:path';
import { doctorInput, runOptionsOf, withCurrentContext, type FoundSetting } from '../core/doctor/input.js';
import { exitCodeFor, runChecks } from '../core/doctor/runner.js';
import { EXIT, UsageError, WriteError, messageOf } from '../core/errors.js';
import { cloudgateVersion } from '../core/version.js';
import { stat } from 'node:fs/promises';
import type { DoctorReport } from '../core/doctor/types.js';
import type { TextOptions } from '../ui/text/text.js';
import { colorEnabled, useColor } from '../ui/color.js';
import { AREA_METRICS, checksOf, GROUP_TITLES } from '../core/areas/index.js';
import { cloudSettingsLines } from '../core/areas/signin/settings.js';
import { escapeLine } from '../core/escape.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { doctorOptionsOf, onlyOf } from './options.js';
import { DOCTOR_FORMATS } from '../cli-options.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'doctor'>): Promise<number> {
  const only = onlyOf(flags);
  const verbose = flags.verbose;
  const format = formatOf(flags);
  const json = format === 'json';
  const output = flags.output;
  if (output !== undefined && (output === '' || flags.listChecks)) {
    throw new UsageError(output === '' ? '--output needs a file name.' : '--output does not apply to --list-checks.');
  }
  const outputPath = output === undefined ? undefined : resolve(ctx.cwd, output);
  if (outputPath !== undefined) await checkOutputPath(outputPath);
  const given = await doctorInput(doctorOptionsOf(flags, ctx.cwd), ctx);
  // kubectl's current context counts (and is reported) only for a run that asks the cluster.
  const input = only.length === 0 || only.includes('kube') ? await withCurrentContext(given) : given;
  const startedAt = performance.now();
  const checks = await checksOf(input, only);

  if (flags.listChecks) {
    if (json)
      ctx.stdout.write(
        JSON.stringify(
          checks.map(({ id, group, title }) => ({ id, group, title })),
          null,
          2,
        ) + '\n',
      );
    else for (const c of checks) ctx.stdout.write(`${c.id.padEnd(32)} ${c.title}\n`);
    return 0;
  }

  // A run given no group and nothing to check would report a row of skips and pass: say how to start instead.
  if (only.length === 0 && input.somethingToCheck === false) throw nothingToCheck(input.inventoryPath, ctx.cwd);
  for (const line of foundLines(input.found ?? [])) ctx.stderr.write(`${escapeLine(line)}\n`);
  if (only.length === 0 || only.includes('signin'))
    for (const line of cloudSettingsLines(input)) ctx.stderr.write(`${escapeLine(line)}\n`);
  if (input.network.insecure) {
    ctx.stderr.write(
      'WARNING: --insecure: TLS certificates are NOT verified; a result of "ok" proves nothing about them.\n',
    );
  }

  const runOptions = { ...runOptionsOf(input), startedAt };
  const dumb = ctx.env.TERM === 'dumb';
  if (ctx.interactive && format === 'text' && output === undefined && !dumb) {
    const { runLiveDoctor } = await import('../ui/ink/doctor-live.js');
    const { report, interrupted } = await runLiveDoctor(checks, runOptions, {
      verbose,
      color: colorEnabled(ctx.env),
      titles: GROUP_TITLES,
      requested: only,
    });
    return interrupted ? EXIT.cancelled : exitCodeFor(report, flags.strict, only);
  }
  // Ctrl+C stops the checks still running; what finished is still reported, then exit 130.
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once('SIGINT', onInterrupt);
  const report = await runChecks(checks, { ...runOptions, signal: stop.signal }).finally(() =>
    process.off('SIGINT', onInterrupt),
  );
  if (stop.signal.aborted)
    ctx.stderr.write('Interrupted: the checks still running were stopped (reported as not run).\n');
  const color = output === undefined && useColor(ctx.stdout, ctx.env);
  // Wrapped to a terminal's width only: a file or a pipe keeps one line per check, for grep and diff.
  const width = output === undefined && ctx.stdout.isTTY ? ctx.stdout.columns : undefined;
  const rendered = await render(format, report, {
    verbose,
    color,
    ascii: dumb,
    titles: GROUP_TITLES,
    width,
    requested: only,
  });
  if (output === undefined) ctx.stdout.write(rendered);
  else await writeOutput(outputPath!, rendered, format, ctx);
  return stop.signal.aborted ? EXIT.cancelled : exitCodeFor(report, flags.strict, only);
}

const FOUND_WORDS: Record<FoundSetting['name'], string> = {
  inventory: 'Inventory',
  cloud: 'clouds.yaml cloud',
  context: 'Kube context',
  ca_file: 'CA file',
};

/** What the run took from somewhere other than its flags, and from where (never a secret: paths and names). */
export function foundLines(found: readonly FoundSetting[]): string[] {
  return found.map((f) => `${FOUND_WORDS[f.name]}: ${f.value} (from ${f.from}).`);
}

/** The usage error of a doctor run that found nothing to check: where it looked, and how to start. */
function nothingToCheck(inventoryPath: string, cwd: string): UsageError {
  const shown = relative(cwd, inventoryPath) || '.';
  return new UsageError(
    `Nothing to check: no inventory (none given, saved or named by ansible.cfg, and no ${shown.startsWith('..') ? inventoryPath : shown} here), no clouds.yaml cloud (--cloud, OS_CLOUD), no kube context, no --config.`,
    [
      'Start with one of:',
      '    cloudgate config set inventory ~/cloud/inventory   # remembered for every run: then just "cloudgate doctor"',
      '    cloudgate doctor --inventory PATH                  # an inventory file or folder',
      '    cloudgate doctor --cloud NAME                      # the sign-in chain of a clouds.yaml entry (as openstack --os-cloud)',
      '    cloudgate doctor --only tls --endpoint HOST        # what an endpoint serves',
      '  "cloudgate doctor --help" lists every setting; "cloudgate config list" shows the saved ones.',
    ].join('\n'),
  );
}

export type Format = (typeof DOCTOR_FORMATS)[number];

/** `--format` (one of the table's formats: the parser refused any other), with `--json` as its older spelling of `--format json`. */
export function formatOf(flags: Pick<FlagsOf<'doctor'>, 'format' | 'json'>): Format {
  const given = flags.format;
  if (flags.json && given !== undefined && given !== 'json') {
    throw new UsageError(`--json and --format ${given} contradict each other.`, 'Use one --format.');
  }
  return flags.json ? 'json' : (given ?? 'text');
}

/** Each format's renderer, loaded only when its format is asked for: a format without one is a compile error. */
const RENDERERS = {
  text: async (report, options) => (await import('../ui/text/text.js')).renderText(report, options),
  json: async (report) => (await import('../ui/text/json.js')).renderJson(report),
  junit: async (report, options) => (await import('../ui/text/junit.js')).renderJunit(report, options.titles),
  prometheus: async (report) =>
    (await import('../ui/text/prometheus.js')).renderPrometheus({
      report,
      finishedAt: new Date(),
      version: cloudgateVersion(),
      areaMetrics: AREA_METRICS,
    }),
} satisfies Record<Format, (report: DoctorReport, options: TextOptions) => Promise<string>>;

function render(format: Format, report: DoctorReport, options: TextOptions): Promise<string> {
  return RENDERERS[format](report, options);
}

/**
 * Before the checks run: FILE's folder exists (none is created: a typo would otherwise make a folder
 * the node exporter never reads; exit 2), and no link on the way breaks the link rule (exit 1, the
 * file cannot be written). The write checks both again.
 */
async function checkOutputPath(path: string): Promise<void> {
  const { PathRefused, resolveWritePath } = await import('../core/inventory/links.js');
  let target: string;
  try {
    target = (await resolveWritePath(path)).path;
  } catch (error) {
    if (error instanceof PathRefused) throw new WriteError(`Cannot write ${path}: ${error.message}`, error.advice);
    throw new UsageError(`Cannot write ${path}: ${messageOf(error)}`);
  }
  const folder = await stat(dirname(target)).catch(() => undefined);
  if (!folder?.isDirectory()) {
    throw new UsageError(
      `Cannot write ${path}: the folder ${dirname(target)} does not exist${folder ? ' (it is not a folder)' : ''}; cloudgate creates no folder for --output.`,
      `Create it first (mkdir -p ${dirname(target)}) or give a file in an existing folder.`,
    );
  }
}

/**
 * Replaces FILE whole, never half-written: the node exporter's textfile collector may read it at
 * any moment. A report rewritten every minute needs no backup of the previous one.
 */
async function writeOutput(path: string, content: string, format: Format, ctx: CommandContext): Promise<void> {
  const [{ NothingWritten, writeFilesAtomically }, { describeLinks }] = await Promise.all([
    import('../core/inventory/atomic-write.js'),
    import('../core/inventory/links.js'),
  ]);
  let written;
  try {
    [written] = await writeFilesAtomically(
      [{ path, content, mode: 0o644, holdsSecret: false, description: `doctor report (${format})` }],
      new Date(),
      { backup: false, createFolders: false },
    );
  } catch (error) {
    throw new WriteError(
      `Cannot write ${path}: ${messageOf(error)}`,
      (error instanceof NothingWritten && error.advice) ||
        'Check that its folder exists and is writable by you, and that the disk has room.',
    );
  }
  const through = written?.linkTarget
    ? ` through the link ${describeLinks(written.links ?? [])} to ${written.linkTarget}`
    : '';
  ctx.stderr.write(`Wrote the ${format} report to ${path}${through}.\n`);
}
