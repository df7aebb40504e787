/** The plan's verdict: contradictory answers, a missing wildcard domain, what the deployment would fail on, the cluster diff. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSetup } from '../../../../src/core/setup/plan.js';
import { reviewOf, reviewText } from '../../../../src/core/setup/review.js';
import { validate } from '../../../../src/core/config/validate.js';
import { createTestCA } from '../../../helpers/pki.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-verdict-'));
  inventory = join(dir, 'certificates.yml');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const errors = (findings: { rule: string; severity: string; variable?: string }[]) =>
  findings.filter((f) => f.severity === 'error').map((f) => `${f.rule}:${f.variable ?? ''}`);

const ACME =
  'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: http01\n';

describe('contradictory answers are errors, never dropped', () => {
  it('a secret name with cluster_issuer_type: acme names both keys', async () => {
    await writeFile(inventory, ACME);
    const plan = await planSetup({
      answers: {
        openstack_helm_ingress_secret_name: 'wildcard-certs',
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_email: 'ops@example.com',
      },
      inventoryPath: inventory,
    });
    const f = plan.findings.find((x) => x.rule === 'contradictory-answers')!;
    expect(f).toMatchObject({ severity: 'error', variable: 'openstack_helm_ingress_secret_name' });
    expect(f.message).toContain('cluster_issuer_type');
    expect(f.message).toContain('set in the answers');
  });

  it('an answer for another solver or auth mode is an error, whether the choice is in the answers or the inventory', async () => {
    await writeFile(inventory, ACME);
    const solver = await planSetup({
      answers: { cluster_issuer_acme_route53_region: 'eu-west-1' },
      inventoryPath: inventory,
    });
    expect(errors(solver.findings)).toContain('contradictory-answers:cluster_issuer_acme_route53_region');
    expect(solver.findings.find((f) => f.rule === 'contradictory-answers')!.message).toMatch(
      /cluster_issuer_acme_solver.*inventory/,
    );
    const auth = await planSetup({
      answers: {
        cluster_issuer_acme_solver: 'route53',
        cluster_issuer_acme_route53_auth: 'ambient',
        cluster_issuer_acme_route53_access_key_id: 'AKIA1',
        cluster_issuer_acme_route53_region: 'eu-west-1',
        cluster_issuer_acme_route53_hosted_zone_id: 'Z1',
      },
      inventoryPath: inventory,
    });
    expect(errors(auth.findings)).toEqual(['contradictory-answers:cluster_issuer_acme_route53_access_key_id']);
    expect(auth.findings[0]!.message).toContain('cluster_issuer_acme_route53_auth');
  });

  it('values left in the inventory from another branch are still removed, and the review says why', async () => {
    await writeFile(inventory, `${ACME}cluster_issuer_acme_cloudflare_api_token: tok-1\n`);
    const plan = await planSetup({ answers: { cluster_issuer_acme_solver: 'http01' }, inventoryPath: inventory });
    expect(errors(plan.findings)).toEqual([]);
    expect(plan.removedKeys).toEqual(['cluster_issuer_acme_cloudflare_api_token']);
    expect(reviewText(reviewOf(plan)).join('\n')).toContain(
      'Remove: cluster_issuer_acme_cloudflare_api_token (not used with',
    );
  });

  it('both annotation maps in one answers file are a contradiction naming both', async () => {
    await writeFile(inventory, ACME);
    const map = { 'cert-manager.io/subject-organizations': 'Example' };
    const plan = await planSetup({
      answers: { atmosphere_ingress_annotations: map, ingress_global_annotations: map },
      inventoryPath: inventory,
    });
    const f = plan.findings.find((x) => x.rule === 'contradictory-answers')!;
    expect(f.message).toContain('atmosphere_ingress_annotations');
    expect(f.message).toContain('ingress_global_annotations');
  });
});

describe('wildcard issued automatically needs its domain', () => {
  it('an empty domain in the answers is an error', async () => {
    await writeFile(inventory, ACME);
    const plan = await planSetup({ answers: { openstack_helm_ingress_wildcard_domain: '' }, inventoryPath: inventory });
    expect(errors(plan.findings)).toContain('wildcard-domain-required:openstack_helm_ingress_wildcard_domain');
  });
});

describe('what the deployment would fail on is part of the verdict', () => {
  const ROUTE53 = {
    cluster_issuer_type: 'acme',
    cluster_issuer_acme_email: 'ops@example.com',
    cluster_issuer_acme_solver: 'route53',
    cluster_issuer_acme_route53_auth: 'ambient',
  };

  it('setup refuses route53 without region and hosted zone id (platform-needs), once per variable', async () => {
    const plan = await planSetup({ answers: ROUTE53, inventoryPath: inventory });
    expect(errors(plan.findings)).toEqual([
      'platform-needs:cluster_issuer_acme_route53_region',
      'platform-needs:cluster_issuer_acme_route53_hosted_zone_id',
    ]);
    expect(plan.findings[0]!.message).toContain('is undefined');
    // an error the inventory rules already give is not repeated
    const oidc = await planSetup({
      answers: {
        ...ROUTE53,
        cluster_issuer_acme_route53_auth: 'kubernetes',
        cluster_issuer_acme_route53_region: 'eu-west-1',
        cluster_issuer_acme_route53_hosted_zone_id: 'Z',
      },
      inventoryPath: inventory,
    });
    expect(errors(oidc.findings)).toEqual(['route53-role-arn-required:cluster_issuer_acme_route53_role_arn']);
  });

  it('rfc2136 without a TSIG algorithm fails (the platform has no default)', async () => {
    const plan = await planSetup({
      answers: {
        cluster_issuer_acme_email: 'ops@example.com',
        cluster_issuer_acme_solver: 'rfc2136',
        cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com:53',
        cluster_issuer_acme_rfc2136_tsig_key_name: 'k',
        cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0',
      },
      inventoryPath: inventory,
    });
    expect(errors(plan.findings)).toEqual(['platform-needs:cluster_issuer_acme_rfc2136_tsig_algorithm']);
  });

  it('a PEM TPP bundle in the answers is written base64 (what the issuer takes), and that inventory passes', async () => {
    const ca = createTestCA();
    const plan = await planSetup({
      answers: {
        cluster_issuer_type: 'venafi',
        cluster_issuer_venafi_ca: ca.cert,
        cluster_issuer_venafi_zone: 'Z',
        cluster_issuer_venafi_tpp_url: 'https://tpp.example.com/vedsdk',
        cluster_issuer_venafi_tpp_ca_bundle: ca.cert,
        cluster_issuer_venafi_access_token: 'tok-77',
      },
      inventoryPath: inventory,
    });
    expect(errors(plan.findings)).toEqual([]);
    expect(Buffer.from(String(plan.values.cluster_issuer_venafi_tpp_ca_bundle), 'base64').toString()).toBe(
      ca.cert.replace(/\r\n/g, '\n'),
    );
    expect(plan.findings.map((f) => f.rule)).toContain('venafi-tpp-ca-bundle-encoded');
    expect(errors(validate(plan.values))).toEqual([]);
  });
});

describe('the review shows what changes in the cluster', () => {
  it('diffs the rendered objects before and after, secrets masked', async () => {
    await writeFile(inventory, `${ACME}`);
    const plan = await planSetup({
      answers: { cluster_issuer_acme_solver: 'cloudflare', cluster_issuer_acme_cloudflare_api_token: 'tok-secret-991' },
      inventoryPath: inventory,
    });
    expect(plan.cluster.changes).toEqual([
      { object: 'Secret cert-manager/cloudflare-api-token', change: 'added', fields: [] },
      { object: 'ClusterIssuer atmosphere', change: 'changed', fields: ['spec.acme.solvers'] },
    ]);
    expect(plan.cluster.diff).toContain('+  api-token: "********"');
    expect(plan.cluster.diff).toContain('-      - http01:');
    expect(plan.cluster.diff).not.toContain('tok-secret-991');
    expect(reviewText(reviewOf(plan))).toContain('  ~ ClusterIssuer atmosphere: spec.acme.solvers');
  });
});
