import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildOidcArtefacts, fileText, renderOidcText } from '../core/discovery/artefacts.js';
import { resolveOidcInputs } from '../core/discovery/oidc-plan.js';
import { UsageError } from '../core/errors.js';
import { doctorInput } from './doctor.js';
import { bool, str, type CommandContext } from './types.js';

export async function run(ctx: CommandContext): Promise<number> {
  const { flags, cwd } = ctx;
  const notes: string[] = [];
  const inputs = await resolveOidcInputs(doctorInput(ctx), notes);
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
