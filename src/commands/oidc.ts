import { join, resolve } from 'node:path';
import {
  describeWritten,
  NothingWritten,
  writeFilesAtomically,
  type WrittenFile,
} from '../core/inventory/atomic-write.js';
import { buildOidcArtefacts, fileText, renderOidcText } from '../core/oidc/artefacts.js';
import { resolveOidcInputs } from '../core/oidc/plan.js';
import { WriteError, messageOf } from '../core/errors.js';
import { doctorInput } from '../core/doctor/input.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { oidcDoctorOptionsOf } from './options.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'oidc'>): Promise<number> {
  const { cwd } = ctx;
  const notes: string[] = [];
  const role = {
    account: flags.account,
    partition: flags.partition,
    roleName: flags.roleName,
    jwksFile: flags.jwksFile,
    thumbprint: flags.thumbprint,
  };
  const inputs = await resolveOidcInputs(await doctorInput(oidcDoctorOptionsOf(flags, cwd), ctx), role, notes);
  const artefacts = buildOidcArtefacts(inputs);
  artefacts.notes.unshift(...notes);

  const out = flags.out;
  if (out) {
    const files = await writeAll(resolve(cwd, out), artefacts.files);
    const written = files.map((f) => f.path);
    // A file written through a link (the rule let it) says so; the paths on stdout stay the ones asked for.
    for (const f of files) if (f.linkTarget) ctx.stderr.write(`note: ${describeWritten(f)}\n`);
    if (flags.json) ctx.stdout.write(JSON.stringify({ ...artefacts, written }, null, 2) + '\n');
    else ctx.stdout.write(written.map((p) => `${p}\n`).join(''));
    if (!flags.json) for (const note of artefacts.notes) ctx.stderr.write(`note: ${note}\n`);
    return 0;
  }
  ctx.stdout.write(flags.json ? JSON.stringify(artefacts, null, 2) + '\n' : renderOidcText(artefacts));
  return 0;
}

/**
 * All or nothing, through the same exclusive temp files and link rule as the inventory; the documents
 * are public: no backups. A file that cannot be written (a refused link, a full disk) exits 1.
 */
async function writeAll(dir: string, files: Record<string, unknown>): Promise<WrittenFile[]> {
  const entries = Object.entries(files).map(([relative, content]) => ({
    path: join(dir, relative),
    content: fileText(content),
    mode: 0o644,
    holdsSecret: false,
    description: relative,
  }));
  try {
    return await writeFilesAtomically(entries, new Date(), { backup: false });
  } catch (error) {
    throw new WriteError(
      `Cannot write into ${dir}: ${messageOf(error)}.`,
      (error instanceof NothingWritten && error.advice) || 'Choose a --out directory you can write to.',
    );
  }
}
