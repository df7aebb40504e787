/**
 * A supplied wildcard without its intermediate, through the built binary: the doctor's certificate
 * group fails certificate.chain-complete and setup refuses it (exit 2, nothing written). Run
 * `npm run build` first.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { chain, tempDir, writeFile, type Chain } from '../helpers/pki.js';

let c: Chain;
let pki: string;
beforeAll(async () => {
  c = await chain('p256', { cn: '*.cloud.example.test', dns: ['*.cloud.example.test'] });
  pki = tempDir();
  writeFile(pki, 'leaf-only.pem', c.leaf.cert);
  writeFile(pki, 'with-intermediate.pem', c.leaf.cert + c.intermediate.cert);
  writeFile(pki, 'wildcard.key', c.leaf.key);
});

const doctor = (file: string) =>
  runCli([
    'doctor',
    '--only',
    'certificate',
    '--certificate',
    join(pki, file),
    '--key',
    join(pki, 'wildcard.key'),
    '--domain',
    'cloud.example.test',
    '--json',
    '--inventory',
    join(pki, 'none.yml'),
  ]);

describe('a supplied wildcard without its intermediate', () => {
  it('fails certificate.chain-complete in the doctor, and passes once the intermediate is appended', async () => {
    const broken = await doctor('leaf-only.pem');
    expect(broken.code).toBe(1);
    const checks = Object.fromEntries(
      (JSON.parse(broken.stdout).checks as { id: string; status: string }[]).map((x) => [x.id, x.status]),
    );
    expect(checks['certificate.leaf-only-pem.chain-complete']).toBe('fail');
    const fixed = await doctor('with-intermediate.pem');
    expect(fixed.code).toBe(0);
    expect(
      JSON.parse(fixed.stdout).checks.find(
        (x: { id: string }) => x.id === 'certificate.with-intermediate-pem.chain-complete',
      ).status,
    ).toBe('ok');
  });

  it('is refused by setup --answers: exit 2, nothing written', async () => {
    const dir = tempDir('cloudgate-e2e-');
    writeFileSync(
      join(dir, 'answers.yml'),
      `wildcard_certificate_file: ${join(pki, 'leaf-only.pem')}\nwildcard_key_file: ${join(pki, 'wildcard.key')}\nopenstack_helm_ingress_wildcard_domain: cloud.example.test\n`,
    );
    const result = await runCli([
      'setup',
      '--answers',
      join(dir, 'answers.yml'),
      '--inventory',
      join(dir, 'certificates.yml'),
      '--yes',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/leaf-only\.pem: .*"Test Intermediate p256"/);
    expect(existsSync(join(dir, 'certificates.yml'))).toBe(false);
  });
});
