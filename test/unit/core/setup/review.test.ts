import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSetup } from '../../../../src/core/setup/plan.js';
import { fileLine, filesHeading, reviewOf, reviewText } from '../../../../src/core/setup/review.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-review-model-'));
  inventory = join(dir, 'certificates.yml');
  await writeFile(
    inventory,
    'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: tok-1\n',
  );
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the review model', () => {
  it('carries the issuer change, the removed keys with why, the files and the cluster, from the plan', async () => {
    const plan = await planSetup({ answers: { cluster_issuer_type: 'self-signed' }, inventoryPath: inventory });
    const review = reviewOf(plan);
    expect(review.heading).toBe(`Review: ${inventory} (exists)`);
    expect(review.issuer).toBe('Issuer: self-signed (was acme)');
    expect(review.issuerChange).toMatchObject({ from: 'acme', to: 'self-signed' });
    expect(review.issuerChange!.advice).toMatch(/^cloudgate regenerate --inventory /);
    expect(review.removed).toContain(
      'Remove: cluster_issuer_acme_cloudflare_api_token (not used with cluster_issuer_type: self-signed)',
    );
    expect(review.files).toEqual([
      expect.objectContaining({
        path: inventory,
        mode: 0o644,
        holdsSecret: false,
        changes: expect.stringMatching(/^\+\d+ -\d+ lines$/),
      }),
    ]);
    expect(review.cluster.lines.some((l) => l.includes('ClusterIssuer atmosphere'))).toBe(true);
    expect(review.blocked).toBe(false);
    // regenerate deletes the secrets itself: no command to run afterwards.
    expect(reviewOf(plan, { regenerating: true }).issuerChange!.advice).not.toContain('--inventory');
  });

  it('as lines: the inventory diff, then the objects and their diff, the files, the issuer change and the findings', async () => {
    const plan = await planSetup({ answers: { cluster_issuer_type: 'self-signed' }, inventoryPath: inventory });
    const lines = reviewText(reviewOf(plan));
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at('-cluster_issuer_acme_email: ops@example.com')).toBeGreaterThan(at('Issuer: self-signed (was acme)'));
    expect(at('~ ClusterIssuer atmosphere')).toBeGreaterThan(at('-cluster_issuer_acme_email'));
    expect(at('+++ ClusterIssuer atmosphere (after)')).toBeGreaterThan(at('~ ClusterIssuer atmosphere'));
    expect(at('Files to write:')).toBeGreaterThan(at('+++ ClusterIssuer atmosphere (after)'));
    expect(at('! The issuer changes from acme to self-signed')).toBeGreaterThan(at('Files to write:'));
    // The token is masked in both diffs.
    expect(lines.join('\n')).not.toContain('tok-1');
    // The patch header is left out: the heading names the file.
    expect(lines.some((l) => l.startsWith('Index: '))).toBe(false);
  });

  it('leaves the inventory diff out when it goes elsewhere (stdout of --dry-run), and says where', async () => {
    const plan = await planSetup({
      answers: { cluster_issuer_acme_email: 'pki@example.com' },
      inventoryPath: inventory,
    });
    const lines = reviewText(reviewOf(plan, { dryRun: true }), { inventoryDiff: false });
    expect(lines.some((l) => l.startsWith('+cluster_issuer_acme_email'))).toBe(false);
    expect(lines).toContain("The inventory's diff: on standard output.");
    expect(lines).toContain('Would write (dry run: nothing is written):');
  });

  it('says when nothing is to be written', async () => {
    const plan = await planSetup({
      answers: { cluster_issuer_acme_email: 'ops@example.com' },
      inventoryPath: inventory,
    });
    const review = reviewOf(plan);
    expect(review.files).toEqual([]);
    expect(filesHeading(review)).toMatch(/^Files to write: none/);
    expect(reviewText(review)).toContain('No change to the inventory.');
  });

  it('a file line gives the mode, the secrecy and the size of the change', () => {
    expect(
      fileLine({
        path: '/i.yml',
        description: 'inventory (new)',
        mode: 0o600,
        holdsSecret: true,
        changes: '+3 -0 lines',
      }),
    ).toBe('/i.yml - inventory (new) (mode 0600, holds secrets, +3 -0 lines)');
  });
});
