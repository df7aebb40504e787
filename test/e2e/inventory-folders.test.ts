/**
 * Every inventory folder of test/fixtures/inventories/ through the built binary, twice: `cloudgate
 * render` (cloudgate's model) gives the objects, Helm releases, findings and exit code written for it,
 * and `doctor --only inventory` on the same folder gives the same findings (one judgement). No secret
 * of a folder appears in either output.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { copyCase, folderCases, keyOf, keySet, removeCase, type FindingKey } from '../helpers/inventory-folders.js';

/** Every secret the folders hold (plain or vaulted): none may be printed. */
const SECRETS = [
  'cf-token-from-vault-8812',
  'cf-token-vaulted-2231',
  'r53-secret-from-vault-file',
  'r53-secret-36',
  'gd-secret-36',
  'tok{#en#}-4471',
  'tok-4471',
  'wapi-password-36',
  'azure-secret-36',
  'cf-token-36',
  'tpp-token-36',
  'c2VjcmV0LWtleS0zNg==',
  'fixture-vault-password-36',
];

interface DoctorCheck {
  id: string;
  status: string;
  message: string;
  details?: { rule?: string; variable?: string; severity?: string };
}

describe('inventory folders: render and doctor --only inventory give one judgement', () => {
  const cases = folderCases();

  it('cover several files, vaults (inline, whole file, ansible.cfg, identity list), templates, merge keys, groups and host_vars', () => {
    expect(cases.length).toBeGreaterThanOrEqual(35);
    for (const c of cases) expect(c.why, c.name).not.toBe('');
  });

  for (const c of cases) {
    it(`${c.name}: ${c.why}`, async () => {
      const dir = copyCase(c.name);
      try {
        const env = { ...c.env, CLOUDGATE_RENDER_ENGINE: 'model' };
        const render = await runCli(['render', '--inventory', c.inventory, '--json', ...c.args], { cwd: dir, env });
        expect(render.code, render.stderr).toBe(c.exit);
        const json = JSON.parse(render.stdout) as {
          engine: { engine: string };
          objects: unknown[];
          helm: unknown[];
          findings: { rule: string; variable: string | null; severity: string }[];
        };
        expect(json.engine.engine).toBe('model');
        expect(json.objects).toEqual(c.objects);
        expect(json.helm).toEqual(c.helm);
        const rendered = keySet(json.findings.map(keyOf));
        expect(rendered).toEqual(keySet(c.findings));

        const doctor = await runCli(
          ['doctor', '--only', 'inventory', '--inventory', c.inventory, '--json', ...c.args],
          { cwd: dir, env },
        );
        const checks = (JSON.parse(doctor.stdout) as { checks: DoctorCheck[] }).checks;
        const found: FindingKey[] = checks
          .filter((k) => k.details?.rule)
          .map((k) => keyOf({ rule: k.details!.rule!, variable: k.details!.variable, severity: k.details!.severity! }));
        expect(keySet(found)).toEqual(rendered);
        expect(doctor.code).toBe(rendered.some((f) => f.severity === 'error') ? 1 : 0);
        if (rendered.length === 0) expect(checks.map((k) => k.id)).toEqual(['inventory.valid']);

        for (const out of [render.stdout, render.stderr, doctor.stdout, doctor.stderr]) {
          for (const secret of SECRETS) expect(out).not.toContain(secret);
        }
      } finally {
        removeCase(dir);
      }
    });
  }
});
