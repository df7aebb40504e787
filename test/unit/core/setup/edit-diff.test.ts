import { applyPatch, createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { inventoryEdits, type InventoryChange } from '../../../../src/core/inventory/inventory.js';
import { unifiedDiffOfEdits } from '../../../../src/core/setup/edit-diff.js';

const many = (n: number, prefix = 'app') => Array.from({ length: n }, (_, i) => `${prefix}_${i}: ${i}\n`).join('');

const CASES: [string, string, InventoryChange][] = [
  [
    'a value changed in place',
    `cluster_issuer_type: acme\ncluster_issuer_acme_email: old@example.com  # team\n${many(20)}`,
    { set: { cluster_issuer_acme_email: 'new@example.com' }, remove: [] },
  ],
  [
    'a key appended at the end',
    `${many(12)}cluster_issuer_type: acme\n`,
    { set: { cluster_issuer_acme_email: 'a@example.com' }, remove: [] },
  ],
  [
    'appended to a file without a final newline',
    `${many(5)}cluster_issuer_type: acme`,
    { set: { cluster_issuer_acme_email: 'a@example.com' }, remove: [] },
  ],
  [
    'a multi-line entry removed',
    `cluster_issuer_type: acme\n${many(8)}cluster_issuer_acme_rfc2136_tsig_secret_key: |\n  bGluZTE=\n  bGluZTI=\n${many(8, 'other')}`,
    { set: {}, remove: ['cluster_issuer_acme_rfc2136_tsig_secret_key'] },
  ],
  [
    'two changes close together and one far away',
    `cluster_issuer_type: acme\ncluster_issuer_acme_email: a@example.com\napp: 1\ncluster_issuer_acme_solver: http01\n${many(30)}`,
    {
      set: {
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_email: 'b@example.com',
        cluster_issuer_acme_solver: 'cloudflare',
        cluster_issuer_acme_cloudflare_api_token: 't',
      },
      remove: [],
    },
  ],
  ['into an empty file', '', { set: { cluster_issuer_type: 'self-signed' }, remove: [] }],
];

describe('unifiedDiffOfEdits', () => {
  it.each(CASES)(
    '%s: the patch turns the old text into the new one, with the line numbers a line diff gives',
    (_, before, change) => {
      const { text: after, edits } = inventoryEdits(before, change);
      const patch = unifiedDiffOfEdits('inv.yml', { before, after }, edits);
      expect(applyPatch(before, patch)).toBe(after);
      const reference = createTwoFilesPatch('inv.yml', 'inv.yml', before, after, undefined, undefined, { context: 3 });
      const headers = (p: string) => p.split('\n').filter((l) => l.startsWith('@@'));
      expect(headers(patch).length).toBe(headers(reference).length);
      expect(headers(patch)[0]).toBe(headers(reference)[0]);
    },
  );

  it('is empty when nothing changes', () => {
    const before = 'cluster_issuer_type: acme\n';
    const { text, edits } = inventoryEdits(before, { set: { cluster_issuer_type: 'acme' }, remove: [] });
    expect(unifiedDiffOfEdits('inv.yml', { before, after: text }, edits)).toBe('');
  });

  it('shows lines through their masks, never the masked text', () => {
    const before = 'a: 1\ndb_password: hunter2\nb: 2\n';
    const after = 'a: 1\ndb_password: hunter2\nb: 3\n';
    const patch = unifiedDiffOfEdits('inv.yml', { before, after, beforeMasks: [{ start: 18, end: 25, text: '***' }] }, [
      { start: 29, end: 30, text: '3' },
    ]);
    expect(patch).toContain(' db_password: ***');
    expect(patch).not.toContain('hunter2');
    expect(patch).toContain('-b: 2\n+b: 3');
  });
});
