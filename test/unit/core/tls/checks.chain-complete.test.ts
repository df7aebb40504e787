import { beforeAll, describe, expect, it } from 'vitest';
import { examine } from '../../../../src/core/tls/examine.js';
import { trustStore } from '../../../../src/core/net/trust.js';
import { loadSuppliedWildcard } from '../../../../src/core/tls/supplied.js';
import { checkFileInput, stepsFor } from '../../../../src/core/setup/wizard-flow.js';
import { chain, tempDir, writeFile, type Chain } from '../../../helpers/pki.js';

let c: Chain;
let dir: string;
beforeAll(async () => {
  c = await chain('p256');
  dir = tempDir();
});

const completeness = (certPem: string, caFile?: string) =>
  examine({
    certPem,
    certSource: 'tls.crt',
    role: 'wildcard',
    now: new Date(),
    fixHint: '',
    renewAdvice: '',
    anchors: trustStore(caFile).anchors(),
  }).checks.find((x) => x.name === 'chain-complete')!;

describe('certificate chain-complete', () => {
  it('fails a lone certificate whose issuer is neither in the file nor trusted', () => {
    const result = completeness(c.leaf.cert);
    expect(result.status).toBe('fail');
    expect(result.facts).toMatchObject({ issuer: 'Test Intermediate p256' });
    expect(result.advice).toMatch(/intermediate/);
  });

  it('passes a chain with its intermediate (root left out or included), and a lone certificate whose issuer is a given CA', () => {
    expect(completeness(c.leaf.cert + c.intermediate.cert).status).toBe('ok');
    expect(completeness(c.leaf.cert + c.intermediate.cert + c.root.cert).status).toBe('ok');
    const caFile = writeFile(dir, 'intermediate.pem', c.intermediate.cert);
    expect(completeness(c.leaf.cert, caFile).status).toBe('ok');
  });

  it('refuses the supplied wildcard in setup and in the walkthrough', () => {
    const certificateFile = writeFile(dir, 'leaf-only.crt', c.leaf.cert);
    const keyFile = writeFile(dir, 'leaf.key', c.leaf.key);
    const supplied = loadSuppliedWildcard({ certificateFile, keyFile, fixOrder: false });
    expect(supplied.findings).toContainEqual(
      expect.objectContaining({
        rule: 'wildcard-chain-complete',
        severity: 'error',
        variable: 'wildcard_certificate_file',
      }),
    );
    expect(supplied.chainPem).toBe('');

    // The walkthrough shows the chain's findings on the certificate question, not on the key's.
    const answers = { certificate_type: 'wildcard-supplied' };
    const certificateStep = stepsFor(answers).find((s) => s.id === 'wildcard_certificate_file')!;
    const walkthrough = checkFileInput(certificateStep, 'leaf-only.crt', answers, dir);
    expect(walkthrough.findings.some((f) => f.rule === 'wildcard-chain-complete' && f.severity === 'error')).toBe(true);
    const keyStep = stepsFor({ ...answers, wildcard_certificate_file: certificateFile }).find(
      (s) => s.id === 'wildcard_key_file',
    )!;
    expect(
      checkFileInput(keyStep, 'leaf.key', { ...answers, wildcard_certificate_file: certificateFile }, dir).findings.map(
        (f) => f.rule,
      ),
    ).not.toContain('wildcard-chain-complete');
  });
});
