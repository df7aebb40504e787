import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { inventoryValuesOnDemand } from '../../../../src/core/inventory/values-on-demand.js';

describe('inventoryValuesOnDemand', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cg-on-demand-'));
  const file = join(dir, 'inventory.yml');
  writeFileSync(file, 'cluster_issuer_type: self-signed\n');

  it('reads an inventory that is there, as inventoryValues does', async () => {
    expect(await inventoryValuesOnDemand({ inventoryPath: file, inventoryExplicit: true })).toMatchObject({
      cluster_issuer_type: 'self-signed',
    });
  });

  it('gives no values for an absent default inventory, and refuses an absent named one', async () => {
    expect(
      await inventoryValuesOnDemand({ inventoryPath: join(dir, 'missing.yml'), inventoryExplicit: false }),
    ).toEqual({});
    await expect(
      inventoryValuesOnDemand({ inventoryPath: join(dir, 'missing.yml'), inventoryExplicit: true }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});
