/**
 * `cloudgate completion`: the scripts loaded into the real shells (Debian's bash, zsh and fish, which
 * .ci/run installs) and asked for completions as the shell itself would ask.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const run = promisify(execFile);
let dir: string;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cloudgate-completion-'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell]);
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = join(dir, `cloudgate.${shell}`);
    writeFileSync(scripts[shell], result.stdout);
  }
  mkdirSync(join(dir, 'work', 'inventory'), { recursive: true });
  writeFileSync(join(dir, 'work', 'answers.yml'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers for the words typed so far (the last one being completed), through `complete -F`. */
async function bashComplete(...words: string[]): Promise<string[]> {
  const line = ['cloudgate', ...words].map((w) => `'${w}'`).join(' ');
  const script = `source '${scripts.bash}'
complete -p cloudgate >/dev/null || exit 9
COMP_WORDS=(${line}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
"$(complete -p cloudgate | sed -E 's/.*-F ([^ ]+).*/\\1/')"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', script], { cwd: join(dir, 'work'), timeout: 10_000 });
  return stdout.split('\n').filter(Boolean);
}

describe('bash', () => {
  it('completes commands, then the flags of the command', async () => {
    expect(await bashComplete('do')).toEqual(['doctor']);
    expect(await bashComplete('')).toEqual(expect.arrayContaining(['setup', 'doctor', 'regenerate', 'completion', 'help']));
    expect(await bashComplete('doctor', '--on')).toEqual(['--only']);
    expect((await bashComplete('setup', '--na')).sort()).toEqual(['--names', '--namespace']);
    expect(await bashComplete('token', '--cl')).toEqual(['--cloud']);
  });

  it("offers the kind of object cmctl's tools take, then their flags", async () => {
    expect(await bashComplete('status', '')).toEqual(['certificate']);
    expect(await bashComplete('inspect', 's')).toEqual(['secret']);
    expect(await bashComplete('renew', '--fo')).toEqual(['--force']);
  });

  it('completes the values a flag takes: --only groups (comma lists), --names, --format per command', async () => {
    expect(await bashComplete('doctor', '--only', 'si')).toEqual(['signin']);
    expect(await bashComplete('doctor', '--only', 'tls,ku')).toEqual(['tls,kube']);
    expect(await bashComplete('render', '--names', '')).toEqual(['platform', 'spec']);
    expect(await bashComplete('doctor', '--format', 'j')).toEqual(['json', 'junit']);
    expect(await bashComplete('token', '--format', '')).toEqual(['value', 'env', 'json']);
  });

  it('completes file names for file flags, and nothing for a free value', async () => {
    expect(await bashComplete('setup', '--answers', 'ans')).toEqual(['answers.yml']);
    expect(await bashComplete('doctor', '--inventory', 'inv')).toEqual(['inventory']);
    expect(await bashComplete('doctor', '--domain', 'an')).toEqual([]);
    // After an on/off flag the next word is a flag again.
    expect(await bashComplete('doctor', '--json', '--str')).toEqual(['--strict']);
  });

  it('completes help topics and the shells of completion', async () => {
    expect(await bashComplete('help', 're')).toEqual(['regenerate', 'render', 'renew']);
    expect(await bashComplete('completion', 'f')).toEqual(['fish']);
  });
});

describe('zsh and fish', () => {
  it('zsh loads the script (through bashcompinit) and registers the completion', async () => {
    const { stdout } = await run('zsh', ['-f', '-c', `autoload -U compinit && compinit -u && source '${scripts.zsh}' && print -r -- \${_comps[cloudgate]}`], { timeout: 10_000 });
    expect(stdout.trim()).toBe('_bash_complete -F _cloudgate');
  });

  it('fish offers the same commands, flags and values', async () => {
    const ask = async (line: string) => {
      const { stdout } = await run('fish', ['--no-config', '-c', `source '${scripts.fish}'; complete -C '${line}'`], { timeout: 10_000 });
      return stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    };
    expect(await ask('cloudgate do')).toEqual(['doctor']);
    expect(await ask('cloudgate doctor --on')).toEqual(['--only']);
    expect(await ask('cloudgate doctor --only ')).toEqual(expect.arrayContaining(['signin', 'kube', 'tls']));
    expect(await ask('cloudgate render --names ')).toEqual(['platform', 'spec']);
    expect(await ask('cloudgate status ')).toEqual(['certificate']);
  });
});

describe('usage', () => {
  it('refuses an unknown shell with a suggestion (exit 2)', async () => {
    const result = await runCli(['completion', 'bsh']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cloudgate completion bash');
  });

  it('suggests the group for a mistyped --only', async () => {
    const result = await runCli(['doctor', '--only', 'signn']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean --only signin?');
  });
});
