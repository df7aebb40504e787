/**
 * The inventory and its TLS Secret manifest are written as one transaction, under the inventory lock:
 * a stopping signal (SIGTERM, SIGINT) or a failure (a full disk: ENOSPC) at ANY step of it leaves both
 * files old or both new, never the new inventory beside the old manifest, and neither the lock nor a
 * temp; a failure says what the disk holds. Every call into node:fs/promises (and every call on a file
 * handle it opens) is a step: the signal is emitted, or the failure thrown, right after the k-th one,
 * for every k of an uninterrupted run (test/helpers/stopped-run.ts says how a signal is emitted).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { stoppedRunFixture } from '../../../helpers/stopped-run.js';

/** `fail` runs before each call (a failure there means the call never happened), `step` after it. */
const hook: { step?: (name: string) => void; fail?: (name: string) => void } = {};

function wrapHandle<T extends object>(handle: T): T {
  return new Proxy(handle, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        // close(2) releases the descriptor even when it reports an error (EIO on a network disk), so a
        // failure at close is thrown after it: a handle left open would be closed by the garbage
        // collector, which Node 26 makes an uncaught error of its own.
        if (key !== 'close') hook.fail?.(`handle.${String(key)}`);
        const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (key === 'close') hook.fail?.('handle.close');
        hook.step?.(`handle.${String(key)}`);
        return out;
      };
    },
  });
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  const wrapped: Record<string, unknown> = { ...real };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || name === 'constants') continue;
    wrapped[name] = async (...args: unknown[]) => {
      hook.fail?.(name);
      const out = await (value as (...a: unknown[]) => Promise<unknown>)(...args);
      hook.step?.(name);
      return name === 'open' ? wrapHandle(out as object) : out;
    };
  }
  return { ...wrapped, default: wrapped };
});

const { writeFilesAtomically, NothingWritten } = await import('../../../../src/core/inventory/atomic-write.js');
const { withInventoryLock } = await import('../../../../src/core/inventory/lock.js');

const run = stoppedRunFixture('cloudgate-every-step-');
afterEach(() => {
  hook.step = undefined;
  hook.fail = undefined;
});

const OLD = { inventory: 'cluster_issuer_type: acme\n', manifest: 'old: manifest\n' };
const NEW = { inventory: 'cluster_issuer_type: ca\n', manifest: 'new: manifest\n' };

/** A folder holding the old pair. */
function site(k: number): { dir: string; inventory: string; manifest: string } {
  const dir = join(run.dir, `k${k}`);
  mkdirSync(join(dir, 'manifests'), { recursive: true });
  const inventory = join(dir, 'certs.yml');
  const manifest = join(dir, 'manifests', 'wildcard.secret.yaml');
  writeFileSync(inventory, OLD.inventory, { mode: 0o600 });
  writeFileSync(manifest, OLD.manifest, { mode: 0o600 });
  return { dir, inventory, manifest };
}

const write = (s: ReturnType<typeof site>) =>
  withInventoryLock(s.inventory, () =>
    writeFilesAtomically(
      [
        { path: s.inventory, content: NEW.inventory, mode: 0o600, holdsSecret: true, description: 'inventory' },
        { path: s.manifest, content: NEW.manifest, mode: 0o600, holdsSecret: true, description: 'TLS Secret manifest' },
      ],
      new Date('2026-03-04T05:06:07Z'),
    ),
  );

interface Disk {
  pair: string;
  extra: string[];
  backups: number;
}

/** What the site holds: which pair (old, new or mixed), files that are neither, and how many backups. */
function look(s: ReturnType<typeof site>): Disk {
  const inventory = readFileSync(s.inventory, 'utf8');
  const manifest = readFileSync(s.manifest, 'utf8');
  const pair =
    inventory === OLD.inventory && manifest === OLD.manifest
      ? 'old'
      : inventory === NEW.inventory && manifest === NEW.manifest
        ? 'new'
        : `mixed: ${inventory.trim()} / ${manifest.trim()}`;
  const names = [...readdirSync(s.dir), ...readdirSync(join(s.dir, 'manifests'))];
  const backups = names.filter((n) => n.endsWith('.bak')).length;
  const extra = names.filter(
    (n) => !['certs.yml', 'manifests', 'wildcard.secret.yaml'].includes(n) && !n.endsWith('.bak'),
  );
  return { pair, extra, backups };
}

/** The steps of an uninterrupted run. */
async function countSteps(): Promise<number> {
  let steps = 0;
  hook.step = () => steps++;
  await write(site(0));
  hook.step = undefined;
  expect(look(site(0))).toMatchObject({ pair: 'old' }); // a fresh site, to be sure site() resets
  return steps;
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s at every step of the two-file write', (signal) => {
  it('leaves both files old or both new, with their backups only when new, and no lock or temp', async () => {
    // As in a real run, nobody else listens for the signal while setup writes (the test runner does: set aside).
    const others = process.listeners(signal);
    process.removeAllListeners(signal);
    onTestFinished(() => {
      for (const listener of others) process.on(signal, listener);
    });
    const steps = await countSteps();
    expect(steps).toBeGreaterThan(20);
    const seen = new Set<string>();
    for (let k = 1; k <= steps; k++) {
      const s = site(k);
      let disk: Disk | undefined;
      let step = 0;
      hook.step = () => {
        if (++step !== k) return;
        process.emit(signal, signal);
        disk = look(s);
      };
      await write(s).catch(() => undefined);
      hook.step = undefined;
      expect(disk, `step ${k}`).toBeDefined();
      expect({ k, ...disk! }).toEqual({
        k,
        pair: disk!.pair === 'new' ? 'new' : 'old',
        extra: [],
        backups: disk!.pair === 'new' ? 2 : 0,
      });
      seen.add(disk!.pair);
    }
    expect(run.exit).toHaveBeenCalledWith(signal === 'SIGTERM' ? 143 : 130);
    // Signals before the commit and after it: both outcomes were met.
    expect([...seen].sort()).toEqual(['new', 'old']);
  });
});

/** The calls that can fail for want of room (making a name, writing, flushing); removing and reading cannot. */
const FAILABLE = new Set([
  'open',
  'mkdir',
  'link',
  'rename',
  'handle.write',
  'handle.writeFile',
  'handle.sync',
  'handle.close',
]);

describe('a failure (ENOSPC) at every step of the two-file write', () => {
  it('either completes or leaves the old pair, says "Nothing was written", and leaves no lock or temp', async () => {
    const steps = await countSteps();
    let failed = 0;
    for (let k = 1; k <= steps; k++) {
      const s = site(k);
      let step = 0;
      hook.fail = (name) => {
        if (++step === k && FAILABLE.has(name))
          throw Object.assign(new Error(`ENOSPC: no space left on device, ${name}`), { code: 'ENOSPC' });
      };
      const error = await write(s).then(
        () => undefined,
        (e: unknown) => e,
      );
      hook.fail = undefined;
      const disk = look(s);
      expect({ k, extra: disk.extra }).toEqual({ k, extra: [] });
      if (error === undefined || disk.pair === 'new') {
        // A failure after the commit (pruning, closing) changes nothing of the new state.
        expect({ k, ...disk }).toEqual({ k, pair: 'new', extra: [], backups: 2 });
        continue;
      }
      failed++;
      expect({ k, ...disk }).toEqual({ k, pair: 'old', extra: [], backups: 0 });
      expect((error as Error).message, `step ${k}`).toMatch(/^(Nothing was written|Cannot take the lock)/);
      if (error instanceof NothingWritten) expect(error.partial).toBe(false);
    }
    expect(failed).toBeGreaterThan(10);
  });

  it('the second rename failing puts the inventory back and says so', async () => {
    const s = site(1);
    let renames = 0;
    hook.fail = (name) => {
      if (name === 'rename' && ++renames === 2)
        throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' });
    };
    const error = await write(s).catch((e: Error) => e);
    expect(error).toBeInstanceOf(NothingWritten);
    expect((error as Error).message).toContain(`the inventory ${s.inventory} put back to its previous version`);
    expect((error as Error).message).toContain(`the TLS Secret manifest ${s.manifest} unchanged`);
    expect(look(s)).toEqual({ pair: 'old', extra: [], backups: 0 });
  });

  it('when the inventory cannot be put back either, the message says which file holds what, and its backup stays', async () => {
    const s = site(1);
    let renames = 0;
    hook.fail = (name) => {
      if (name === 'rename' && ++renames >= 2)
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    };
    const error = (await write(s).catch((e: Error) => e)) as InstanceType<typeof NothingWritten>;
    expect(error.partial).toBe(true);
    expect(error.message).toMatch(
      new RegExp(
        `the inventory ${s.inventory} holds the NEW version; the previous one is kept as ${s.inventory}\\.20260304T050607Z\\.bak`,
      ),
    );
    expect(error.message).toContain(`the TLS Secret manifest ${s.manifest} unchanged`);
    expect(readFileSync(`${s.inventory}.20260304T050607Z.bak`, 'utf8')).toBe(OLD.inventory);
    expect(look(s).extra).toEqual([]);
  });
});
