import { describe, expect, it } from 'vitest';
import { formatRule } from '../../../../src/core/config/value-rules.js';
import { variable } from '../../../../src/core/config/variables.js';

describe('the ACME email address', () => {
  const row = variable('cluster_issuer_acme_email')!;

  it.each([
    ['an escape sequence', 'ops\u001b[2J@example.com', '001B'],
    ['a bell', 'ops@exa\u0007mple.com', '0007'],
    ['a C1 control', 'ops@example.com\u009b', '009B'],
    ['a bidi override', 'o\u202eps@example.com', '202E'],
    ['a zero-width space', 'ops@\u200bexample.com', '200B'],
  ])('is refused with %s, naming the character by its code', (_, value, code) => {
    const [found] = formatRule(row, value);
    expect(found).toMatchObject({ rule: 'invalid-email', severity: 'error', variable: 'cluster_issuer_acme_email' });
    expect(found!.message).toContain(`U+${code}`);
    expect(found!.message).not.toContain(value);
  });

  it('an ordinary address passes', () => {
    expect(formatRule(row, 'certificates@example.com')).toEqual([]);
  });
});
