import { describe, expect, it } from 'vitest';
import { isDnsLabel, isDnsSubdomain, isSecretDataKey } from '../../../../src/core/kube/names.js';

describe("Kubernetes' naming rules", () => {
  it.each([
    ['openstack', true, true],
    ['auth-system', true, true],
    ['a', true, true],
    ['x'.repeat(63), true, true],
    ['x'.repeat(64), false, true],
    ['cert-manager.io', false, true],
    ['-lead', false, false],
    ['trail-', false, false],
    ['Upper', false, false],
    ['under_score', false, false],
    ['', false, false],
    ['a..b', false, false],
    [`${'a'.repeat(60)}.`.repeat(5), false, false],
  ])('%s: label %s, subdomain %s', (name, label, subdomain) => {
    expect(isDnsLabel(name)).toBe(label);
    expect(isDnsSubdomain(name)).toBe(subdomain);
  });

  it('Secret data keys', () => {
    for (const key of ['tls.crt', 'api-token', 'secret_access_key']) expect(isSecretDataKey(key)).toBe(true);
    for (const key of ['a/b', 'with space', '']) expect(isSecretDataKey(key)).toBe(false);
  });
});
