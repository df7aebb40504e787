/**
 * For tests of what a stopping signal leaves behind: a fresh folder per test and process.exit replaced,
 * so that the exit a handled signal asks for leaves the test process up. `stopAndLook` emits the signal
 * in-process and returns what the folder holds once it is handled: what a process ended by it would
 * leave (the run goes on afterwards, so its later state says nothing).
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

export interface StoppedRun {
  dir: string;
  exit: MockInstance<typeof process.exit>;
  stopAndLook(signal?: NodeJS.Signals): string[];
}

export function stoppedRunFixture(prefix: string): StoppedRun {
  let dir = '';
  let exit: MockInstance<typeof process.exit> | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  });
  afterEach(async () => {
    exit?.mockRestore();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get exit() {
      if (!exit) throw new Error('stoppedRunFixture: used outside a test');
      return exit;
    },
    stopAndLook(signal: NodeJS.Signals = 'SIGTERM') {
      process.emit(signal, signal);
      return readdirSync(dir);
    },
  };
}
