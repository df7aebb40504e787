/** The answers mode's CA chains in the wrong order: the error names --fix-order; with it, the inventory gets the chain in order. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSetup } from '../../../../src/core/setup/plan.js';
import { createTestCA } from '../../../helpers/pki.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-ca-order-'));
  inventory = join(dir, 'certificates.yml');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const blocks = (pem: unknown) =>
  String(pem)
    .match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!
    .map((b) => b.replace(/\s/g, ''));
const flat = (pem: string) => pem.trim().replace(/\s/g, '');

describe('a CA chain in the wrong order in the answers', () => {
  const root = createTestCA('order root');
  const intermediate = root.issue([], { cn: 'order issuing CA', ca: true });

  async function answers() {
    await writeFile(join(dir, 'reversed.pem'), root.cert + intermediate.cert);
    await writeFile(join(dir, 'issuing.key'), intermediate.key, { mode: 0o600 });
    return {
      cluster_issuer_type: 'ca',
      cluster_issuer_ca_certificate: `file:${join(dir, 'reversed.pem')}`,
      cluster_issuer_ca_private_key: `file:${join(dir, 'issuing.key')}`,
    };
  }

  it('is an error whose advice names --fix-order', async () => {
    const plan = await planSetup({ answers: await answers(), inventoryPath: inventory });
    const order = plan.findings.find((f) => f.rule === 'ca-certificate-chain-order');
    expect(order).toMatchObject({ severity: 'error', variable: 'cluster_issuer_ca_certificate' });
    expect(order!.advice).toContain('--fix-order');
    expect(plan.findings.some((f) => f.rule === 'chain-reordered')).toBe(false);
  });

  it('with --fix-order, the chain is written issuer first, said by an info, and the key matches it', async () => {
    const plan = await planSetup({ answers: await answers(), inventoryPath: inventory, fixOrder: true });
    expect(plan.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(plan.findings).toContainEqual(
      expect.objectContaining({ rule: 'chain-reordered', severity: 'info', variable: 'cluster_issuer_ca_certificate' }),
    );
    expect(blocks(plan.values.cluster_issuer_ca_certificate)).toEqual([flat(intermediate.cert), flat(root.cert)]);
  });

  it('a chain in order is left as given, with or without --fix-order', async () => {
    await writeFile(join(dir, 'ordered.pem'), intermediate.cert + root.cert);
    await writeFile(join(dir, 'issuing.key'), intermediate.key, { mode: 0o600 });
    const plan = await planSetup({
      answers: {
        cluster_issuer_type: 'ca',
        cluster_issuer_ca_certificate: `file:${join(dir, 'ordered.pem')}`,
        cluster_issuer_ca_private_key: `file:${join(dir, 'issuing.key')}`,
      },
      inventoryPath: inventory,
      fixOrder: true,
    });
    expect(plan.findings.filter((f) => f.severity === 'error' || f.rule === 'chain-reordered')).toEqual([]);
    expect(blocks(plan.values.cluster_issuer_ca_certificate)).toEqual([flat(intermediate.cert), flat(root.cert)]);
  });
});
