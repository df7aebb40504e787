import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import { applyPlan, maskSecretLooking, planSetup, readAnswers } from '../../../../src/core/setup/plan.js';
import { nextSteps } from '../../../../src/core/setup/outcome.js';
import { reviewOf, reviewText } from '../../../../src/core/setup/review.js';
import { createTestCA } from '../../../helpers/pki.js';

const FIXTURES = new URL('../../../fixtures/inventory/', import.meta.url).pathname;
const TSIG = 'c2VjcmV0LXRzaWcta2V5LXZhbHVl';
let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-plan-'));
  inventory = join(dir, 'certificates.yml');
  await copyFile(join(FIXTURES, 'realistic.yml'), inventory);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('planSetup', () => {
  it('switching the solver removes the old provider keys, names them, and masks secrets in the diff', async () => {
    const plan = await planSetup({
      answers: {
        cluster_issuer_acme_solver: 'cloudflare',
        cluster_issuer_acme_cloudflare_api_token: 'cloudflare-token-4242',
      },
      inventoryPath: inventory,
    });
    expect(plan.removedKeys.sort()).toEqual([
      'cluster_issuer_acme_rfc2136_nameserver',
      'cluster_issuer_acme_rfc2136_tsig_algorithm',
      'cluster_issuer_acme_rfc2136_tsig_key_name',
      'cluster_issuer_acme_rfc2136_tsig_secret_key',
    ]);
    expect(plan.removedReasons.cluster_issuer_acme_rfc2136_nameserver).toContain('cloudflare');
    expect(plan.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(plan.issuerChanged).toBe(false);
    const [file] = plan.files;
    expect(file.holdsSecret).toBe(true);
    expect(file.mode).toBe(0o600);
    const values = parseInventory(file.content, inventory);
    expect(values.cluster_issuer_acme_cloudflare_api_token).toBe('cloudflare-token-4242');
    expect(Object.keys(values).some((k) => k.includes('rfc2136'))).toBe(false);
    expect(values.kube_vip_address).toBe('10.10.0.5');
    expect(plan.diff).toContain('-cluster_issuer_acme_solver: rfc2136');
    expect(plan.diff).toContain('+cluster_issuer_acme_solver: cloudflare');
    expect(plan.diff).toContain('+cluster_issuer_acme_cloudflare_api_token: ********');
    expect(plan.diff).not.toContain('cloudflare-token-4242');
    expect(plan.diff).not.toContain(TSIG);
  });

  it('reports an issuer change (the old certificate secrets must go) and suggests regenerate', async () => {
    const plan = await planSetup({ answers: { cluster_issuer_type: 'self-signed' }, inventoryPath: inventory });
    expect(plan.previousIssuer).toBe('acme');
    expect(plan.issuer).toBe('self-signed');
    expect(plan.issuerChanged).toBe(true);
    expect(plan.removedKeys).toContain('cluster_issuer_acme_email');
    expect(plan.findings.map((f) => f.rule)).toContain('self-signed');
    expect(plan.files[0].holdsSecret).toBe(false);
    expect(nextSteps(plan).join('\n')).toContain(`cloudgate regenerate --inventory ${inventory}`);
    // regenerate refuses until the deployment has run: it is listed after it.
    const steps = nextSteps(plan);
    expect(steps.findIndex((s) => s.startsWith('# Then run your deployment'))).toBeLessThan(
      steps.findIndex((s) => s.startsWith('cloudgate regenerate')),
    );
    // The review says it once, with the same step as the next steps.
    const review = reviewOf(plan);
    expect(review.issuerChange).toMatchObject({ from: 'acme', to: 'self-signed' });
    expect(reviewText(review)).toContain(`  -> ${steps.find((s) => s.startsWith('cloudgate regenerate'))}`);
    const inRegenerate = reviewText(reviewOf(plan, { regenerating: true })).join('\n');
    expect(inRegenerate).toContain('The issuer changes from acme to self-signed');
    expect(inRegenerate).not.toContain('cloudgate regenerate --inventory');
  });

  it('a null answer removes the variable; an unchanged inventory has nothing to write', async () => {
    const plan = await planSetup({
      answers: { cluster_issuer_acme_rfc2136_tsig_algorithm: null },
      inventoryPath: inventory,
    });
    expect(plan.removedKeys).toEqual(['cluster_issuer_acme_rfc2136_tsig_algorithm']);
    const same = await planSetup({ answers: { cluster_issuer_acme_solver: 'rfc2136' }, inventoryPath: inventory });
    expect(same.files).toEqual([]);
    expect(same.diff).toBe('');
  });

  it('creates a new inventory with a header and help comments', async () => {
    const path = join(dir, 'new', 'group_vars', 'all', 'certificates.yml');
    const plan = await planSetup({ answers: { cluster_issuer_acme_email: 'ops@example.com' }, inventoryPath: path });
    expect(plan.previousIssuer).toBeUndefined();
    await applyPlan(plan);
    const text = await readFile(path, 'utf8');
    expect(text).toMatch(/^# Certificate settings/);
    expect(text).toContain('# Contact email of the ACME account');
    expect((await stat(path)).mode & 0o777).toBe(0o644);
  });
});

describe('planSetup with a supplied wildcard certificate', () => {
  it('sets issuer none and the secret name, writes the TLS Secret manifest 0600 per namespace', async () => {
    const ca = createTestCA('supplied test CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    await writeFile(join(dir, 'wildcard.pem'), leaf.cert + ca.cert);
    await writeFile(join(dir, 'wildcard.key'), leaf.key);
    const plan = await planSetup({
      answers: {
        openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
        openstack_helm_ingress_secret_name: 'cloud-wildcard',
        wildcard_certificate_file: join(dir, 'wildcard.pem'),
        wildcard_key_file: join(dir, 'wildcard.key'),
      },
      inventoryPath: inventory,
      namespaces: ['openstack', 'auth-system'],
    });
    expect(plan.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(plan.issuer).toBe('none');
    expect(plan.issuerChanged).toBe(true);
    expect(plan.removedKeys).toContain('cluster_issuer_acme_email');
    expect(plan.supplied).toMatchObject({
      secretName: 'cloud-wildcard',
      namespaces: ['openstack', 'auth-system'],
      manifestPath: join(dir, 'manifests', 'cloud-wildcard.secret.yaml'),
    });
    const manifest = plan.files.find((f) => f.path === plan.supplied!.manifestPath)!;
    expect(manifest).toMatchObject({ mode: 0o600, holdsSecret: true });
    expect(manifest.content.match(/kind: Secret/g)).toHaveLength(2);
    expect(plan.diff).not.toContain(Buffer.from(leaf.key).toString('base64').slice(0, 40));
    await applyPlan(plan);
    expect((await stat(plan.supplied!.manifestPath)).mode & 0o777).toBe(0o600);
    expect(parseInventory(await readFile(inventory, 'utf8'), inventory)).toMatchObject({
      cluster_issuer_type: 'none',
      openstack_helm_ingress_secret_name: 'cloud-wildcard',
    });
    expect(nextSteps(plan)[0]).toContain(`kubectl apply -f ${plan.supplied!.manifestPath}`);
    // After a successful --apply, applying is no next step.
    expect(nextSteps(plan, { applied: true }).some((step) => step.startsWith('kubectl apply'))).toBe(false);

    // The same answers again: the manifest is unchanged, so it is neither rewritten nor backed up again.
    const again = await planSetup({
      answers: {
        openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
        openstack_helm_ingress_secret_name: 'cloud-wildcard',
        wildcard_certificate_file: join(dir, 'wildcard.pem'),
        wildcard_key_file: join(dir, 'wildcard.key'),
      },
      inventoryPath: inventory,
      namespaces: ['openstack', 'auth-system'],
    });
    expect(again.files.map((f) => f.path)).toEqual([]);
  });

  it('refuses a certificate that does not match the key, and answers that contradict issuer none', async () => {
    const ca = createTestCA('supplied test CA 2');
    const leaf = ca.issue(['*.cloud.example.com']);
    const other = ca.issue(['*.cloud.example.com']);
    await writeFile(join(dir, 'wildcard.pem'), leaf.cert);
    await writeFile(join(dir, 'wildcard.key'), other.key);
    const files = {
      wildcard_certificate_file: join(dir, 'wildcard.pem'),
      wildcard_key_file: join(dir, 'wildcard.key'),
    };
    const plan = await planSetup({ answers: files, inventoryPath: inventory });
    expect(plan.findings.some((f) => f.severity === 'error' && f.variable === 'wildcard_key_file')).toBe(true);
    expect(plan.files.map((f) => f.path)).toEqual([inventory]);
    await expect(applyPlan(plan)).rejects.toThrow(/Nothing was written/);
    await expect(
      planSetup({ answers: { ...files, cluster_issuer_type: 'acme' }, inventoryPath: inventory }),
    ).rejects.toThrow(/cluster_issuer_type: acme/);
    await expect(
      planSetup({ answers: { wildcard_certificate_file: files.wildcard_certificate_file }, inventoryPath: inventory }),
    ).rejects.toThrow(/wildcard_key_file/);
  });
});

describe('applyPlan', () => {
  it('writes the inventory atomically with a backup, mode 0600 when it holds a secret', async () => {
    const before = await readFile(inventory, 'utf8');
    const plan = await planSetup({
      answers: { cluster_issuer_acme_email: 'pki@example.com' },
      inventoryPath: inventory,
    });
    const [written] = await applyPlan(plan, new Date('2026-03-04T05:06:07Z'));
    expect((await stat(inventory)).mode & 0o777).toBe(0o600);
    expect(await readFile(written.backupPath!, 'utf8')).toBe(before);
    expect(parseInventory(await readFile(inventory, 'utf8'), inventory).cluster_issuer_acme_email).toBe(
      'pki@example.com',
    );
  });

  it('refuses to write when validation has an error, leaving the file as it was', async () => {
    const before = await readFile(inventory, 'utf8');
    const plan = await planSetup({ answers: { cluster_issuer_acme_email: 'not-an-email' }, inventoryPath: inventory });
    await expect(applyPlan(plan)).rejects.toThrow(/Nothing was written.*cluster_issuer_acme_email/);
    expect(await readFile(inventory, 'utf8')).toBe(before);
    expect(await readdir(dir)).toEqual(['certificates.yml']);
  });
});

describe('readAnswers', () => {
  it('resolves file: values relative to the answers file and keeps PEM text whole', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    await writeFile(join(dir, 'ca.pem'), pem);
    await writeFile(join(dir, 'token.txt'), 'tok-from-file\n');
    await writeFile(
      join(dir, 'answers.yml'),
      'cluster_issuer_type: venafi\ncluster_issuer_venafi_ca: file:ca.pem\ncluster_issuer_venafi_access_token: file:token.txt\nnamespace: [openstack, auth-system]\n',
    );
    const { answers } = await readAnswers(join(dir, 'answers.yml'));
    expect(answers).toEqual({
      cluster_issuer_type: 'venafi',
      cluster_issuer_venafi_ca: pem,
      cluster_issuer_venafi_access_token: 'tok-from-file',
      namespace: ['openstack', 'auth-system'],
    });
  });

  it("reads the neutral aliases of the answers as the platform's words, lists them, and plans in the platform's names", async () => {
    await writeFile(join(dir, 'answers.yml'), 'cluster_issuer_type: none\ncloud_helm_ingress_secret_name: my-certs\n');
    const { answers, translated, profile } = await readAnswers(join(dir, 'answers.yml'));
    expect(profile).toBeUndefined();
    expect(answers).toEqual({ cluster_issuer_type: 'none', openstack_helm_ingress_secret_name: 'my-certs' });
    expect(translated).toEqual([{ from: 'cloud_helm_ingress_secret_name', to: 'openstack_helm_ingress_secret_name' }]);
    const plan = await planSetup({
      answers: { ...answers },
      translated,
      inventoryPath: join(dir, 'new', 'certificates.yml'),
    });
    expect(plan.names).toBe('platform');
    expect(plan.translated).toEqual(translated);
    expect(plan.files[0]!.content).toContain('openstack_helm_ingress_secret_name: my-certs');
    expect(plan.files[0]!.content).not.toContain('cloud_helm');
  });

  it('turns CRLF line ends of a PEM file into LF, so the inventory holds a plain block', async () => {
    await writeFile(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\r\nMIIB\r\n-----END CERTIFICATE-----\r\n');
    await writeFile(join(dir, 'answers.yml'), 'cluster_issuer_type: venafi\ncluster_issuer_venafi_ca: file:ca.pem\n');
    const { answers } = await readAnswers(join(dir, 'answers.yml'));
    expect(answers.cluster_issuer_venafi_ca).toBe('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  });

  it('rejects an unknown key with a suggestion, bad YAML and an unreadable file, naming the file', async () => {
    const file = join(dir, 'answers.yml');
    await writeFile(file, 'cluster_issuer_acme_emial: ops@example.com\n');
    await expect(readAnswers(file)).rejects.toMatchObject({
      message: expect.stringContaining('cluster_issuer_acme_emial'),
      advice: 'Did you mean cluster_issuer_acme_email?',
    });
    await writeFile(file, 'cluster_issuer_type: [acme\n');
    await expect(readAnswers(file)).rejects.toThrow(`The answers file ${file} is not valid YAML`);
    await writeFile(file, 'cluster_issuer_ca_certificate: file:missing.pem\n');
    await expect(readAnswers(file)).rejects.toThrow(
      /Cannot read the file of cluster_issuer_ca_certificate .*missing.pem: ENOENT/,
    );
    await expect(readAnswers(join(dir, 'nope.yml'))).rejects.toThrow(/Cannot read the answers file/);
  });
});

describe('the setup diff masks values under secret-looking keys', () => {
  it('never shows the values of unrelated secret-looking keys in context lines, at any depth', async () => {
    await writeFile(
      inventory,
      [
        'cluster_issuer_type: acme',
        'db_password: hunter2-db-pass',
        'app:',
        '  api_token: tok-nested-7788',
        'cluster_issuer_acme_email: old@example.com',
        'ssh_private_key: |',
        '  block-line-secret-1122',
        'signing_keys:',
        '  - key-in-list-5566',
        '',
      ].join('\n'),
    );
    const plan = await planSetup({
      answers: { cluster_issuer_acme_email: 'new@example.com' },
      inventoryPath: inventory,
    });
    expect(plan.diff).toContain('+cluster_issuer_acme_email: new@example.com');
    for (const secret of ['hunter2-db-pass', 'tok-nested-7788', 'key-in-list-5566', 'block-line-secret-1122']) {
      expect(plan.diff).not.toContain(secret);
    }
    expect(plan.diff).toContain(' db_password: ********');
    expect(plan.diff).toContain('   api_token: ********');
  });

  it('follows the table for an inventory written with the platform names too', () => {
    // The secret name is no secret (the table says so), whichever name spells it.
    expect(
      maskSecretLooking(
        'openstack_helm_ingress_secret_name: wildcard-certs\ncluster_issuer_acme_route53_secret_access_key: sk-123\n',
      ),
    ).toBe(
      'openstack_helm_ingress_secret_name: wildcard-certs\ncluster_issuer_acme_route53_secret_access_key: ********\n',
    );
  });

  it('keeps tags, comments and other keys as they are; table variables follow the table', () => {
    expect(maskSecretLooking('openstack_helm_ingress_secret_name: wildcard-certs\n')).toBe(
      'openstack_helm_ingress_secret_name: wildcard-certs\n',
    );
    expect(
      maskSecretLooking(
        'a: 1\nmy_secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\nb: 2 # c\nx_token: abc # note\n',
      ),
    ).toBe('a: 1\nmy_secret: !vault ********\n  ********\n  ********\nb: 2 # c\nx_token: ******** # note\n');
  });
});

describe('setup warns when another vars file of the group overrides a key it writes', () => {
  it('names the later file of the same group folder, not an earlier one', async () => {
    const group = join(dir, 'group_vars/all');
    await mkdir(join(group, 'a-sub'), { recursive: true });
    await writeFile(join(group, 'zz-overrides.yml'), 'cluster_issuer_acme_email: other@example.com\n');
    await writeFile(join(group, 'aa-early.yml'), 'cluster_issuer_type: none\n');
    await writeFile(join(group, 'a-sub/x.yml'), 'cluster_issuer_type: none\n');
    const plan = await planSetup({
      answers: {
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_email: 'ops@example.com',
        cluster_issuer_acme_solver: 'http01',
      },
      inventoryPath: join(group, 'certificates.yml'),
    });
    const warnings = plan.findings.filter((f) => f.rule === 'overridden');
    expect(warnings.map((f) => [f.variable, f.severity])).toEqual([['cluster_issuer_acme_email', 'warning']]);
    expect(warnings[0].message).toContain(join(group, 'zz-overrides.yml'));
    // A later sub-folder counts too: Ansible reads it in place of its name.
    await mkdir(join(group, 'z-sub'));
    await writeFile(join(group, 'z-sub/x.yml'), 'cluster_issuer_type: none\n');
    const again = await planSetup({
      answers: { cluster_issuer_type: 'none' },
      inventoryPath: join(group, 'certificates.yml'),
    });
    expect(again.findings.filter((f) => f.rule === 'overridden').map((f) => f.message)).toEqual([
      expect.stringContaining(join(group, 'z-sub/x.yml')),
    ]);
  });

  it('says that Ansible does not read group_vars/all.yml when group_vars/all/ exists', async () => {
    await mkdir(join(dir, 'group_vars/all'), { recursive: true });
    const plan = await planSetup({
      answers: { cluster_issuer_type: 'none' },
      inventoryPath: join(dir, 'group_vars/all.yml'),
    });
    const warning = plan.findings.find((f) => f.rule === 'overridden');
    expect(warning?.message).toContain(`Ansible does not read ${join(dir, 'group_vars/all.yml')}`);
  });
});

describe('planSetup and the neutral aliases', () => {
  const write = (text: string) => writeFile(inventory, text);

  it('renames an alias in place, removes one whose platform name is set too, and a branch change removes an alias as it is written', async () => {
    await write(
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: dnsc\n' +
        'cluster_issuer_acme_dnsc_api_token: tok-alias-1\ncluster_issuer_acme_cloudflare_api_token: tok-platform-1\ncluster_issuer_acme_dnsc_email: dns@example.com\n',
    );
    const plan = await planSetup({ answers: {}, inventoryPath: inventory });
    expect(plan.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(plan.renamed.map(({ from, to, value }) => ({ from, to, value }))).toEqual([
      { from: 'cluster_issuer_acme_solver', to: 'cluster_issuer_acme_solver', value: 'cloudflare' },
      { from: 'cluster_issuer_acme_dnsc_api_token', to: undefined, value: undefined },
      { from: 'cluster_issuer_acme_dnsc_email', to: 'cluster_issuer_acme_cloudflare_email', value: undefined },
    ]);
    expect(parseInventory(plan.files[0]!.content, inventory)).toEqual({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 'tok-platform-1',
      cluster_issuer_acme_cloudflare_email: 'dns@example.com',
    });
    const review = reviewText(reviewOf(plan));
    expect(review).toContain(
      'Remove: cluster_issuer_acme_dnsc_api_token (cluster_issuer_acme_cloudflare_api_token is set too, and the deployment reads only that one)',
    );
    expect(review).toContain(
      "Rename: cluster_issuer_acme_dnsc_email -> cluster_issuer_acme_cloudflare_email (the platform's own name)",
    );
    expect(review.join('\n')).not.toContain('tok-');

    const ca = await planSetup({ answers: { cluster_issuer_type: 'self-signed' }, inventoryPath: inventory });
    const written = parseInventory(ca.files[0]!.content, inventory);
    expect(Object.keys(written)).toEqual(['cluster_issuer_type']);
    expect(reviewText(reviewOf(ca))).toContain(
      'Remove: cluster_issuer_acme_dnsc_email (not used with cluster_issuer_type: self-signed)',
    );
  });

  it("--names spec writes an inventory in the platform's names over to the neutral aliases, and says so", async () => {
    await write('cluster_issuer_type: venafi\ncluster_issuer_venafi_zone: Z\n');
    const plan = await planSetup({
      answers: { cluster_issuer_venafi_access_token: 'tpp-1' },
      inventoryPath: inventory,
      names: 'spec',
    });
    const written = parseInventory(plan.files[0]!.content, inventory);
    expect(written).toEqual({
      cluster_issuer_type: 'commercialca',
      cluster_issuer_commercialca_zone: 'Z',
      cluster_issuer_commercialca_access_token: 'tpp-1',
    });
    const review = reviewText(reviewOf(plan));
    expect(review[1]).toBe(
      "Variable names: the neutral aliases (--names spec): the platform's own role does not read them.",
    );
    expect(review).toContain('Issuer: commercialca');
    expect(review).toContain(
      'Rename: cluster_issuer_type: venafi -> commercialca (the neutral word, as --names spec says)',
    );
  });
});
