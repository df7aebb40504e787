/**
 * The supplied wildcard certificate end to end through the built binary: setup --answers writes the
 * inventory and a 0600 TLS Secret manifest with the chain in the right order, refuses bad input with
 * exit 2 and nothing written, --fix-order, --apply (against the Kubernetes API emulation), and the
 * doctor's certificate group. Run `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { kubectl } from '../../src/core/kube/kubectl.js';
import { runCli } from '../helpers/cli.js';
import { chain, DAY, issue, tempDir, writeFile, type Chain } from '../helpers/pki.js';
import { KubeState, namespace, startKubeApi, type KubeApi } from '../servers/kube-api.js';
import { hasKubectl, needsKubectl } from '../helpers/has-kubectl.js';

const DOMAIN = 'cloud.example.test';

let c: Chain;
let pki: string;
beforeAll(async () => {
  c = await chain('p384');
  pki = tempDir();
  writeFile(pki, 'wildcard.pem', c.leaf.cert + c.intermediate.cert + c.root.cert);
  writeFile(pki, 'shuffled.pem', c.intermediate.cert + c.leaf.cert + c.root.cert);
  writeFile(pki, 'wildcard.key', c.leaf.key);
  writeFile(pki, 'other.key', (await issue({ kind: 'p384', cn: 'other' })).key);
});

function workspace(answers: Record<string, unknown>) {
  const dir = tempDir('cloudgate-e2e-');
  const lines = Object.entries(answers).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  writeFileSync(join(dir, 'answers.yml'), lines.join('\n') + '\n');
  return {
    dir,
    inventory: join(dir, 'certificates.yml'),
    manifest: join(dir, 'wildcard.secret.yaml'),
    args: (...extra: string[]) => [
      'setup',
      '--answers',
      join(dir, 'answers.yml'),
      '--inventory',
      join(dir, 'certificates.yml'),
      '--secret-manifest',
      join(dir, 'wildcard.secret.yaml'),
      ...extra,
    ],
  };
}

const supplied = (cert: string, key = 'wildcard.key') => ({
  wildcard_certificate_file: join(pki, cert),
  wildcard_key_file: join(pki, key),
  openstack_helm_ingress_secret_name: 'wildcard-tls',
});

/** The Secrets of the manifest: one document, a List with one Secret per namespace. */
function secretsIn(
  manifestPath: string,
): { metadata: { name: string; namespace: string }; type: string; data: Record<string, string> }[] {
  const docs = parseAllDocuments(readFileSync(manifestPath, 'utf8')).map(
    (d) => d.toJS() as { kind: string; items: never[] },
  );
  expect(docs.map((d) => d.kind)).toEqual(['List']);
  return docs[0]!.items;
}

function chainSubjects(manifestPath: string): string[][] {
  return secretsIn(manifestPath).map((doc) => {
    const crt = Buffer.from(doc.data['tls.crt']!, 'base64').toString();
    return [...crt.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)].map((m) => {
      const out = spawnSync('openssl', ['x509', '-noout', '-subject'], { input: m[0] });
      return out.status === 0 ? out.stdout.toString().trim() : `unreadable`;
    });
  });
}

describe('setup with a supplied wildcard certificate', () => {
  it('writes the inventory and a 0600 Secret manifest per namespace, chain in order, and prints the next step', async () => {
    const ws = workspace({
      ...supplied('wildcard.pem'),
      namespace: ['openstack', 'auth-system'],
      openstack_helm_ingress_wildcard_domain: DOMAIN,
    });
    const result = await runCli(ws.args('--yes'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const inventory = parse(readFileSync(ws.inventory, 'utf8')) as Record<string, unknown>;
    expect(inventory).toMatchObject({
      cluster_issuer_type: 'none',
      openstack_helm_ingress_secret_name: 'wildcard-tls',
    });
    expect(statSync(ws.manifest).mode & 0o777).toBe(0o600);
    const docs = secretsIn(ws.manifest);
    expect(docs.map((d) => [d.metadata.name, d.metadata.namespace, d.type])).toEqual([
      ['wildcard-tls', 'openstack', 'kubernetes.io/tls'],
      ['wildcard-tls', 'auth-system', 'kubernetes.io/tls'],
    ]);
    expect(Buffer.from(docs[0]!.data['tls.key']!, 'base64').toString()).toBe(c.leaf.key);
    expect(chainSubjects(ws.manifest)[0]).toEqual([
      `subject=CN = *.${DOMAIN}`,
      'subject=CN = Test Intermediate p384',
      'subject=CN = Test Root p384',
    ]);
    expect(result.stderr).toContain(`kubectl apply -f ${ws.manifest}`);
    expect(result.stderr + result.stdout).not.toContain(c.leaf.key.split('\n')[1]);
  });

  it('refuses a chain in the wrong order with exit 2, names the fix, and writes nothing', async () => {
    const ws = workspace(supplied('shuffled.pem'));
    writeFileSync(ws.inventory, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.test\n');
    const before = readFileSync(ws.inventory, 'utf8');
    const result = await runCli(ws.args('--yes'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not in the order certificate, intermediate\(s\), root/);
    expect(result.stderr).toContain('--fix-order');
    expect(readFileSync(ws.inventory, 'utf8')).toBe(before);
    expect(existsSync(ws.manifest)).toBe(false);
  });

  it('writes the reordered chain with --fix-order', async () => {
    const ws = workspace(supplied('shuffled.pem'));
    const result = await runCli(ws.args('--yes', '--fix-order'));
    expect(result.code, result.stderr).toBe(0);
    expect(chainSubjects(ws.manifest)[0]).toEqual([
      `subject=CN = *.${DOMAIN}`,
      'subject=CN = Test Intermediate p384',
      'subject=CN = Test Root p384',
    ]);
  });

  it('refuses a key that does not belong to the certificate, and an encrypted key, with exit 2 and nothing written', async () => {
    const ws = workspace(supplied('wildcard.pem', 'other.key'));
    const result = await runCli(ws.args('--yes'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/other\.key .*does not belong to any certificate/);
    expect(existsSync(ws.inventory) || existsSync(ws.manifest)).toBe(false);

    writeFile(
      pki,
      'encrypted.key',
      c.leaf.keyObject
        .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass-phrase' })
        .toString(),
    );
    const enc = workspace(supplied('wildcard.pem', 'encrypted.key'));
    const encrypted = await runCli(enc.args('--yes'));
    expect(encrypted.code).toBe(2);
    expect(encrypted.stderr).toContain('openssl pkey -in');
    expect(existsSync(enc.manifest)).toBe(false);
  });

  it('with --apply and no kubectl, says so and keeps the manifest', async () => {
    const ws = workspace(supplied('wildcard.pem'));
    const result = await runCli(ws.args('--yes', '--apply'), { env: { CLOUDGATE_KUBECTL: '/nonexistent/kubectl' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/kubectl was not found/);
    expect(result.stderr).toContain('was written but not applied');
    expect(statSync(ws.manifest).mode & 0o777).toBe(0o600);
  });
});

describe.skipIf(!hasKubectl)(`setup --apply against an API server${needsKubectl}`, () => {
  let api: KubeApi;
  beforeAll(async () => {
    api = await startKubeApi(new KubeState().add(namespace('openstack')));
  });
  afterAll(() => api?.stop());

  it('writes a manifest kubectl accepts (create --dry-run=client)', async () => {
    const ws = workspace({ ...supplied('wildcard.pem'), namespace: ['openstack', 'monitoring'] });
    expect((await runCli(ws.args('--yes'))).code).toBe(0);
    // Asynchronously: the API server answering kubectl runs in this process.
    const dry = await kubectl(['create', '--dry-run=client', '--validate=false', '-f', ws.manifest, '-o', 'name'], {
      env: { ...process.env, ...api.env },
      timeoutMs: 30_000,
    });
    expect(dry.stderr).toBe('');
    expect(dry.stdout.trim().split('\n')).toEqual(['secret/wildcard-tls', 'secret/wildcard-tls']);
  });

  it('applies the Secret through kubectl and reports what it did', async () => {
    const ws = workspace(supplied('wildcard.pem'));
    const result = await runCli(ws.args('--yes', '--apply'), { env: api.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('secret/wildcard-tls created');
    const stored = api.state.get('Secret', 'wildcard-tls', 'openstack') as
      { type: string; data: Record<string, string> } | undefined;
    expect(stored?.type).toBe('kubernetes.io/tls');
    expect(Buffer.from(stored!.data['tls.crt']!, 'base64').toString()).toContain(c.intermediate.cert.split('\n')[1]);
  });
});

describe('doctor --only certificate', () => {
  it('reports each check with the expiry, as JSON, and fails an expired certificate', async () => {
    const ok = await runCli(
      [
        'doctor',
        '--only',
        'certificate',
        '--json',
        '--certificate',
        join(pki, 'wildcard.pem'),
        '--key',
        join(pki, 'wildcard.key'),
        '--domain',
        DOMAIN,
      ],
      { cwd: pki },
    );
    expect(ok.code, ok.stderr).toBe(0);
    const report = JSON.parse(ok.stdout) as {
      checks: { id: string; status: string; details?: { daysLeft?: number } }[];
    };
    expect(report.checks.map((x) => x.id)).toEqual(
      [
        'parse',
        'key',
        'chain-order',
        'chain-complete',
        'key-match',
        'wildcard-san',
        'self-signed',
        'strength',
        'validity',
      ].map((check) => `certificate.wildcard-pem.${check}`),
    );
    expect(report.checks.every((x) => x.status === 'ok')).toBe(true);
    expect(report.checks.at(-1)!.details?.daysLeft).toBeGreaterThan(300);

    const old = await issue({
      kind: 'p384',
      cn: 'old',
      dns: [`*.${DOMAIN}`],
      issuer: c.intermediate,
      notBefore: new Date(Date.now() - 90 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    writeFile(pki, 'old.pem', old.cert + c.intermediate.cert);
    const expired = await runCli(
      ['doctor', '--only', 'certificate', '--verbose', '--certificate', join(pki, 'old.pem')],
      { cwd: pki },
    );
    expect(expired.code).toBe(1);
    expect(expired.stdout).toMatch(/expired on \d{4}-\d\d-\d\d/);
  });
});

describe('doctor --only inventory,certificate with PEM variables', () => {
  it('reports a CA issuer chain in the wrong order and a mismatched key once, in the certificate group', async () => {
    const dir = tempDir('cloudgate-e2e-');
    const block = (pem: string) =>
      pem
        .trim()
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n');
    writeFileSync(
      join(dir, 'certificates.yml'),
      `cluster_issuer_type: ca\ncluster_issuer_ca_certificate: |\n${block(c.root.cert + c.intermediate.cert)}\ncluster_issuer_ca_private_key: |\n${block(c.leaf.key)}\n`,
    );
    const result = await runCli([
      'doctor',
      '--only',
      'inventory,certificate',
      '--json',
      '--inventory',
      join(dir, 'certificates.yml'),
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { checks: { id: string; status: string; message: string }[] };
    const failed = report.checks.filter((x) => x.status === 'fail').map((x) => x.id);
    expect(failed).toEqual(
      expect.arrayContaining(['certificate.ca-certificate.chain-order', 'certificate.ca-certificate.key-match']),
    );
    // One group owns each fact: the inventory group does not report the PEM value's certificate checks again.
    expect(report.checks.map((x) => x.id).filter((id) => id.startsWith('inventory.ca-certificate'))).toEqual([]);
    expect(result.stdout).not.toContain(c.leaf.key.split('\n')[1]);
  });
});
