/**
 * A supplied wildcard certificate with a key or signature below what the CA/Browser Forum and
 * Kubernetes accept is refused by setup (exit 2, nothing written) and fails the doctor's certificate
 * check, named as such. Run `npm run build` first.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestCA, type IssueOptions } from '../helpers/pki.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cg-weak-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ca = createTestCA('weak crypto CA');

function wildcard(options: Partial<IssueOptions>): void {
  const leaf = ca.issue(['*.cloud.example.com'], options);
  writeFileSync(join(dir, 'wildcard.pem'), leaf.cert + ca.cert);
  writeFileSync(join(dir, 'wildcard.key'), leaf.key, { mode: 0o600 });
  writeFileSync(
    join(dir, 'answers.yml'),
    'cloud_helm_ingress_wildcard_domain: cloud.example.com\nwildcard_certificate_file: wildcard.pem\nwildcard_key_file: wildcard.key\n',
  );
}

describe.each([
  ['an RSA 512-bit key', { kind: 'rsa512' as const }, 'RSA 512-bit key'],
  ['an RSA 1024-bit key', { kind: 'rsa1024' as const }, 'RSA 1024-bit key'],
  ['a SHA-1 signature', { sha1: true }, 'SHA-1 signature'],
])('a supplied wildcard with %s', (_, options, named) => {
  it('is refused by setup, nothing written', async () => {
    wildcard(options);
    const inventory = join(dir, 'inventory', 'group_vars', 'all', 'certificates.yml');
    const r = await runCli(['setup', '--answers', join(dir, 'answers.yml'), '--inventory', inventory, '--yes'], {
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(named);
    expect(existsSync(inventory)).toBe(false);
  });

  it("fails the doctor's certificate.strength check", async () => {
    wildcard(options);
    const r = await runCli([
      'doctor',
      '--only',
      'certificate',
      '--certificate',
      join(dir, 'wildcard.pem'),
      '--key',
      join(dir, 'wildcard.key'),
      '--domain',
      'cloud.example.com',
      '--ca-file',
      ca.file,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const strength = (
      JSON.parse(r.stdout) as { checks: { id: string; status: string; message: string }[] }
    ).checks.find((c) => c.id === 'certificate.wildcard-pem.strength');
    expect(strength).toMatchObject({ status: 'fail', message: expect.stringContaining(named) });
  });
});
