/**
 * Whatever a check says (2,000 Certificates in one message, a 200 KB cert-manager message, a key set of
 * 10,000 keys in its details), the report's lines stay bounded, cut after redaction, saying how much
 * was left out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runChecks } from '../../../../src/core/doctor/runner.js';
import { LINE_LIMIT, LIST_LIMIT } from '../../../../src/core/bounded.js';
import { clearSecretsForTests, registerSecret } from '../../../../src/core/secrets.js';
import type { Check, RunnableCheck } from '../../../../src/core/doctor/types.js';

const check = (run: RunnableCheck['run']): Check => ({
  id: 'kube.certificates',
  group: 'kube',
  title: 'Certificates',
  run,
});
afterEach(() => clearSecretsForTests());

describe('a check that says too much', () => {
  it('has its message, advice, reason and details bounded', async () => {
    const names = Array.from({ length: 2_000 }, (_, i) => `certificate-${i}: ${'m'.repeat(300)}`);
    const [outcome] = (
      await runChecks([
        check(async () => ({
          status: 'fail',
          message: `Not ready: ${names.join('; ')}`,
          advice: 'a'.repeat(200_000),
          facts: {
            keys: Array.from({ length: 10_000 }, (_, i) => ({ kid: `key-${i}` })),
            message: 'c'.repeat(200_000),
          },
        })),
      ])
    ).checks;
    expect(outcome.message.length).toBeLessThan(LINE_LIMIT + 60);
    expect(outcome.message).toMatch(/… and \d+ more characters$/);
    expect(outcome.advice!.length).toBeLessThan(LINE_LIMIT + 60);
    expect((outcome.facts!.keys as unknown[]).length).toBe(LIST_LIMIT + 1);
    expect(JSON.stringify(outcome).length).toBeLessThan(4 * LINE_LIMIT);
  });

  it('never prints the part of a secret that a cut would have left (redacted first)', async () => {
    const secret = 'client-secret-0123456789-abcdefghij';
    registerSecret(secret);
    const [outcome] = (
      await runChecks([check(async () => ({ status: 'fail', message: `${'x'.repeat(LINE_LIMIT - 5)}${secret}` }))])
    ).checks;
    expect(outcome.message).not.toContain(secret.slice(0, 5));
  });
});
