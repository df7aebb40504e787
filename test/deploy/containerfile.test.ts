/**
 * deploy/Containerfile against what it must agree with: the Deployment's user, the executable
 * `npm run build:exe` writes, and the shared libraries Node's binary links, which the slim base must
 * carry. (Building the image needs a registry for the base; docs/commands/serve.md says what was run.)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { underCI } from '../helpers/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CONTAINERFILE = readFileSync(`${ROOT}deploy/Containerfile`, 'utf8');

/** The instructions of the last stage (the image), continuation lines joined. */
function finalStage(): { instruction: string; args: string }[] {
  const lines = CONTAINERFILE.replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  const last = lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true);
  return lines.slice(last).map((l) => ({ instruction: l.split(' ')[0], args: l.slice(l.indexOf(' ') + 1).trim() }));
}

const of = (name: string) =>
  finalStage()
    .filter((i) => i.instruction === name)
    .map((i) => i.args);

/** The libraries a Debian slim image has without installing anything (libc6, libgcc-s1, libstdc++6: apt needs them). */
const IN_SLIM_BASE = [
  'libc.so.6',
  'libm.so.6',
  'libdl.so.2',
  'libpthread.so.0',
  'ld-linux-x86-64.so.2',
  'ld-linux-aarch64.so.1',
  'libgcc_s.so.1',
  'libstdc++.so.6',
];
/** What the Debian packages the Containerfile installs provide. */
const FROM_PACKAGES: Record<string, string[]> = { libatomic1: ['libatomic.so.1'] };

describe('deploy/Containerfile', () => {
  it("is Debian's slim base carrying the executable and kubectl: no Node, npm or tarball", () => {
    expect(of('FROM')).toEqual([expect.stringMatching(/^docker\.io\/library\/debian:[a-z]+-slim$/)]);
    expect(CONTAINERFILE).not.toMatch(/npm (install|pack)|library\/node:/);
    expect(of('COPY')).toEqual([
      '--from=kubectl /kubectl /usr/local/bin/kubectl',
      '${EXECUTABLE} /usr/local/bin/cloudgate',
    ]);
    expect(of('ARG')).toEqual([`EXECUTABLE=dist/cloudgate-linux-x64`]);
    expect(of('ENTRYPOINT')).toEqual(['["/usr/local/bin/cloudgate"]']);
  });

  it("runs as the Deployment's non-root user, its home in the one writable folder", () => {
    const deployment = parse(readFileSync(`${ROOT}deploy/deployment.yaml`, 'utf8')) as {
      spec: {
        template: {
          spec: {
            securityContext: { runAsUser: number; runAsGroup: number };
            containers: { env: { name: string; value: string }[] }[];
          };
        };
      };
    };
    const pod = deployment.spec.template.spec;
    expect(of('USER')).toEqual([`${pod.securityContext.runAsUser}:${pod.securityContext.runAsGroup}`]);
    expect(pod.securityContext.runAsUser).not.toBe(0);
    expect(of('ENV')).toEqual(['HOME=/tmp']);
    expect(pod.containers[0].env).toContainEqual({ name: 'HOME', value: '/tmp' });
  });

  it("installs every shared library Node's binary links that the slim base lacks", () => {
    const found = spawnSync(process.execPath, [`${ROOT}scripts/node-lines.mjs`, 'path'], { encoding: 'utf8' });
    if (found.status !== 0) {
      // As the executable's own tests: the active LTS is installed by .ci/run; under CI its absence fails.
      expect(underCI(), found.stderr).toBe(false);
      console.warn(`skipped: the shared libraries of Node's binary: ${found.stderr.trim()}`);
      return;
    }
    const dynamic = spawnSync('readelf', ['-d', found.stdout.trim()], { encoding: 'utf8' });
    expect(dynamic.status, 'readelf (Debian package binutils)').toBe(0);
    const needed = [...dynamic.stdout.matchAll(/\(NEEDED\)\s+Shared library: \[(.+)\]/g)].map((m) => m[1]);
    expect(needed).toContain('libc.so.6');
    const installed =
      of('RUN')
        .join(' ')
        .match(/apt-get install -y --no-install-recommends ([a-z0-9 .+-]+?)(?: &&|$)/)?.[1]
        .trim()
        .split(/\s+/) ?? [];
    const provided = [...IN_SLIM_BASE, ...installed.flatMap((p) => FROM_PACKAGES[p] ?? [])];
    expect(needed.filter((lib) => !provided.includes(lib))).toEqual([]);
    expect(installed).toEqual(['libatomic1']);
  });
});
