/**
 * README's quick start, run as written: the shell blocks of "Quick start with your own inventory" are
 * taken from README.md and run one command at a time with `cloudgate` on the PATH (the built
 * bin/cloudgate.js) and HOME a scratch folder holding an inventory at ~/cloud/inventory.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { issue } from '../helpers/pki.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The commands of the `sh` blocks under the quick start's subsection starting `### <n>.`, heredocs and `\` lines kept whole. */
function commandsOf(n: number): string[] {
  const start = README.indexOf('## Quick start with your own inventory');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  const sub = section.slice(section.indexOf(`### ${n}.`)).split(/\n### /)[0];
  const blocks = [...sub.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const commands: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    for (let i = 0; i < lines.length; i++) {
      let command = lines[i];
      const heredoc = /<<'(\w+)'/.exec(command);
      if (heredoc) while (lines[i] !== heredoc[1]) command += `\n${lines[++i]}`;
      while (command.endsWith('\\')) command += `\n${lines[++i]}`;
      commands.push(command);
    }
  }
  return commands;
}

let home: string;
let binDir: string;
const inventory = () => join(home, 'cloud/inventory/group_vars/all/certificates.yml');

function run(command: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', command], {
    cwd: home,
    env: {
      ...process.env,
      HOME: home,
      PATH: `${binDir}:${process.env.PATH}`,
      CI: 'true',
      NO_COLOR: '1',
      KUBECONFIG: join(home, 'no-kubeconfig'),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'cloudgate-quickstart-'));
  binDir = join(home, 'bin');
  mkdirSync(binDir);
  symlinkSync(BIN, join(binDir, 'cloudgate'));
  mkdirSync(join(home, 'cloud/inventory/group_vars/all'), { recursive: true });
  // The platform's play runs on the group controllers, as its hosts file names it.
  writeFileSync(
    join(home, 'cloud/inventory/hosts.yml'),
    'all:\n  children:\n    controllers:\n      hosts:\n        ctl1:\n          ansible_host: 127.0.0.1\n',
  );
  writeFileSync(
    join(home, 'cloud/inventory/group_vars/all/other.yml'),
    "# the operator's own variables\nntp_server: 127.0.0.1\n",
  );
  const ca = await issue({ cn: 'Example Cloud CA', ca: true });
  writeFileSync(join(home, 'cloud/ca.pem'), ca.cert);
  writeFileSync(join(home, 'cloud/ca.key'), ca.key, { mode: 0o600 });
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("README's quick start, as written", () => {
  it('1. sets up certificates: the dry run writes nothing, the second command writes, Ansible reads it', () => {
    const commands = commandsOf(1);
    const setups = commands.filter((c) => c.startsWith('cloudgate setup --answers'));
    expect(setups).toHaveLength(2);
    expect(run(commands.find((c) => c.startsWith('cat > ~/cloud/answers.yml'))!).code).toBe(0);

    const dry = run(setups[0]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+cluster_issuer_type: acme');
    expect(() => readFileSync(inventory())).toThrow();

    expect(run(setups[1]).code).toBe(0);
    expect(readFileSync(inventory(), 'utf8')).toMatch(/^cluster_issuer_acme_solver: http01$/m);

    const ansible = run(commands.find((c) => c.startsWith('ansible-inventory'))!.replace('HOST', 'ctl1'));
    expect(ansible.code).toBe(0);
    expect(ansible.stdout).toContain('"cluster_issuer_type": "acme"');
  });

  it('2. diagnoses the inventory offline', () => {
    const r = run(commandsOf(2).find((c) => c.startsWith('cloudgate doctor --only inventory'))!);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 ok');
  });

  it('3. after an issuer change: writes the inventory, deletes nothing before the deployment, then has nothing to write', () => {
    const commands = commandsOf(3);
    const regenerates = commands.filter((c) => c.startsWith('cloudgate regenerate'));
    expect(regenerates).toHaveLength(3);
    expect(run(commands.find((c) => c.startsWith('cat > ~/cloud/issuer.yml'))!).code).toBe(0);
    const before = readFileSync(inventory(), 'utf8');

    const dry = run(regenerates[0]);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toBe('');
    expect(readFileSync(inventory(), 'utf8')).toBe(before);

    const write = run(regenerates[1]);
    expect(write.code).toBe(1);
    expect(readFileSync(inventory(), 'utf8')).toMatch(/^cluster_issuer_type: ca$/m);

    const again = run(regenerates[2]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Nothing to write');

    const doctor = run(commands.find((c) => c.startsWith('cloudgate doctor'))!);
    expect([0, 1]).toContain(doctor.code);
  });
});
