import { afterEach, describe, expect, it } from 'vitest';
import {
  boundedValue,
  capped,
  cutText,
  joinCapped,
  LINE_LIMIT,
  LIST_LIMIT,
  TEXT_LIMIT,
} from '../../../src/core/bounded.js';
import { clearSecretsForTests, registerSecret } from '../../../src/core/secrets.js';

describe('bounded lists in messages', () => {
  it('keeps a short list whole', () => {
    expect(joinCapped(['a', 'b'])).toBe('a, b');
    expect(joinCapped([])).toBe('');
  });

  it('shows the first items and says how many more', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `project-${i}`);
    const text = joinCapped(many);
    expect(text.startsWith('project-0, project-1,')).toBe(true);
    expect(text.endsWith(`project-${LIST_LIMIT - 1} and ${20_000 - LIST_LIMIT} more`)).toBe(true);
    expect(capped(many, 3)).toEqual({ shown: ['project-0', 'project-1', 'project-2'], more: 19_997 });
  });
});

describe('bounded texts, cut after redaction', () => {
  afterEach(() => clearSecretsForTests());

  it('cuts a long text and says how many characters were left out', () => {
    const text = 'x'.repeat(200_000);
    expect(cutText(text, TEXT_LIMIT)).toBe(`${'x'.repeat(TEXT_LIMIT)}… and ${200_000 - TEXT_LIMIT} more characters`);
    expect(cutText('short')).toBe('short');
  });

  it('masks a secret that straddles the cut whole, rather than printing the half before it', () => {
    const secret = 'S3CRET-0123456789abcdefghijklmnop';
    registerSecret(secret);
    const text = `${'p'.repeat(TEXT_LIMIT - 10)}${secret}${'q'.repeat(500)}`;
    const out = cutText(text);
    expect(out).not.toContain(secret.slice(0, 8));
    expect(out.startsWith(`${'p'.repeat(TEXT_LIMIT - 10)}[redacted]`)).toBe(true);
  });

  it('bounds the details of a report: long strings, long lists and many keys', () => {
    const details = {
      keys: Array.from({ length: 10_000 }, (_, i) => ({ kid: `k${i}` })),
      body: 'b'.repeat(LINE_LIMIT * 2),
      many: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])),
    };
    const out = boundedValue(details) as { keys: unknown[]; body: string; many: Record<string, unknown> };
    expect(out.keys).toHaveLength(LIST_LIMIT + 1);
    expect(out.keys.at(-1)).toBe(`… and ${10_000 - LIST_LIMIT} more`);
    expect(out.body.length).toBeLessThan(LINE_LIMIT + 50);
    expect(out.many['…']).toBe(`and ${500 - 4 * LIST_LIMIT} more`);
    expect(JSON.stringify(out).length).toBeLessThan(20_000);
  });
});
