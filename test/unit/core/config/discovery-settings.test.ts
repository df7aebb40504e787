import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverySettings, parseRoleArn } from '../../../../src/core/config/discovery-settings.js';

async function settingsOf(inventory: string, names?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-discovery-settings-'));
  writeFileSync(join(dir, 'inv.yml'), inventory);
  return discoverySettings({
    given: {},
    env: {},
    config: {},
    cwd: dir,
    inventoryPath: join(dir, 'inv.yml'),
    inventoryExplicit: true,
    ...(names ? { names } : {}),
  });
}

describe('discovery settings', () => {
  it('parses role ARNs', () => {
    expect(parseRoleArn('arn:aws:iam::123456789012:role/dns/cert-manager')).toEqual({
      partition: 'aws',
      account: '123456789012',
      roleName: 'cert-manager',
    });
    expect(parseRoleArn('arn:aws-cn:iam::123456789012:role/x')).toMatchObject({ partition: 'aws-cn' });
    expect(parseRoleArn('arn:aws:iam::1234:role/x')).toBeUndefined();
  });

  it("takes the role's default service account; the neutral aliases are read too, and --names spec gives the neutral default", async () => {
    const keyless = 'cluster_issuer_type: acme\ncluster_issuer_acme_email: o@example.com\n';
    const platform = await settingsOf(
      `${keyless}cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\n`,
    );
    expect(platform).toMatchObject({
      serviceAccount: 'cert-manager-route53',
      names: 'platform',
      keylessSelected: true,
    });
    const aliases = `${keyless}cluster_issuer_acme_solver: clouddnsb\ncluster_issuer_acme_clouddnsb_auth: clusteroidc\n`;
    expect(await settingsOf(aliases)).toMatchObject({
      serviceAccount: 'cert-manager-route53',
      names: 'platform',
      keylessSelected: true,
    });
    expect(await settingsOf(aliases, 'spec')).toMatchObject({
      serviceAccount: 'certmgr-clouddnsb',
      names: 'spec',
      keylessSelected: true,
    });
    const named = await settingsOf(
      `${keyless}cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_service_account_name: dns-sa\n`,
    );
    expect(named.serviceAccount).toBe('dns-sa');
  });
});
