/**
 * A stopping signal while a write creates its files: the new version's temp, and the backup of the old
 * version while it is copied. Each must go with the process (exit 143), not stay in the inventory's
 * folder (a temp until a later run removes it as stale, a truncated backup for ever). The signal is emitted in-process right after the real open(2)
 * of the temp, and process.exit is replaced, so the test process stays up.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

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

let dir: string;
let exit: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-write-signal-'));
  exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
});
afterEach(async () => {
  onOpened.run = undefined;
  exit.mockRestore();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Emits SIGTERM once, right after the nth new file (a temp or a backup) is opened, and records what the folder holds
 * once the signal is handled: what a process ended by it would leave behind (the replaced
 * process.exit lets the run go on afterwards, so its later state says nothing).
 */
function stopAtNewFile(nth = 1): { temps: string[]; leftAtExit?: string[] } {
  const seen: { temps: string[]; leftAtExit?: string[] } = { temps: [] };
  onOpened.run = (path) => {
    if (!/\.(tmp|bak)$/.test(path) || seen.temps.length >= nth) return;
    seen.temps.push(path);
    if (seen.temps.length < nth) return;
    process.emit('SIGTERM', 'SIGTERM');
    seen.leftAtExit = readdirSync(dir);
  };
  return seen;
}

describe('SIGTERM while a temp file is being written', () => {
  it('an atomic write: its temp is removed and the run exits 143', async () => {
    const seen = stopAtNewFile();
    await writeFilesAtomically([{ path: join(dir, 'certs.yml'), content: 'cluster_issuer_type: self-signed\n', mode: 0o600, holdsSecret: false, description: 'inventory' }]).catch(() => undefined);
    expect(seen.temps).toHaveLength(1);
    expect(exit).toHaveBeenCalledWith(143);
    expect(seen.leftAtExit).toEqual([]);
  });

  it('replacing a file: the backup being copied is removed with the temps, exit 143', async () => {
    const target = join(dir, 'certs.yml');
    writeFileSync(target, 'cluster_issuer_type: ca\n', { mode: 0o600 });
    const seen = stopAtNewFile(2); // the new version's temp, then the backup of the old one
    await writeFilesAtomically([{ path: target, content: 'cluster_issuer_type: self-signed\n', mode: 0o600, holdsSecret: false, description: 'inventory' }]).catch(() => undefined);
    expect(seen.temps).toHaveLength(2);
    expect(exit).toHaveBeenCalledWith(143);
    expect(seen.leftAtExit).toEqual(['certs.yml']);
  });
});
