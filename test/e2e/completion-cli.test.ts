/**
 * `cloudgate completion`: the scripts loaded into the real shells (Debian's bash, zsh and fish, which
 * .ci/run installs) and asked for completions as the shell itself would ask.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';

for (const tool of ['tmux', 'zsh', 'fish']) requireTool(tool, tool);

const run = promisify(execFile);
let dir: string;
let home: string;
let bin: string;
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
  // The user's world: clouds.yaml entries, kubeconfig contexts, a file in the home folder, cloudgate on the PATH.
  home = join(dir, 'home');
  bin = join(dir, 'bin');
  mkdirSync(join(home, '.config', 'openstack'), { recursive: true });
  mkdirSync(join(home, '.kube'));
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'cloudgate'));
  writeFileSync(join(home, 'home-file.pem'), '');
  writeFileSync(join(home, '.config', 'openstack', 'clouds.yaml'), 'clouds:\n  prod-east: {}\n  prod-west: {}\n');
  writeFileSync(
    join(home, '.kube', 'config'),
    'apiVersion: v1\nkind: Config\ncontexts:\n- name: staging\n  context: {cluster: s, user: s}\n',
  );
  mkdirSync(join(dir, 'zfunc'));
  writeFileSync(
    join(dir, 'zfunc', '_cloudgate'),
    scripts.zsh === undefined ? '' : (await runCli(['completion', 'zsh'])).stdout,
  );
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
  // cloudgate on the PATH: the script asks it for the groups of --only.
  const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', script], {
    cwd: join(dir, 'work'),
    timeout: 10_000,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
  return stdout.split('\n').filter(Boolean);
}

describe('bash', () => {
  it('completes commands, then the flags of the command', async () => {
    expect(await bashComplete('do')).toEqual(['doctor']);
    expect(await bashComplete('')).toEqual(
      expect.arrayContaining(['setup', 'doctor', 'regenerate', 'completion', 'help']),
    );
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

/**
 * A real shell in tmux with the script loaded, as a user has it: keys go in with send-keys, the completed
 * command line comes back with capture-pane. `cloudgate` on the PATH is the built program (the scripts
 * ask it for clouds and contexts). No fixed waits: each step waits for the screen to show its result.
 */
let shells = 0;
function shellTerminal(command: string) {
  const socket = `cg-completion-${process.pid}-${++shells}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const env = `env -i HOME=${home} TERM=xterm PS1='$ ' PATH=${bin}:${dirname(process.execPath)}:/usr/bin:/bin`;
  tmux('new-session', '-d', '-s', 'cg', '-x', '200', '-y', '40', '-c', join(dir, 'work'), `${env} ${command}`);
  const screen = () => tmux('capture-pane', '-p', '-t', 'cg');
  const waitFor = (what: string, test: (screen: string) => boolean) =>
    waitUntil(what, () => test(screen()) && true, { timeoutMs: 15_000, intervalMs: 20, lastSeen: screen });
  return {
    async run(line: string) {
      // The marker is split in the typed line, so only its output shows it whole.
      tmux('send-keys', '-t', 'cg', '-l', `${line}; echo DO''NE`);
      tmux('send-keys', '-t', 'cg', 'Enter');
      await waitFor('the setup to finish', (s) => /^DONE$/m.test(s));
      tmux('send-keys', '-t', 'cg', '-l', 'clear');
      tmux('send-keys', '-t', 'cg', 'Enter');
      await waitFor('a clear screen', (s) => !s.includes('DONE'));
    },
    /** Types `typed`, presses Tab once per step of `tabs`, and returns once the command line ends in `expected`. */
    async complete(typed: string, expected: string, tabs: string[] = []) {
      tmux('send-keys', '-t', 'cg', '-l', typed);
      tmux('send-keys', '-t', 'cg', 'Tab');
      for (const more of tabs) {
        await waitFor(`the screen to change after ${typed}<Tab>`, (s) => !s.trimEnd().endsWith(typed));
        tmux('send-keys', '-t', 'cg', '-l', more);
        tmux('send-keys', '-t', 'cg', 'Tab');
      }
      await waitFor(`"${typed}"<Tab> to become "${expected}"`, (s) =>
        s.split('\n').some((l) => l.trimEnd().endsWith(expected.trimEnd())),
      );
      // Abandon the line, wait for the next prompt, then clear the screen for the next case.
      // A C-c that lands while the shell still runs its completion widget only ends the widget: it is sent again until the prompt shows.
      let asked = 0;
      await waitFor('a fresh prompt', (s) => {
        if (asked++ % 25 === 0) tmux('send-keys', '-t', 'cg', 'C-c');
        const last = s.trimEnd().split('\n').at(-1)!.trimEnd();
        return /[$#%>]$/.test(last) && !last.includes('cloudgate');
      });
      tmux('send-keys', '-t', 'cg', '-l', 'clear');
      tmux('send-keys', '-t', 'cg', 'Enter');
      await waitFor('a clear screen', (s) => !s.includes('cloudgate'));
    },
    kill: () => tmux('kill-server'),
  };
}

describe.each([
  ['zsh without compinit', 'zsh -f', () => `source ${scripts.zsh}`],
  ['zsh with compinit', 'zsh -f', () => `autoload -Uz compinit && compinit -u; source <(cloudgate completion zsh)`],
  ['zsh from $fpath', 'zsh -f', () => `fpath=(${join(dir, 'zfunc')} $fpath); autoload -Uz compinit && compinit -u`],
  ['fish', 'fish --no-config', () => `source ${scripts.fish}`],
  ['bash', 'bash --norc --noprofile', () => `source ${scripts.bash}`],
])('%s, in a terminal', (_, command, setup) => {
  const bash = command.startsWith('bash');
  it('comma lists go on after an item; folders, ~/ and clouds.yaml entries complete; help and config too', async () => {
    const term = shellTerminal(command);
    try {
      await term.run(setup());
      await term.complete(
        'cloudgate doctor --only sig',
        bash ? 'cloudgate doctor --only signin' : 'cloudgate doctor --only signin,',
      );
      await term.complete(
        'cloudgate doctor --only signin,t',
        bash ? 'cloudgate doctor --only signin,tls' : 'cloudgate doctor --only signin,tls,',
      );
      await term.complete(
        'cloudgate doctor --only=signin,di',
        bash ? 'cloudgate doctor --only=signin,discovery' : 'cloudgate doctor --only=signin,discovery,',
      );
      await term.complete('cloudgate doctor --inventory inv', 'cloudgate doctor --inventory inventory/');
      await term.complete('cloudgate doctor --inventory ~/home-f', 'cloudgate doctor --inventory ~/home-file.pem');
      await term.complete('cloudgate doctor --cloud prod-w', 'cloudgate doctor --cloud prod-west');
      await term.complete('cloudgate regenerate --context st', 'cloudgate regenerate --context staging');
      await term.complete('cloudgate he', 'cloudgate help');
      await term.complete('cloudgate config set cl', 'cloudgate config set cloud');
      await term.complete('cloudgate config set cloud prod-e', 'cloudgate config set cloud prod-east');
      await term.complete('cloudgate help conf', 'cloudgate help config');
      await term.complete('cloudgate status cer', 'cloudgate status certificate');
      await term.complete('cloudgate inspect s', 'cloudgate inspect secret');
    } finally {
      term.kill();
    }
  }, 120_000);
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
