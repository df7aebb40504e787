import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { provideChecks } from '../../../../../src/core/areas/certificate/checks.js';
import type { DoctorInput } from '../../../../../src/core/doctor/input.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import { chain, DAY, issue, tempDir, writeFile, type Chain } from '../../../../helpers/pki.js';
import { flagFields } from '../../../../helpers/doctor-options.js';
import type { ParsedValues } from '../../../../../src/cli-flags.js';

function doctorInput(dir: string, flags: ParsedValues, extra: Partial<DoctorInput> = {}): DoctorInput {
  return {
    ...flagFields(flags, dir),
    env: {},
    cwd: dir,
    config: {},
    inventoryPath: join(dir, 'inventory.yml'),
    inventoryExplicit: false,
    network: { timeoutMs: 5000, insecure: false, allowHttp: false, verbose: false, log: () => {} },
    ...extra,
  };
}

async function run(input: DoctorInput) {
  const report = await runChecks(await provideChecks(input), { network: input.network });
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
}

describe('doctor group certificate', () => {
  let c: Chain;
  let dir: string;
  beforeAll(async () => {
    c = await chain('p256');
    dir = tempDir();
    writeFile(dir, 'wildcard.pem', c.leaf.cert + c.intermediate.cert + c.root.cert);
    writeFile(dir, 'wildcard.key', c.leaf.key);
  });

  it('ids each check by its file, however many files there are', async () => {
    const one = await run(doctorInput(dir, { certificate: ['wildcard.pem'] }));
    const two = await run(doctorInput(dir, { certificate: ['wildcard.pem', 'wildcard.pem'] }));
    expect(one['certificate.wildcard-pem.parse']!.status).toBe('ok');
    expect(two['certificate.wildcard-pem.parse']!.status).toBe('ok');
  });

  it('skips with the flags to use when nothing is given', async () => {
    const checks = await run(doctorInput(dir, {}));
    expect(Object.keys(checks)).toEqual(['certificate.files']);
    expect(checks['certificate.files']).toMatchObject({
      status: 'skip',
      reason: { code: 'not-configured', text: expect.stringContaining('--certificate FILE') },
    });
  });

  it('fails --key without --certificate instead of ignoring it', async () => {
    const checks = await run(doctorInput(dir, { key: 'wildcard.key' }));
    expect(checks['certificate.files']).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('--key given without --certificate'),
    });
  });

  it('reports each check of a good certificate as its own line, with the expiry', async () => {
    const checks = await run(
      doctorInput(dir, { certificate: ['wildcard.pem'], key: 'wildcard.key', domain: 'cloud.example.test' }),
    );
    expect(Object.entries(checks).map(([id, c]) => [id, c.status])).toEqual([
      ['certificate.wildcard-pem.parse', 'ok'],
      ['certificate.wildcard-pem.key', 'ok'],
      ['certificate.wildcard-pem.chain-order', 'ok'],
      ['certificate.wildcard-pem.chain-complete', 'ok'],
      ['certificate.wildcard-pem.key-match', 'ok'],
      ['certificate.wildcard-pem.wildcard-san', 'ok'],
      ['certificate.wildcard-pem.self-signed', 'ok'],
      ['certificate.wildcard-pem.strength', 'ok'],
      ['certificate.wildcard-pem.validity', 'ok'],
    ]);
    expect(checks['certificate.wildcard-pem.validity']!.message).toMatch(
      /^Valid until \d{4}-\d\d-\d\d \(\d+ days left\)\.$/,
    );
    expect(checks['certificate.wildcard-pem.validity']!.facts).toMatchObject({
      daysLeft: expect.any(Number),
      notAfter: expect.any(String),
    });
  });

  it('warns 30 days before a supplied wildcard expires that the operator must renew it', async () => {
    const soon = await issue({
      cn: 'soon',
      dns: ['*.cloud.example.test'],
      issuer: c.intermediate,
      notAfter: new Date(Date.now() + 20 * DAY),
    });
    writeFile(dir, 'soon.pem', soon.cert + c.intermediate.cert);
    const checks = await run(doctorInput(dir, { certificate: ['soon.pem'] }));
    expect(checks['certificate.soon-pem.validity']).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/expires on \d{4}-\d\d-\d\d, in (19|20) days/),
      advice: expect.stringMatching(/never renews a supplied wildcard/),
    });
    expect(checks['certificate.soon-pem.key-match']).toBeUndefined();
  });

  it('reads files, key and domain from the config file, relative to it, and names several files apart', async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'c.yaml'), '');
    const other = await issue({ cn: 'other', dns: ['*.other.test'], issuer: c.intermediate });
    writeFile(dir, 'other.pem', other.cert + c.intermediate.cert);
    const config = {
      certificate: {
        files: [join(dir, 'wildcard.pem'), '../' + dir.split('/').pop() + '/other.pem'],
        key: join(dir, 'wildcard.key'),
        domain: 'cloud.example.test',
      },
    };
    const checks = await run(doctorInput(configDir, {}, { config, configPath: 'c.yaml' }));
    expect(checks['certificate.wildcard-pem.key-match']!.status).toBe('ok');
    expect(checks['certificate.other-pem.wildcard-san']).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('does not cover *.cloud.example.test'),
    });
  });

  it('fails a missing file and a wrong order, and skips what depends on an unreadable file', async () => {
    writeFile(dir, 'shuffled.pem', c.root.cert + c.leaf.cert + c.intermediate.cert);
    const shuffled = await run(doctorInput(dir, { certificate: ['shuffled.pem'], key: 'wildcard.key' }));
    expect(shuffled['certificate.shuffled-pem.chain-order']).toMatchObject({
      status: 'fail',
      advice: expect.stringContaining('--fix-order'),
    });
    expect(shuffled['certificate.shuffled-pem.wildcard-san']!.status).toBe('ok');

    const missing = await run(doctorInput(dir, { certificate: ['nope.pem'], key: 'wildcard.key' }));
    expect(missing['certificate.nope-pem.parse']).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/nope\.pem: no such file/),
    });
    // Not run: what it needs was not read; the runner names the check that failed.
    expect(missing['certificate.nope-pem.validity']).toMatchObject({
      status: 'skip',
      message: 'Not run: certificate.nope-pem.parse failed.',
      reason: { code: 'needs-failed' },
    });
  });

  it('checks the PEM variables of the inventory, and takes the domain from it', async () => {
    const inv = tempDir();
    const notCa = await issue({ cn: 'not a ca', issuer: c.intermediate });
    writeFileSync(
      join(inv, 'inventory.yml'),
      stringify({
        openstack_helm_ingress_wildcard_domain: 'other.test',
        cluster_issuer_ca_certificate: c.intermediate.cert + c.root.cert,
        cluster_issuer_ca_private_key: c.intermediate.key,
        cluster_issuer_venafi_ca: notCa.cert,
      }),
    );
    writeFile(inv, 'wildcard.pem', c.leaf.cert);
    const checks = await run(doctorInput(inv, { certificate: ['wildcard.pem'] }));
    expect(checks['certificate.ca-certificate.key-match']!.status).toBe('ok');
    expect(checks['certificate.ca-certificate.ca']!.status).toBe('ok');
    expect(checks['certificate.venafi-ca.ca']).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('cluster_issuer_venafi_ca'),
    });
    expect(checks['certificate.wildcard-pem.wildcard-san']).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('*.other.test'),
    });
    expect(checks['certificate.venafi-tpp-ca-bundle.parse']).toBeUndefined();
  });
});
