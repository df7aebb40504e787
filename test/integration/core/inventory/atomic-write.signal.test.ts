/**
 * A stopping signal while a write creates its files: the new version's temp, and the backup of the old
 * version while it is copied. Each must go with the process (exit 143), not stay in the inventory's
 * folder (a temp until a later run removes it as stale, a truncated backup for ever). The signal is
 * emitted right after the real open(2) of the file (test/helpers/stopped-run.ts says how).
 */
import { writeFileSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stoppedRunFixture } from '../../../helpers/stopped-run.js';

const onOpened: { run?: (path: string) => void } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      onOpened.run?.(String(args[0]));
      return handle;
    },
  };
});

const { writeFilesAtomically } = await import('../../../../src/core/inventory/atomic-write.js');

const run = stoppedRunFixture('cloudgate-write-signal-');
afterEach(() => {
  onOpened.run = undefined;
});

/** Stops the run right after the nth new file (a temp or a backup) is opened; what it left and the files seen. */
function stopAtNewFile(nth = 1): { opened: string[]; leftAtExit?: string[] } {
  const seen: { opened: string[]; leftAtExit?: string[] } = { opened: [] };
  onOpened.run = (path) => {
    if (!/\.(tmp|bak)$/.test(path) || seen.opened.length >= nth) return;
    seen.opened.push(path);
    if (seen.opened.length === nth) seen.leftAtExit = run.stopAndLook();
  };
  return seen;
}

const file = (path: string) => ({
  path,
  content: 'cluster_issuer_type: self-signed\n',
  mode: 0o600,
  holdsSecret: false,
  description: 'inventory',
});

describe('SIGTERM while a temp file is being written', () => {
  it('an atomic write: its temp is removed and the run exits 143', async () => {
    const seen = stopAtNewFile();
    await writeFilesAtomically([file(join(run.dir, 'certs.yml'))]).catch(() => undefined);
    expect(seen.opened).toHaveLength(1);
    expect(run.exit).toHaveBeenCalledWith(143);
    expect(seen.leftAtExit).toEqual([]);
  });

  it('replacing a file: the backup being copied is removed with the temps, exit 143', async () => {
    const target = join(run.dir, 'certs.yml');
    writeFileSync(target, 'cluster_issuer_type: ca\n', { mode: 0o600 });
    const seen = stopAtNewFile(2); // the new version's temp, then the backup of the old one
    await writeFilesAtomically([file(target)]).catch(() => undefined);
    expect(seen.opened).toHaveLength(2);
    expect(run.exit).toHaveBeenCalledWith(143);
    expect(seen.leftAtExit).toEqual(['certs.yml']);
  });
});
