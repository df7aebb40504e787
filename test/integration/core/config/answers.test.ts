import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAnswers, resolveWithSources } from '../../../../src/core/config/answers.js';
import { validate } from '../../../../src/core/config/validate.js';
import { UsageError } from '../../../../src/core/errors.js';
import { createTestCA } from '../../../helpers/pki.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-answers-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function failure(raw: Record<string, unknown>): UsageError {
  try {
    resolveAnswers(raw, dir, 'answers.yml');
  } catch (error) {
    return error as UsageError;
  }
  throw new Error('resolveAnswers accepted the answers');
}

describe('resolveAnswers: file: values', () => {
  it('refuses /proc/self/environ without quoting the environment', () => {
    const e = failure({ cluster_issuer_acme_email: 'file:/proc/self/environ' });
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toContain('/proc/self/environ');
    expect(e.message).toMatch(/not a one-line value/);
    expect(e.message + e.advice).not.toContain(process.env.PATH!);
    expect(e.message + e.advice).not.toContain('PATH=');
  });

  it('refuses /dev/zero at once and a FIFO without waiting for a writer', () => {
    // A read that waited for /dev/zero's end or the FIFO's writer would never return: no clock is needed to see it.
    expect(failure({ cluster_issuer_acme_email: 'file:/dev/zero' }).message).toMatch(
      /\/dev\/zero is not a regular file \(a device\)/,
    );
    const fifo = join(dir, 'email.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(failure({ cluster_issuer_acme_email: 'file:email.fifo' }).message).toMatch(
      /email\.fifo is not a regular file \(a pipe\)/,
    );
  });

  it('refuses a file over 1 MiB, naming it and not its content', async () => {
    await writeFile(join(dir, 'big.txt'), 'z'.repeat(1024 * 1024 + 1));
    const e2 = failure({ cluster_issuer_acme_cloudflare_api_token: 'file:big.txt' });
    expect(e2.message).toMatch(/big\.txt is larger than 1 MiB/);
    expect(e2.message).not.toContain('zzzz');
  });

  it('refuses a multi-line file for a one-line value, without echoing it', async () => {
    await writeFile(join(dir, 'token'), 'first-line-secret\nsecond-line-secret\n');
    const e = failure({ cluster_issuer_acme_cloudflare_api_token: 'file:token' });
    expect(e.message).toMatch(/not a one-line value/);
    expect(e.message).not.toContain('line-secret');
  });

  it('refuses a PEM variable whose file holds no PEM block, naming the file', async () => {
    await writeFile(join(dir, 'ca.pem'), 'not pem at all: hidden-4411\n');
    const e = failure({ cluster_issuer_ca_certificate: 'file:ca.pem' });
    expect(e.message).toMatch(/ca\.pem, which holds no PEM block/);
    expect(e.message).not.toContain('hidden-4411');
  });

  it('reads a one-line value and registers it for redaction', async () => {
    await writeFile(join(dir, 'email'), 'ops@example.com\n');
    expect(resolveAnswers({ cluster_issuer_acme_email: 'file:email' }, dir)).toEqual({
      cluster_issuer_acme_email: 'ops@example.com',
    });
  });
});

describe('resolveWithSources: where file: values came from', () => {
  it('returns the file of each PEM value with the answers, and only the run given them names the files', async () => {
    const ca = createTestCA('answers CA');
    const other = createTestCA('answers other CA');
    await writeFile(join(dir, 'ca.pem'), ca.cert);
    await writeFile(join(dir, 'other.key'), other.key);
    const { answers, sources } = resolveWithSources(
      {
        cluster_issuer_type: 'ca',
        cluster_issuer_ca_certificate: 'file:ca.pem',
        cluster_issuer_ca_private_key: 'file:other.key',
      },
      dir,
    );
    expect(sources.files).toEqual({
      cluster_issuer_ca_certificate: join(dir, 'ca.pem'),
      cluster_issuer_ca_private_key: join(dir, 'other.key'),
    });
    const named = validate(answers, { sources }).find((f) => f.rule === 'ca-certificate-key-match');
    expect(named?.message).toContain(`${join(dir, 'other.key')} (cluster_issuer_ca_private_key)`);
    // A later check of the same values in the same process (a doctor run, a serve scrape) read no file.
    const unnamed = validate(answers).find((f) => f.rule === 'ca-certificate-key-match');
    expect(unnamed?.message).toContain('cluster_issuer_ca_private_key');
    expect(unnamed?.message).not.toContain(dir);
  });
});
