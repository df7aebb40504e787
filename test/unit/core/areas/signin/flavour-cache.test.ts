import {
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flavourCacheFile, readFlavour, writeFlavour } from '../../../../../src/core/areas/signin/flavour-cache.js';

const cacheHome = () => ({ XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'cg-flavour-')) });

describe('the identity paths cache', () => {
  it('remembers a flavour per identity URL in a 0600 file, without credentials or query', async () => {
    const env = cacheHome();
    const file = await writeFlavour(env, 'https://user:pw@identity.example.com/?x=1', 'keystone');
    expect(file).toBe(flavourCacheFile(env));
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(file!, 'utf8')).not.toMatch(/user|pw|x=1/);
    expect(readFlavour(env, 'https://identity.example.com')).toBe('keystone');
    // Unchanged: nothing is written.
    expect(await writeFlavour(env, 'https://identity.example.com', 'keystone')).toBeUndefined();
    // No temp file is left beside it.
    expect(readdirSync(join(env.XDG_CACHE_HOME, 'cloudgate'))).toEqual(['identity-paths.json']);
  });

  it('keeps the newest entries and ignores a cache it cannot write', async () => {
    const env = cacheHome();
    for (let i = 0; i < 60; i++) await writeFlavour(env, `https://id${i}.example.com`, 'platform');
    const entries = Object.keys(JSON.parse(readFileSync(flavourCacheFile(env), 'utf8')));
    expect(entries).toHaveLength(50);
    expect(entries.at(-1)).toBe('https://id59.example.com');

    const blocked = cacheHome();
    writeFileSync(join(blocked.XDG_CACHE_HOME, 'cloudgate'), 'a file where the folder should be');
    expect(await writeFlavour(blocked, 'https://identity.example.com', 'keystone')).toBeUndefined();
  });

  it('is never written through a link, not even one the writer owns: the file linked to is untouched, and the warning names the link', async () => {
    for (const owner of [0, 65534]) {
      const env = cacheHome();
      const victim = join(env.XDG_CACHE_HOME, 'root-only');
      writeFileSync(victim, 'root: secret\n', { mode: 0o600 });
      mkdirSync(join(env.XDG_CACHE_HOME, 'cloudgate'));
      const link = flavourCacheFile(env);
      symlinkSync(victim, link);
      lchownSync(link, owner, owner);
      const warnings: string[] = [];

      expect(
        await writeFlavour(env, 'https://identity.example.com', 'keystone', (line) => warnings.push(line)),
      ).toBeUndefined();

      expect(readFileSync(victim, 'utf8')).toBe('root: secret\n');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(link);
      expect(warnings[0]).toContain(`uid ${owner}`);
    }
  });
});
