import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pemVariableFindings } from '../../../../src/core/tls/variable-rules.js';
import { checkFileInput, stepsFor } from '../../../../src/core/setup/wizard-flow.js';
import { issue, tempDir } from '../../../helpers/pki.js';

describe('a CA key that does not match its certificate', () => {
  it('is reported as a key mismatch, not as a chain out of order, when the chain is in order', async () => {
    const root = await issue({ cn: 'Mismatch Root', ca: true });
    const issuer = await issue({ cn: 'Mismatch Issuer', ca: true, issuer: root });
    const findings = pemVariableFindings({
      cluster_issuer_ca_certificate: issuer.cert + root.cert,
      cluster_issuer_ca_private_key: root.key,
    });
    expect(findings.map((f) => f.rule)).toEqual(['ca-certificate-key-match']);
    const [mismatch] = findings;
    expect(mismatch).toMatchObject({ severity: 'error', variable: 'cluster_issuer_ca_private_key' });
    expect(mismatch!.message).not.toMatch(/out of order/);
    expect(mismatch!.message).toMatch(/does not match the issuer certificate block 1 \(Mismatch Issuer\)/);
    expect(mismatch!.advice).not.toMatch(/chain order message/);
  });

  it('names the key file in the walkthrough', async () => {
    const dir = tempDir();
    const ca = await issue({ cn: 'Walkthrough CA', ca: true });
    const stranger = await issue({ cn: 'Stranger CA', ca: true });
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    writeFileSync(join(dir, 'ca.key'), stranger.key, { mode: 0o600 });
    const answers = { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: `file:${join(dir, 'ca.crt')}` };
    const keyStep = stepsFor(answers).find((s) => s.id === 'cluster_issuer_ca_private_key')!;
    const result = checkFileInput(keyStep, 'ca.key', answers, dir);
    const mismatch = result.findings.find((f) => f.rule === 'ca-certificate-key-match');
    expect(mismatch?.severity).toBe('error');
    expect(mismatch!.message).toContain(join(dir, 'ca.key'));
    expect(mismatch!.message).not.toMatch(/out of order/);
  });

  it('still calls it an order problem when the chain is out of order and the key belongs to a later block', async () => {
    const root = await issue({ cn: 'Order Root', ca: true });
    const issuer = await issue({ cn: 'Order Issuer', ca: true, issuer: root });
    const findings = pemVariableFindings({
      cluster_issuer_ca_certificate: root.cert + issuer.cert,
      cluster_issuer_ca_private_key: issuer.key,
    });
    expect(findings.map((f) => f.rule).sort()).toEqual(['ca-certificate-chain-order', 'ca-certificate-key-match']);
    expect(findings.find((f) => f.rule === 'ca-certificate-key-match')!.message).toMatch(/out of order/);
  });
});
