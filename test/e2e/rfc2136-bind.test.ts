/**
 * The rfc2136 solver against Debian's real BIND: setup takes the key name, algorithm and secret from
 * a tsig-keygen key file given as `file:tsig.key` (as README shows), and the doctor's acme.rfc2136
 * sends a TSIG-signed SOA query that named accepts or refuses (BADSIG, BADKEY, REFUSED, no server).
 * Run `npm run build` first.
 */
import { createSocket } from 'node:dgram';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { createTestCA, type TestCA } from '../helpers/pki.js';
import { startLocalAcme, type AcmeServer } from '../servers/acme.js';
import { hasNamed, requireNamed, startNamed, tsigKeygen, type RunningNamed } from '../servers/named.js';

let named: RunningNamed;
let ca: TestCA;
let acme: AcmeServer;
beforeAll(async () => {
  if (!hasNamed) return;
  named = await startNamed({ zone: 'cloud.example.test' });
  ca = createTestCA('rfc2136 e2e CA');
  acme = await startLocalAcme(ca);
}, 30_000);
afterAll(async () => {
  await named?.stop();
  await acme?.stop();
});

/** setup --answers with README's rfc2136 example (the key file copied next to the answers). */
async function setup(extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-rfc2136-'));
  copyFileSync(join(named.dir, 'tsig.key'), join(dir, 'tsig.key'));
  const answers = {
    openstack_helm_ingress_wildcard_domain: 'cloud.example.test',
    cluster_issuer_type: 'acme',
    cluster_issuer_acme_email: 'certificates@example.test',
    cluster_issuer_acme_server: acme.url,
    cluster_issuer_acme_solver: 'rfc2136',
    cluster_issuer_acme_rfc2136_nameserver: `127.0.0.1:${named.port}`,
    cluster_issuer_acme_rfc2136_tsig_key_name: 'cert-manager',
    cluster_issuer_acme_rfc2136_tsig_secret_key: 'file:tsig.key',
    ...extra,
  };
  writeFileSync(
    join(dir, 'answers.yml'),
    Object.entries(answers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n') + '\n',
  );
  const inventory = join(dir, 'certificates.yml');
  const result = await runCli(['setup', '--answers', join(dir, 'answers.yml'), '--inventory', inventory, '--yes']);
  return { dir, inventory, result };
}

async function rfc2136(inventory: string) {
  const result = await runCli(['doctor', '--only', 'acme', '--inventory', inventory, '--ca-file', ca.file, '--json']);
  const check = (
    JSON.parse(result.stdout).checks as {
      id: string;
      status: string;
      message: string;
      details?: Record<string, unknown>;
    }[]
  ).find((c) => c.id === 'acme.rfc2136')!;
  return { code: result.code, check, stdout: result.stdout };
}

/** The inventory written by setup, with some values replaced. */
function variant(inventory: string, changes: Record<string, string>): string {
  const values = { ...(parse(readFileSync(inventory, 'utf8')) as Record<string, unknown>), ...changes };
  const path = `${inventory}.${Object.keys(changes).join('-')}.yml`;
  writeFileSync(
    path,
    Object.entries(values)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n') + '\n',
  );
  return path;
}

describe.skipIf(!requireNamed())('rfc2136 with a tsig-keygen key file and the real named', () => {
  it('setup takes name, algorithm and secret from the key file, and the doctor passes with the key', async () => {
    const { inventory, result } = await setup();
    expect(result.code, result.stderr).toBe(0);
    const values = parse(readFileSync(inventory, 'utf8')) as Record<string, string>;
    expect(values.cluster_issuer_acme_rfc2136_tsig_secret_key).toBe(named.key.secret);
    expect(values.cluster_issuer_acme_rfc2136_tsig_key_name).toBe('cert-manager');
    expect(values.cluster_issuer_acme_rfc2136_tsig_algorithm).toBe('HMACSHA256');
    expect(result.stderr).toContain('tsig.key');
    expect(result.stderr).not.toContain(named.key.secret);

    const ok = await rfc2136(inventory);
    expect(ok.code).toBe(0);
    expect(ok.check.status).toBe('ok');
    expect(ok.check.details).toMatchObject({
      key: 'cert-manager',
      algorithm: 'HMACSHA256',
      tsigError: 'NOERROR',
      responseVerified: true,
    });
    expect(ok.stdout).not.toContain(named.key.secret);
  });

  it('fails a wrong secret (BADSIG), an unknown key name (BADKEY), a zone not served (REFUSED) and no server', async () => {
    const { inventory } = await setup();
    const wrongSecret = await rfc2136(
      variant(inventory, { cluster_issuer_acme_rfc2136_tsig_secret_key: tsigKeygen('cert-manager').secret }),
    );
    expect([wrongSecret.code, wrongSecret.check.status, wrongSecret.check.details?.tsigError]).toEqual([
      1,
      'fail',
      'BADSIG',
    ]);
    const unknownKey = await rfc2136(variant(inventory, { cluster_issuer_acme_rfc2136_tsig_key_name: 'nobody' }));
    expect([unknownKey.code, unknownKey.check.status, unknownKey.check.details?.tsigError]).toEqual([
      1,
      'fail',
      'BADKEY',
    ]);
    const otherZone = await rfc2136(variant(inventory, { openstack_helm_ingress_wildcard_domain: 'elsewhere.test' }));
    expect(otherZone.check.status).toBe('fail');
    expect(otherZone.check.details?.rcode).toMatch(/^(REFUSED|NOTAUTH)$/);

    const closed = createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
    const port = closed.address().port;
    closed.close();
    const unreachable = await rfc2136(
      variant(inventory, { cluster_issuer_acme_rfc2136_nameserver: `127.0.0.1:${port}` }),
    );
    expect([unreachable.code, unreachable.check.status]).toEqual([1, 'fail']);
  });

  it('refuses a key name or algorithm that disagrees with the key file, and a secret that is not base64 (exit 2, nothing written)', async () => {
    const name = await setup({ cluster_issuer_acme_rfc2136_tsig_key_name: 'other' });
    expect(name.result.code).toBe(2);
    expect(name.result.stderr).toMatch(/"other".*"cert-manager"/);
    expect(existsSync(name.inventory)).toBe(false);
    const algorithm = await setup({ cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACMD5' });
    expect(algorithm.result.code).toBe(2);
    expect(algorithm.result.stderr).toMatch(/HMACMD5.*HMACSHA256/);
    const garbage = await setup({ cluster_issuer_acme_rfc2136_tsig_secret_key: 'not base64!' });
    expect(garbage.result.code).toBe(2);
    expect(garbage.result.stderr).toContain('cluster_issuer_acme_rfc2136_tsig_secret_key');
  });
});
