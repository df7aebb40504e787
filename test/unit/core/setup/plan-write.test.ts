import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import type { CommandContext } from '../../../../src/core/run-context.js';
import { planAndReview, writePlan } from '../../../../src/core/setup/plan-write.js';

const FIXTURES = new URL('../../../fixtures/inventory/', import.meta.url).pathname;
let dir: string;
let inventory: string;
let ctx: CommandContext;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-plan-write-'));
  inventory = join(dir, 'certificates.yml');
  await copyFile(join(FIXTURES, 'realistic.yml'), inventory);
  ctx = { interactive: false, env: {}, cwd: dir, stdout: process.stdout, stderr: process.stderr };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('planning and writing without a session', () => {
  it('reviews the issuer change for regenerate (which deletes the old secrets itself), then writes what was reviewed', async () => {
    const before = await readFile(inventory, 'utf8');
    const { plan, review } = await planAndReview(
      { inventoryPath: inventory, dryRun: false, regenerating: true },
      { cluster_issuer_type: 'self-signed' },
    );
    expect(review.issuerChange).toMatchObject({ from: 'acme', to: 'self-signed' });
    expect(review.issuerChange!.advice).not.toContain('--inventory');
    expect(await readFile(inventory, 'utf8')).toBe(before);
    const outcome = await writePlan(ctx, plan, { dryRun: false });
    expect(outcome.dryRun).toBe(false);
    expect(outcome.written.join('\n')).toContain(inventory);
    expect(parseInventory(await readFile(inventory, 'utf8'), inventory).cluster_issuer_type).toBe('self-signed');
  });

  it('a dry run writes nothing', async () => {
    const before = await readFile(inventory, 'utf8');
    const { plan, review } = await planAndReview(
      { inventoryPath: inventory, dryRun: true },
      { cluster_issuer_type: 'self-signed' },
    );
    expect(review.dryRun).toBe(true);
    const outcome = await writePlan(ctx, plan, { dryRun: true });
    expect(outcome).toMatchObject({ dryRun: true, written: [] });
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });
});
