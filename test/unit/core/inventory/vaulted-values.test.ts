/**
 * A vaulted value is decrypted only when cloudgate reads it: an inventory with thousands of vaulted
 * values of other roles costs no decryption (each is a PBKDF2 of 10,000 rounds), reports nothing about
 * them, and keeps their envelopes as they are.
 */
import { describe, expect, it, vi } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { encryptVault } from '../../../../src/core/inventory/vault.js';
import { VaultKeyring } from '../../../../src/core/inventory/vault-options.js';
import { openVaulted } from '../../../../src/core/inventory/vaulted-values.js';

const PASSWORD = Buffer.from('correct horse battery staple');
const vaulted = (text: string) =>
  new AnsibleTagged('!vault', encryptVault(text, PASSWORD, { salt: Buffer.alloc(32, 1) }));

describe('openVaulted', () => {
  const other = vaulted('db-password'); // one envelope, 2,000 variables: making 2,000 would cost the test what it proves is saved
  const others = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`database_password_${i}`, other]));
  const values = {
    ...others,
    cluster_issuer_type: 'acme',
    cluster_issuer_acme_dnsc_api_token: vaulted('tok-3xample-Secret'),
    openstack_helm_ingress_wildcard_domain: vaulted('cloud.example.com'),
  };

  it('decrypts only the variables cloudgate reads, in either spelling', () => {
    const keyring = new VaultKeyring([{ label: 'default', source: 'test', password: PASSWORD }]);
    const open = vi.spyOn(keyring, 'open');
    const opened = openVaulted(values, keyring);
    expect(open).toHaveBeenCalledTimes(2);
    expect(opened.values.cluster_issuer_acme_dnsc_api_token).toBe('tok-3xample-Secret');
    expect(opened.values.openstack_helm_ingress_wildcard_domain).toBe('cloud.example.com');
    expect(opened.values.database_password_7).toBe(others.database_password_7);
    expect(opened.findings).toEqual([]);
    expect([...opened.envelopes.keys()].sort()).toEqual([
      'cluster_issuer_acme_dnsc_api_token',
      'openstack_helm_ingress_wildcard_domain',
    ]);
  });

  it('without a password, reports only the variables it would read as not checked', () => {
    const closed = openVaulted(values, undefined);
    expect([...closed.unchecked].sort()).toEqual([
      'cluster_issuer_acme_dnsc_api_token',
      'openstack_helm_ingress_wildcard_domain',
    ]);
    expect(closed.findings).toHaveLength(2);
  });
});
