import { describe, expect, it } from 'vitest';
import { capped, joinCapped, LIST_LIMIT } from '../../../src/core/bounded.js';

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
