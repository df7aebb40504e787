import { describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { issuerDrift, solverOf } from '../../../../src/core/render/drift.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };
const issuerOf = (values: Record<string, unknown>) => renderPlatform(values).objects.at(-1)!.object;

describe('issuer drift', () => {
  it('names the kind of issuer and solver', () => {
    expect(solverOf(issuerOf(acme))).toBe('acme/http01');
    expect(solverOf(issuerOf({ ...acme, cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 't' }))).toBe('acme/cloudflare');
    expect(solverOf(issuerOf({ cluster_issuer_type: 'self-signed' }))).toBe('self-signed');
  });

  it('a vaulted or templated value cannot differ: it is known only at deploy time', () => {
    const live = issuerOf(acme);
    for (const email of [new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n3132\n'), '{{ vault_acme_email }}']) {
      const rendered = renderPlatform({ ...acme, cluster_issuer_acme_email: email }).objects;
      expect(issuerDrift(rendered, { issuer: live, secretKeys: new Map() }).differences).toEqual([]);
    }
  });

  it('an issuer left over while the inventory says none', () => {
    const rendered = renderPlatform({ cluster_issuer_type: 'none' }).objects;
    expect(issuerDrift(rendered, { issuer: issuerOf(acme), secretKeys: new Map() }).differences).toHaveLength(1);
    expect(issuerDrift(rendered, { secretKeys: new Map() }).differences).toEqual([]);
  });
});
