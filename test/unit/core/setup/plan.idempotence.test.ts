import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, planSetup } from '../../../../src/core/setup/plan.js';
import { outcomeOf, UNCHANGED } from '../../../../src/core/setup/outcome.js';
import { reviewOf, filesHeading } from '../../../../src/core/setup/review.js';
import { answersFromInventory, toPlanAnswers } from '../../../../src/core/setup/wizard-flow.js';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import { createTestCA } from '../../../helpers/pki.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-idem-'));
  inventory = join(dir, 'certificates.yml');
  const ca = createTestCA('idempotence CA');
  await writeFile(join(dir, 'ca.crt'), ca.cert);
  await writeFile(join(dir, 'ca.key'), ca.key);
  const first = await planSetup({
    answers: {
      cluster_issuer_type: 'ca',
      cluster_issuer_ca_certificate: `file:${join(dir, 'ca.crt')}`,
      cluster_issuer_ca_private_key: `file:${join(dir, 'ca.key')}`,
    },
    inventoryPath: inventory,
  });
  await applyPlan(first);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("setup with the inventory's own values", () => {
  it('writes nothing, keeps the literal style of a PEM, and says there is nothing to write', async () => {
    const before = await readFile(inventory, 'utf8');
    expect(before).toMatch(/^cluster_issuer_ca_certificate: \|$/m);
    // Enter on every question: the walkthrough's answers are the inventory's values (a kept PEM is trimmed).
    const answers = toPlanAnswers(answersFromInventory(parseInventory(before, inventory)));
    expect(answers.cluster_issuer_ca_certificate).not.toBe(
      parseInventory(before, inventory).cluster_issuer_ca_certificate,
    );
    const plan = await planSetup({ answers, inventoryPath: inventory });
    expect(plan.files).toEqual([]);
    expect(plan.changedKeys).toEqual([]);
    expect(plan.diff).toBe('');
    expect(filesHeading(reviewOf(plan))).toContain('none');
    expect(outcomeOf(plan, { dryRun: false, written: await applyPlan(plan) }).headline).toBe(UNCHANGED);
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });

  it('marks the secrets written in plain text in the review', async () => {
    const plan = await planSetup({
      answers: {
        cluster_issuer_type: 'ca',
        cluster_issuer_ca_certificate: `file:${join(dir, 'ca.crt')}`,
        cluster_issuer_ca_private_key: `file:${join(dir, 'ca.key')}`,
      },
      inventoryPath: join(dir, 'other.yml'),
    });
    expect(plan.plainSecrets).toEqual(['cluster_issuer_ca_private_key']);
    expect(reviewOf(plan).plainText).toContain('cluster_issuer_ca_private_key');
  });
});
