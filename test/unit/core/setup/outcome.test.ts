import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSetup } from '../../../../src/core/setup/plan.js';
import {
  CANCELLED_AFTER_WRITE,
  CANCELLED_NOTHING_WRITTEN,
  DRY_RUN_DONE,
  UNCHANGED,
  exitCodeOf,
  outcomeOf,
  outcomeText,
} from '../../../../src/core/setup/outcome.js';
import { createTestCA } from '../../../helpers/pki.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-outcome-'));
  inventory = join(dir, 'certificates.yml');
  await writeFile(inventory, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const KEYLESS = {
  cluster_issuer_acme_solver: 'route53',
  cluster_issuer_acme_route53_auth: 'kubernetes',
  cluster_issuer_acme_route53_region: 'eu-west-1',
  cluster_issuer_acme_route53_hosted_zone_id: 'Z1',
  cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/dns',
};

describe('the outcome', () => {
  it('written: the files with their backup, and a cancel from here says the inventory stays written', async () => {
    const plan = await planSetup({
      answers: { cluster_issuer_acme_email: 'pki@example.com' },
      inventoryPath: inventory,
    });
    const outcome = outcomeOf(plan, {
      dryRun: false,
      written: [{ path: inventory, mode: 0o644, description: 'inventory (updated)', backupPath: `${inventory}.x.bak` }],
    });
    expect(outcome.headline).toBe('Written:');
    expect(outcome.written).toEqual([`${inventory} (mode 0644); previous version saved as ${inventory}.x.bak`]);
    expect(outcome.cancelled).toBe(CANCELLED_AFTER_WRITE);
    expect(outcome.standing).toBe('the inventory is already written');
    expect(outcome.offerDiscovery).toBe(false);
    expect(exitCodeOf(outcome)).toBe(0);
  });

  it('nothing written (nothing changed, or a dry run): the cancel says nothing was written', async () => {
    const plan = await planSetup({ answers: KEYLESS, inventoryPath: inventory });
    const unchanged = outcomeOf(plan, { dryRun: false, written: [] });
    expect(unchanged.headline).toBe(UNCHANGED);
    expect(unchanged.cancelled).toBe(CANCELLED_NOTHING_WRITTEN);
    expect(unchanged.standing).toBe('nothing was written');
    // The inventory on disk is keyless: the checks are still offered.
    expect(unchanged.offerDiscovery).toBe(true);
    const dry = outcomeOf(plan, { dryRun: true, written: [] });
    expect(dry.headline).toBe(DRY_RUN_DONE);
    expect(dry.cancelled).toBe(CANCELLED_NOTHING_WRITTEN);
    expect(dry.offerDiscovery).toBe(false);
    // After a dry run nothing was written: no deployment, no doctor on the old inventory.
    expect(dry.next).toEqual([expect.stringMatching(/^# Dry run: nothing was written/)]);
    // Once the issuer URL is known, oidc and the discovery checks are commands that carry it.
    const withUrl = outcomeOf(plan, {
      dryRun: false,
      written: [],
      facts: { issuerUrl: 'https://oidc.example.com/c1' },
    });
    expect(withUrl.next).toContain(
      `cloudgate oidc --inventory ${inventory} --issuer-url https://oidc.example.com/c1   # what keyless DNS credentials (route53 auth kubernetes) need you to create`,
    );
    expect(withUrl.next.at(-1)).toMatch(
      /^cloudgate doctor --only discovery,kube --issuer-url https:\/\/oidc.example.com\/c1 --inventory /,
    );
    expect(unchanged.next.some((line) => line.startsWith('cloudgate oidc'))).toBe(false);
  });

  it('--apply: a failure exits 1 and keeps "kubectl apply" as a next step; applied, it is no next step', async () => {
    const cert = join(dir, 'w.pem');
    const ca = createTestCA();
    const leaf = ca.issue(['*.cloud.example.com']);
    await writeFile(cert, leaf.cert + ca.cert);
    await writeFile(join(dir, 'w.key'), leaf.key);
    const plan = await planSetup({
      answers: { wildcard_certificate_file: cert, wildcard_key_file: join(dir, 'w.key') },
      inventoryPath: inventory,
    });
    const failed = outcomeOf(plan, {
      dryRun: false,
      written: [],
      applied: { ok: false, message: 'kubectl apply -f m failed: forbidden' },
    });
    expect(exitCodeOf(failed)).toBe(1);
    expect(failed.next[0]).toMatch(/^kubectl apply -f /);
    expect(outcomeText(failed)).toContain('x kubectl apply -f m failed: forbidden');
    const applied = outcomeOf(plan, {
      dryRun: false,
      written: [],
      applied: { ok: true, message: 'Applied m: secret/w created in openstack' },
    });
    expect(exitCodeOf(applied)).toBe(0);
    expect(applied.next.some((s) => s.startsWith('kubectl apply'))).toBe(false);
  });

  it('a failing discovery check after the write exits 1', async () => {
    const plan = await planSetup({ answers: KEYLESS, inventoryPath: inventory });
    const outcome = outcomeOf(plan, { dryRun: false, written: [] });
    const report = (fail: number) => ({
      schema: 'cloudgate.doctor/v1' as const,
      durationMs: 1,
      summary: { ok: 1, warn: 0, fail, skip: 0 },
      checks: [],
    });
    expect(exitCodeOf({ ...outcome, discovery: report(1) })).toBe(1);
    expect(exitCodeOf({ ...outcome, discovery: report(0) })).toBe(0);
  });
});
