import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../../src/core/closest.js';

describe('closest: one rule for every "did you mean"', () => {
  it.each([
    ['signn', ['inventory', 'signin', 'tls'], 'signin'],
    ['sig', ['inventory', 'signin', 'tls'], 'signin'], // the only one it is a prefix of
    ['docter', ['setup', 'doctor', 'render'], 'doctor'],
    ['xyzzy', ['setup', 'doctor', 'render'], undefined],
    ['xy', ['tls', 'token'], undefined], // too short for a prefix, too far for a typo
    ['k', ['kc'], 'kc'],
  ])('%s among %j → %s', (given, candidates, expected) => {
    expect(closest(given, candidates)).toBe(expected);
  });

  it('compares without regard to case when asked, suggesting the candidate as spelled', () => {
    expect(closest('Broker_URL', ['broker_url', 'realm'])).toBeUndefined();
    expect(closest('Broker_URL', ['broker_url', 'realm'], { ignoreCase: true })).toBe('broker_url');
    expect(closest('REA', ['broker_url', 'realm'], { ignoreCase: true })).toBe('realm');
  });

  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
