import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/cloudgate.js', import.meta.url).pathname;
const FIXTURES = new URL('../fixtures/inventory/', import.meta.url).pathname;

function doctor(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'doctor', '--only', 'inventory', ...args], {
    cwd: FIXTURES,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
    input: '',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('cloudgate doctor --only inventory (built binary)', () => {
  it('exits 0 on a clean inventory; --json is the only thing on stdout', () => {
    const r = doctor(['--inventory', 'good.yml', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.schema).toBe('cloudgate.doctor/v1');
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual(['inventory.valid']);
  });

  it("counts reading and checking the inventory in the run's durationMs (the group does it before its checks run)", () => {
    // 0.6 MB of unrelated settings after the fixture: every entry is parsed, which takes a while.
    const dir = mkdtempSync(join(tmpdir(), 'cg-duration-'));
    try {
      const entries = Array.from(
        { length: 9000 },
        (_, i) => `app_${i}_settings:\n  name: app-${i}\n  hosts: [a${i}.example.com, b${i}.example.com]\n`,
      );
      const file = join(dir, 'inventory.yml');
      writeFileSync(file, readFileSync(join(FIXTURES, 'good.yml'), 'utf8') + entries.join(''));
      const r = doctor(['--inventory', file, '--json']);
      const report = JSON.parse(r.stdout);
      const checked = report.checks.reduce((sum: number, c: { durationMs: number }) => sum + c.durationMs, 0);
      // The checks themselves only report what was found; the reading is the run's.
      expect(report.durationMs).toBeGreaterThan(checked + 50);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 1 on errors, reporting each rule as inventory.<rule>.<variable> without secret values', () => {
    const r = doctor(['--inventory', 'bad.yml', '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const ids = report.checks.map((c: { id: string }) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'inventory.venafi-auth.cluster_issuer_venafi_access_token',
        'inventory.unknown-variable.openstack_helm_ingress_wildcard_domian',
        'inventory.unused-variable.cluster_issuer_acme_email',
      ]),
    );
    expect(report.summary.fail).toBeGreaterThan(0);
    expect(r.stdout + r.stderr).not.toContain('hunter2-password');
    expect(r.stdout + r.stderr).not.toContain('tpp-token-value-1234');
  });

  it('prints the flutter-doctor style text report with advice when not --json', () => {
    const r = doctor(['--inventory', 'bad.yml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[✗] Inventory');
    expect(r.stdout).toContain('Did you mean openstack_helm_ingress_wildcard_domain?');
  });

  it('lints a folder: a variable defined twice with different values is a warning (exit 1 with --strict)', () => {
    const r = doctor(['--inventory', 'site', '--json']);
    const report = JSON.parse(r.stdout);
    expect(
      report.checks.find((c: { id: string }) => c.id === 'inventory.duplicate.cluster_issuer_acme_email'),
    ).toMatchObject({ status: 'warn' });
    expect(r.code).toBe(0);
    expect(doctor(['--inventory', 'site', '--strict']).code).toBe(1);
  });

  it('fails a wildcard domain with a final dot, a route53 zone id that is a domain, a region and a country of the wrong form', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-forms-'));
    try {
      const file = join(dir, 'certificates.yml');
      writeFileSync(
        file,
        [
          'openstack_helm_ingress_wildcard_domain: cloud.example.com.',
          'cluster_issuer_type: acme',
          'cluster_issuer_acme_email: ops@example.com',
          'cluster_issuer_acme_solver: route53',
          'cluster_issuer_acme_route53_auth: ambient',
          'cluster_issuer_acme_route53_region: Frankfurt',
          'cluster_issuer_acme_route53_hosted_zone_id: example.com',
          'atmosphere_ingress_annotations:',
          '  cert-manager.io/subject-countries: "DE,UK"',
          '',
        ].join('\n'),
      );
      const r = doctor(['--inventory', file, '--json']);
      expect(r.code).toBe(1);
      const checks = JSON.parse(r.stdout).checks.map((c: { id: string; status: string }) => [c.id, c.status]);
      expect(checks).toEqual([
        ['inventory.wildcard-domain.openstack_helm_ingress_wildcard_domain', 'fail'],
        ['inventory.aws-region.cluster_issuer_acme_route53_region', 'fail'],
        ['inventory.route53-hosted-zone-id.cluster_issuer_acme_route53_hosted_zone_id', 'fail'],
        ['inventory.subject-country.atmosphere_ingress_annotations', 'fail'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails a missing --inventory path and skips a missing default inventory', () => {
    const missing = JSON.parse(doctor(['--inventory', 'nope.yml', '--json']).stdout);
    expect(missing.checks[0]).toMatchObject({ id: 'inventory.file', status: 'fail' });
    const r = doctor(['--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).checks[0]).toMatchObject({ id: 'inventory.file', status: 'skip' });
  });
});
