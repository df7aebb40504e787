import { beforeAll, describe, expect, it } from 'vitest';
import { pemVariableFindings } from '../../../../src/core/tls/variable-rules.js';
import { chain, DAY, issue, KEY_KINDS, type Chain } from '../../../helpers/pki.js';

describe.each(KEY_KINDS)('PEM variables (%s)', (kind) => {
  let c: Chain;
  beforeAll(async () => {
    c = await chain(kind);
  });

  it('accepts a CA issuer chain in the order issuer, intermediate, root with its key', () => {
    expect(
      pemVariableFindings({
        cluster_issuer_ca_certificate: c.intermediate.cert + c.root.cert,
        cluster_issuer_ca_private_key: c.intermediate.key,
        cluster_issuer_venafi_ca: c.intermediate.cert + c.root.cert,
        cluster_issuer_venafi_tpp_ca_bundle: c.root.cert,
      }),
    ).toEqual([]);
  });

  it('reports wrong order, key mismatch and not-a-CA on the right variables', () => {
    const findings = pemVariableFindings({
      cluster_issuer_ca_certificate: c.root.cert + c.intermediate.cert,
      cluster_issuer_ca_private_key: c.leaf.key,
      cluster_issuer_venafi_ca: c.leaf.cert + c.intermediate.cert,
    });
    expect(findings.map((f) => [f.rule, f.variable, f.severity])).toEqual([
      ['ca-certificate-chain-order', 'cluster_issuer_ca_certificate', 'error'],
      ['ca-certificate-key-match', 'cluster_issuer_ca_private_key', 'error'],
      ['venafi-ca-ca', 'cluster_issuer_venafi_ca', 'error'],
    ]);
    expect(findings[0]!.message).toMatch(
      /^cluster_issuer_ca_certificate: the chain is not in the order issuer, intermediate\(s\), root/,
    );
    expect(findings[0]!.advice).toMatch(/Reorder the PEM value of cluster_issuer_ca_certificate/);
  });
});

describe('PEM variables, dates and formats', () => {
  it('reports an expired CA against the time given', async () => {
    const root = await issue({
      kind: 'p384',
      cn: 'Old Root',
      ca: true,
      notBefore: new Date(Date.now() - 20 * DAY),
      notAfter: new Date(Date.now() + 5 * DAY),
    });
    expect(pemVariableFindings({ cluster_issuer_venafi_ca: root.cert }, new Date(Date.now() + 6 * DAY))).toEqual([
      expect.objectContaining({
        rule: 'venafi-ca-validity',
        severity: 'error',
        message: expect.stringMatching(/expired on/),
      }),
    ]);
    expect(pemVariableFindings({ cluster_issuer_venafi_ca: root.cert })[0]).toMatchObject({
      rule: 'venafi-ca-validity',
      severity: 'warning',
    });
  });

  it('checks a lone key, and leaves non-PEM text to the format rule', async () => {
    expect(pemVariableFindings({ cluster_issuer_ca_certificate: 'file-not-resolved' })).toEqual([]);
    const findings = pemVariableFindings({
      cluster_issuer_ca_private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
    });
    expect(findings.map((f) => [f.rule, f.variable])).toEqual([
      ['ca-certificate-key', 'cluster_issuer_ca_private_key'],
    ]);
  });
});
