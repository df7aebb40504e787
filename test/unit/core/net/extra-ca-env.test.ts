import { afterEach, describe, expect, it, vi } from 'vitest';

// The module reads the environment once, when first imported: each case imports a fresh copy.
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

async function load() {
  return import('../../../../src/core/net/extra-ca-env.js');
}

describe('NODE_EXTRA_CA_CERTS handed over by the launcher', () => {
  it('is put back into the environment and is for cloudgate to load', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    process.env.CLOUDGATE_DEFERRED_EXTRA_CA_CERTS = '/etc/extra.pem';
    const { extraCaCertsToLoad } = await load();
    expect(process.env.NODE_EXTRA_CA_CERTS).toBe('/etc/extra.pem');
    expect(process.env.CLOUDGATE_DEFERRED_EXTRA_CA_CERTS).toBeUndefined();
    expect(extraCaCertsToLoad()).toBe('/etc/extra.pem');
  });

  it('is left to Node when Node loaded it at start-up, unless changed later', async () => {
    process.env.NODE_EXTRA_CA_CERTS = '/etc/extra.pem';
    delete process.env.CLOUDGATE_DEFERRED_EXTRA_CA_CERTS;
    const { extraCaCertsToLoad } = await load();
    expect(extraCaCertsToLoad()).toBeUndefined();
    expect(extraCaCertsToLoad({ NODE_EXTRA_CA_CERTS: '/etc/other.pem' })).toBe('/etc/other.pem');
    expect(extraCaCertsToLoad({})).toBeUndefined();
  });
});
