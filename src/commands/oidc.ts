import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfigFile } from '../core/doctor/input.js';
import { buildOidcArtefacts, fileText, renderOidcText } from '../core/discovery/artefacts.js';
import { resolveOidcInputs } from '../core/discovery/oidc-plan.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_INVENTORY } from '../core/paths.js';
import { redact } from '../core/secrets.js';
import { bool, str, type CommandContext } from './types.js';

export async function run(ctx: CommandContext): Promise<number> {
  const { flags, env, cwd } = ctx;
  const timeoutSeconds = str(flags, 'timeout') === undefined ? 10 : Number(str(flags, 'timeout'));
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new UsageError(`--timeout must be a positive number of seconds, not "${str(flags, 'timeout')}".`);
  }
  const notes: string[] = [];
  const inputs = await resolveOidcInputs(
    {
      flags,
      env,
      cwd,
      config: loadConfigFile(str(flags, 'config'), cwd),
      inventoryPath: resolve(cwd, str(flags, 'inventory') ?? DEFAULT_INVENTORY),
      inventoryExplicit: str(flags, 'inventory') !== undefined,
      network: {
        timeoutMs: timeoutSeconds * 1000,
        caFile: str(flags, 'ca-file') ?? (env.OS_CACERT || undefined),
        insecure: bool(flags, 'insecure'),
        allowHttp: false,
        verbose: bool(flags, 'verbose'),
        log: (line) => ctx.stderr.write(redact(line) + '\n'),
      },
    },
    notes,
  );
  const artefacts = buildOidcArtefacts(inputs);
  artefacts.notes.unshift(...notes);

  const out = str(flags, 'out');
  if (out) {
    const written = writeAll(resolve(cwd, out), artefacts.files);
    if (bool(flags, 'json')) ctx.stdout.write(JSON.stringify({ ...artefacts, written }, null, 2) + '\n');
    else ctx.stdout.write(written.map((p) => `${p}\n`).join(''));
    if (!bool(flags, 'json')) for (const note of artefacts.notes) ctx.stderr.write(`note: ${note}\n`);
    return 0;
  }
  ctx.stdout.write(bool(flags, 'json') ? JSON.stringify(artefacts, null, 2) + '\n' : renderOidcText(artefacts));
  return 0;
}

/** Writes every file under a temporary name first, then renames them all: a failure leaves nothing half written. */
function writeAll(dir: string, files: Record<string, unknown>): string[] {
  const staged: [string, string][] = [];
  try {
    for (const [relative, content] of Object.entries(files)) {
      const path = join(dir, relative);
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, fileText(content), { mode: 0o644 });
      staged.push([temporary, path]);
    }
  } catch (error) {
    for (const [temporary] of staged) rmSync(temporary, { force: true });
    throw new UsageError(`Cannot write into ${dir}: ${(error as NodeJS.ErrnoException).code ?? error}.`, 'Choose a writable --out directory.');
  }
  for (const [temporary, path] of staged) renameSync(temporary, path);
  return staged.map(([, path]) => path);
}
