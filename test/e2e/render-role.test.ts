/**
 * `cloudgate render` running the platform's role itself: here cloudgate's own test role
 * (test/fixtures/platform-role/, the same module calls, installed under the platform's name), found
 * through ANSIBLE_COLLECTIONS_PATH as on a deploy host, run by the real ansible-playbook in check mode
 * with cloudgate's recording stand-ins. On every inventory folder it applies exactly what cloudgate's
 * model renders (objects, Helm releases, findings), and on every one-file platform fixture: the two are
 * kept in agreement. Then what the
 * engine promises: it says which rendered, falls back to the model, never puts a secret in the
 * child's arguments or environment, and ends the whole run at its deadline.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { copyCase, folderCases, keyOf, keySet, removeCase, TEST_ROLE } from '../helpers/inventory-folders.js';
import { requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';

const hasAnsible = requireTool('ansible-playbook', 'ansible-core');
const PLATFORM = new URL('../fixtures/render/platform/', import.meta.url).pathname;
const PLATFORM_CASES = readdirSync(PLATFORM)
  .filter((f) => f.endsWith('.yml') && !/\.(expected|helm|findings)\.yml$/.test(f))
  .map((f) => f.slice(0, -4))
  .sort();
const WITH_ROLE = { ANSIBLE_COLLECTIONS_PATH: TEST_ROLE };

interface RenderJson {
  engine: { engine: string; description: string; ansibleCore?: string };
  objects: unknown[];
  helm: unknown[];
  findings: { rule: string; variable: string | null; severity: string }[];
}

describe.skipIf(!hasAnsible)("render with the platform's role (cloudgate's test role under its name)", () => {
  // Without cloudgate's vault password the role cannot template a vaulted value here (the deployment has it): tested below.
  for (const c of folderCases().filter(
    (k) => !['vault-inline-no-password', 'vault-file-no-password'].includes(k.name),
  )) {
    it(`${c.name}: the role applies what the model renders`, async () => {
      const dir = copyCase(c.name);
      try {
        const r = await runCli(['render', '--inventory', c.inventory, '--json', '--engine', 'role', ...c.args], {
          cwd: dir,
          env: { ...c.env, ...WITH_ROLE },
        });
        expect(r.code, r.stderr).toBe(c.exit);
        const json = JSON.parse(r.stdout) as RenderJson;
        expect(json.engine).toMatchObject({ engine: 'role', ansibleCore: expect.stringMatching(/^2\.\d+/) });
        expect(r.stderr).toContain("Rendered by the platform's role vexxhost.atmosphere.cluster_issuer");
        expect(json.objects).toEqual(c.objects);
        expect(json.helm).toEqual(c.helm);
        // What cloudgate says about Ansible settings its model does not follow is the model's alone: the role follows them.
        expect(keySet(json.findings.map(keyOf))).toEqual(
          keySet(c.findings.filter((f) => f.rule !== 'ansible-settings')),
        );
      } finally {
        removeCase(dir);
      }
    });
  }

  // The one-file platform fixtures too (a private inventory is built around the file). `templates` is
  // the exception by nature: the role evaluates lookup('env', ...) on this host, the model cannot.
  for (const c of PLATFORM_CASES.filter((k) => k !== 'templates')) {
    it(`platform fixture ${c}: the role applies what the model renders`, async () => {
      const r = await runCli(
        ['render', '--inventory', `${PLATFORM}${c}.yml`, '--names', 'platform', '--json', '--engine', 'role'],
        { env: WITH_ROLE },
      );
      const json = JSON.parse(r.stdout) as RenderJson;
      expect(json.engine.engine, r.stderr).toBe('role');
      const model = JSON.parse(
        (
          await runCli([
            'render',
            '--inventory',
            `${PLATFORM}${c}.yml`,
            '--names',
            'platform',
            '--json',
            '--engine',
            'model',
          ])
        ).stdout,
      ) as RenderJson;
      expect(json.objects).toEqual(model.objects);
      expect(json.helm).toEqual(model.helm);
      expect(keySet(json.findings.map(keyOf))).toEqual(keySet(model.findings.map(keyOf)));
      expect(r.code).toBe(model.findings.some((f) => f.severity === 'error') ? 2 : 0);
    });
  }

  it('templates: the role evaluates a lookup of the environment (the names CLOUDGATE_CHILD_ENV lets through), which the model leaves to deploy time', async () => {
    const env = { ...WITH_ROLE, ACME_SERVER: 'https://acme.example.com/directory' };
    const hidden = JSON.parse(
      (
        await runCli(
          ['render', '--inventory', `${PLATFORM}templates.yml`, '--names', 'platform', '--json', '--engine', 'role'],
          { env },
        )
      ).stdout,
    ) as { objects: { metadata: { name: string }; spec?: { acme?: { server?: string } } }[] };
    expect(hidden.objects.find((o) => o.metadata.name === 'atmosphere')?.spec?.acme?.server).toBe('');
    const r = await runCli(
      ['render', '--inventory', `${PLATFORM}templates.yml`, '--names', 'platform', '--json', '--engine', 'role'],
      { env: { ...env, CLOUDGATE_CHILD_ENV: 'ACME_SERVER' } },
    );
    const json = JSON.parse(r.stdout) as Omit<RenderJson, 'objects'> & {
      objects: { kind: string; metadata: { name: string }; spec?: { acme?: { server?: string; email?: string } } }[];
    };
    expect(json.engine.engine, r.stderr).toBe('role');
    const issuer = json.objects.find((o) => o.kind === 'ClusterIssuer' && o.metadata.name === 'atmosphere');
    expect(issuer?.spec?.acme).toMatchObject({
      server: 'https://acme.example.com/directory',
      email: 'pki@example.com',
    });
  });

  it("auto renders with the role where it is installed, with cloudgate's model where not, and says which", async () => {
    const dir = copyCase('split-files-templates');
    try {
      const withRole = await runCli(['render', '--inventory', 'inventory'], { cwd: dir, env: WITH_ROLE });
      expect(withRole.stderr).toContain("Rendered by the platform's role");
      const without = await runCli(['render', '--inventory', 'inventory', '--json'], {
        cwd: dir,
        env: { ANSIBLE_COLLECTIONS_PATH: join(dir, 'none') },
      });
      expect(without.code).toBe(0);
      expect((JSON.parse(without.stdout) as RenderJson).engine.description).toMatch(
        /cloudgate's model .*not installed/,
      );
      expect(withRole.stdout).toBe(
        (await runCli(['render', '--inventory', 'inventory', '--engine', 'model'], { cwd: dir })).stdout,
      );
      const refused = await runCli(['render', '--inventory', 'inventory', '--engine', 'role'], {
        cwd: dir,
        env: { ANSIBLE_COLLECTIONS_PATH: join(dir, 'none') },
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('vexxhost.atmosphere is not installed');
    } finally {
      removeCase(dir);
    }
  });

  it("never runs the role on an inventory another user owns: Ansible would run that user's code (a lookup, an executable hosts file)", async () => {
    const dir = copyCase('split-files-templates');
    try {
      execFileSync('chown', ['-R', '65534:65534', join(dir, 'inventory')]);
      const auto = await runCli(['render', '--inventory', 'inventory', '--json'], { cwd: dir, env: WITH_ROLE });
      const engine = (JSON.parse(auto.stdout) as RenderJson).engine;
      expect(engine.engine).toBe('model');
      expect(engine.description).toContain(`Ansible would run code from ${join(dir, 'inventory')}`);
      const forced = await runCli(['render', '--inventory', 'inventory', '--engine', 'role'], {
        cwd: dir,
        env: WITH_ROLE,
      });
      expect(forced.code).toBe(2);
      expect(forced.stderr).toContain("the platform's role was not run");
    } finally {
      removeCase(dir);
    }
  });

  it('a vaulted value or file without the vault password: auto renders with the model, --engine role says to give it', async () => {
    for (const [name, exit, why] of [
      ['vault-inline-no-password', 0, 'needs the vault password'],
      ['vault-file-no-password', 2, 'vaulted file cannot be opened'],
    ] as const) {
      const dir = copyCase(name);
      try {
        const auto = await runCli(['render', '--inventory', 'inventory', '--json'], { cwd: dir, env: WITH_ROLE });
        expect(auto.code, name).toBe(exit);
        expect((JSON.parse(auto.stdout) as RenderJson).engine.description).toContain(why);
        const role = await runCli(['render', '--inventory', 'inventory', '--engine', 'role'], {
          cwd: dir,
          env: WITH_ROLE,
        });
        expect(role.code, name).toBe(2);
        expect(role.stderr).toContain('--vault-password-file');
      } finally {
        removeCase(dir);
      }
    }
  });

  it('runs ansible-playbook in check mode on this host, the vault password only as its file, no secret in the arguments or environment', async () => {
    const dir = copyCase('vault-inline');
    const bin = mkdtempSync(join(tmpdir(), 'cloudgate-playbook-'));
    try {
      // A wrapper ahead of the real ansible-playbook on PATH: it writes down its arguments and environment, then runs it.
      const real = execFileSync('sh', ['-c', 'command -v ansible-playbook'], { encoding: 'utf8' }).trim();
      const seen = join(bin, 'seen.txt');
      writeFileSync(
        join(bin, 'ansible-playbook'),
        `#!/bin/sh\nprintf '%s\\n' "$@" > '${seen}'\nenv >> '${seen}'\nexec '${real}' "$@"\n`,
      );
      chmodSync(join(bin, 'ansible-playbook'), 0o755);
      const r = await runCli(['render', '--inventory', 'inventory', '--json', '--vault-password-file', 'vault-pass'], {
        cwd: dir,
        env: {
          ...WITH_ROLE,
          PATH: `${bin}:${process.env.PATH}`,
          CLOUDGATE_CLIENT_SECRET: 'client-secret-not-for-ansible',
        },
      });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as RenderJson).engine.engine).toBe('role');
      const args = readFileSync(seen, 'utf8');
      expect(args).toContain('--check\n');
      expect(args).toContain('ansible_connection=local\n');
      expect(args).toContain('--vault-password-file\nvault-pass\n');
      for (const secret of ['fixture-vault-password-36', 'cf-token-from-vault-8812', 'client-secret-not-for-ansible'])
        expect(args).not.toContain(secret);
      expect(r.stdout + r.stderr).not.toContain('cf-token-from-vault-8812');
    } finally {
      removeCase(dir);
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('a role that does not finish is stopped at its deadline, with everything it started, and the model renders instead', async () => {
    const dir = copyCase('split-files-templates');
    const pidFile = join(dir, 'hang.pid');
    try {
      const started = Date.now();
      const r = await runCli(['render', '--inventory', 'inventory', '--json'], {
        cwd: dir,
        timeoutMs: 60_000,
        env: {
          ...WITH_ROLE,
          CLOUDGATE_PLATFORM_ROLE: 'vexxhost.atmosphere.cluster_issuer_hang',
          CLOUDGATE_ROLE_TIMEOUT: '4',
          ANSIBLE_CLOUDGATE_TEST_PID_FILE: pidFile,
        },
      });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as RenderJson).engine.description).toContain(
        'did not finish within 4 s and was stopped',
      );
      expect(Date.now() - started).toBeLessThan(30_000);
      // The task's own process (a grandchild of ansible-playbook) is gone too (a zombie waiting for init is gone).
      expect(existsSync(pidFile)).toBe(true);
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      const running = () =>
        existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      await waitUntil(`process ${pid} ended`, () => !running(), { timeoutMs: 10_000, intervalMs: 50 });
    } finally {
      removeCase(dir);
    }
  });
});
