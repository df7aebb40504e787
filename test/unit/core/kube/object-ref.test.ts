import { describe, expect, it } from 'vitest';
import { parseObjectRef } from '../../../../src/core/kube/object-ref.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('parseObjectRef', () => {
  it('reads NAMESPACE/NAME', () => {
    expect(parseObjectRef('openstack/keystone-api', 'Certificate', 'x')).toEqual({
      namespace: 'openstack',
      name: 'keystone-api',
    });
    expect(parseObjectRef('cert-manager/cert-manager-selfsigned-ca', 'Secret', 'x')).toEqual({
      namespace: 'cert-manager',
      name: 'cert-manager-selfsigned-ca',
    });
  });

  it.each([
    'keystone-api',
    'openstack/',
    '/keystone-api',
    'a/b/c',
    'Open_Stack/x',
    'openstack/Keystone',
    'openstack/-x\u001b[2J',
  ])('refuses %j as a usage error', (text) => {
    expect(() => parseObjectRef(text, 'Certificate', 'cloudgate status certificate openstack/keystone-api')).toThrow(
      UsageError,
    );
  });

  it('escapes what it quotes', () => {
    expect(() => parseObjectRef('a\u001b[2J', 'Certificate', 'x')).toThrow(/\\x1b/);
  });
});
