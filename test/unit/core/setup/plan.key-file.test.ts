/**
 * A TSIG key file given as the secret (`file:tsig.key`): the key it holds travels with the answers
 * (readAnswers' sources, or the walkthrough's `file:` answer the plan reads), never beside them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSetup, readAnswers } from '../../../../src/core/setup/plan.js';
import {
  secretInput,
  stepError,
  stepsFor,
  toPlanAnswers,
  type WizardAnswers,
} from '../../../../src/core/setup/wizard-flow.js';

const SECRET = 'c2VjcmV0LXRzaWcta2V5LXZhbHVl';
const KEY_FILE = `key "fh-key" {\n\talgorithm hmac-sha512;\n\tsecret "${SECRET}";\n};\n`;
const RFC2136 =
  'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: rfc2136\ncluster_issuer_acme_rfc2136_nameserver: 127.0.0.1:53\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-key-file-'));
  await writeFile(join(dir, 'tsig.key'), KEY_FILE);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const rules = (findings: { rule: string; variable?: string }[]) =>
  findings.filter((f) => f.rule.startsWith('rfc2136-tsig-key')).map((f) => `${f.rule}:${f.variable}`);

describe('a TSIG key file in the answers', () => {
  it('an answers file returns the key with its answers; the plan given them takes the name and algorithm', async () => {
    await writeFile(join(dir, 'answers.yml'), `${RFC2136}cluster_issuer_acme_rfc2136_tsig_secret_key: file:tsig.key\n`);
    const { answers, sources } = await readAnswers(join(dir, 'answers.yml'));
    expect(answers.cluster_issuer_acme_rfc2136_tsig_secret_key).toBe(SECRET);
    expect(sources.tsigKey).toMatchObject({ name: 'fh-key', algorithm: 'HMACSHA512', file: 'tsig.key' });
    const plan = await planSetup({ answers, sources, inventoryPath: join(dir, 'one.yml') });
    expect(plan.values).toMatchObject({
      cluster_issuer_acme_rfc2136_tsig_key_name: 'fh-key',
      cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA512',
    });
    expect(rules(plan.findings)).toEqual(['rfc2136-tsig-key-file:cluster_issuer_acme_rfc2136_tsig_secret_key']);
    // The same answers planned again without their sources (another run in the same process): no key file was read.
    const other = await planSetup({ answers, inventoryPath: join(dir, 'two.yml') });
    expect(rules(other.findings)).toEqual([]);
    expect(other.values.cluster_issuer_acme_rfc2136_tsig_key_name).toBeUndefined();
  });

  it("the walkthrough's file: answer is read by the plan, which compares a changed key name with the file", async () => {
    const plan = await planSetup({
      answers: {
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_email: 'ops@example.com',
        cluster_issuer_acme_solver: 'rfc2136',
        cluster_issuer_acme_rfc2136_nameserver: '127.0.0.1:53',
        cluster_issuer_acme_rfc2136_tsig_secret_key: `file:${join(dir, 'tsig.key')}`,
        cluster_issuer_acme_rfc2136_tsig_key_name: 'other-key',
        cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA512',
      },
      inventoryPath: join(dir, 'one.yml'),
    });
    expect(plan.values.cluster_issuer_acme_rfc2136_tsig_secret_key).toBe(SECRET);
    expect(rules(plan.findings)).toEqual([
      'rfc2136-tsig-key-file:cluster_issuer_acme_rfc2136_tsig_secret_key',
      'rfc2136-tsig-key-mismatch:cluster_issuer_acme_rfc2136_tsig_key_name',
    ]);
  });

  it('the walkthrough answers the secret question with the file, accepted as typed', async () => {
    const answers: WizardAnswers = {
      certificate_type: 'individual',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'rfc2136',
      cluster_issuer_acme_rfc2136_nameserver: '127.0.0.1:53',
    };
    const step = stepsFor(answers).find((s) => s.id === 'cluster_issuer_acme_rfc2136_tsig_secret_key')!;
    const got = secretInput(step, 'tsig.key', dir);
    expect(got).toEqual({
      value: `file:${join(dir, 'tsig.key')}`,
      also: {
        cluster_issuer_acme_rfc2136_tsig_key_name: 'fh-key',
        cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA512',
      },
    });
    expect(stepError(step, got.value!, { ...answers, ...got.also })).toBeUndefined();
    // The next questions compare with the file at once, as the plan does.
    const given = { ...answers, [step.id]: got.value, ...got.also };
    const algorithm = stepsFor(given).find((s) => s.id === 'cluster_issuer_acme_rfc2136_tsig_algorithm')!;
    expect(stepError(algorithm, 'HMACSHA256', given)).toMatch(
      /HMACSHA256 but the key file .*tsig\.key says HMACSHA512/,
    );
    expect(stepError(algorithm, 'HMACSHA512', given)).toBeUndefined();
    const plan = await planSetup({
      answers: toPlanAnswers({ ...answers, [step.id]: got.value, ...got.also }),
      inventoryPath: join(dir, 'one.yml'),
    });
    expect(plan.values.cluster_issuer_acme_rfc2136_tsig_secret_key).toBe(SECRET);
    expect(rules(plan.findings)).toEqual(['rfc2136-tsig-key-file:cluster_issuer_acme_rfc2136_tsig_secret_key']);
  });
});
