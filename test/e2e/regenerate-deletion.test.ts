/**
 * What `regenerate` may delete, against the Kubernetes API test server with the real kubectl: only TLS
 * secrets a Certificate in the same namespace issues again, from the ClusterIssuer being replaced.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { renderPlatform } from '../../src/core/render/objects.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../servers/kube-api.js';

const secret = (ns: string, name: string, type: string, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type,
  metadata: { name, namespace: ns, ...(annotations ? { annotations } : {}) },
  data:
    type === 'kubernetes.io/tls'
      ? { 'tls.crt': Buffer.from('cert').toString('base64'), 'tls.key': Buffer.from('key').toString('base64') }
      : { password: Buffer.from('hunter2-db').toString('base64') },
});
const issuedBy = (issuer: string, kind = 'ClusterIssuer') => ({
  'cert-manager.io/issuer-name': issuer,
  'cert-manager.io/issuer-kind': kind,
});
const certificate = (
  ns: string,
  name: string,
  secretName: string,
  issuer = 'atmosphere',
  kind = 'ClusterIssuer',
): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name, namespace: ns },
  spec: { secretName, issuerRef: { name: issuer, kind } },
});
/** The new issuer as the deployment made it (named as the inventory names it). */
const deployed = (name?: string) =>
  renderPlatform({ cluster_issuer_type: 'self-signed', ...(name ? { cluster_issuer_name: name } : {}) }).objects.at(-1)!
    .object;

function base(...objects: KubeObject[]): KubeState {
  return deployedAs(undefined, ...objects);
}

function deployedAs(issuerName: string | undefined, ...objects: KubeObject[]): KubeState {
  return new KubeState().add(
    ...certManagerCrds(),
    namespace('openstack'),
    namespace('auth-system'),
    namespace('monitoring'),
    deployed(issuerName),
    ...objects,
  );
}

function workspace(inventoryText = 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n') {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-regen-del-'));
  const inventory = join(dir, 'certificates.yml');
  writeFileSync(inventory, inventoryText);
  const answers = join(dir, 'issuer.yml');
  writeFileSync(answers, 'cluster_issuer_type: self-signed\n');
  return { inventory, answers };
}

let api: KubeApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});
const deleted = (state: KubeState) => state.deleted.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).sort();
const run = (inventory: string, answers: string, ...flags: string[]) =>
  runCli(['regenerate', '--inventory', inventory, '--answers', answers, ...flags], { env: api!.env });

describe('regenerate deletes only what cert-manager issues again', () => {
  it('keeps an Opaque secret with the issuer annotations, an orphan TLS secret, and secrets of another issuer', async () => {
    api = await startKubeApi(
      base(
        secret('openstack', 'db-password', 'Opaque', issuedBy('atmosphere')),
        secret('openstack', 'orphan-tls', 'kubernetes.io/tls', issuedBy('atmosphere')),
        secret('openstack', 'keystone-api-certs', 'kubernetes.io/tls', issuedBy('atmosphere')),
        certificate('openstack', 'keystone-api', 'keystone-api-certs'),
        // no annotation: the Certificate's issuerRef tells
        secret('monitoring', 'grafana-tls', 'kubernetes.io/tls'),
        certificate('monitoring', 'grafana', 'grafana-tls'),
        secret('openstack', 'other-certs', 'kubernetes.io/tls'),
        certificate('openstack', 'other', 'other-certs', 'corp-ca'),
        // the Certificate is in another namespace: nothing re-issues this one
        secret('auth-system', 'keycloak-tls', 'kubernetes.io/tls', issuedBy('atmosphere')),
        certificate('openstack', 'keycloak', 'keycloak-tls'),
        secret('openstack', 'plain', 'Opaque'),
      ),
    );
    const { inventory, answers } = workspace();
    const dry = await run(inventory, answers, '--dry-run');
    expect(dry.stdout.trim().split('\n').sort()).toEqual([
      'kubectl --context=emulated delete secret --namespace=monitoring --ignore-not-found --wait=false --output=name -- grafana-tls',
      'kubectl --context=emulated delete secret --namespace=openstack --ignore-not-found --wait=false --output=name -- keystone-api-certs',
    ]);
    expect(dry.stderr).toMatch(/kept openstack\/db-password: not a TLS secret \(type Opaque\)/);
    expect(dry.stderr).toMatch(/kept openstack\/orphan-tls: no Certificate in openstack names it/);
    expect(dry.stderr).toMatch(/kept auth-system\/keycloak-tls: no Certificate in auth-system names it/);
    expect(dry.stderr).toMatch(
      /kept openstack\/other-certs: issued by ClusterIssuer "corp-ca", not by ClusterIssuer "atmosphere"/,
    );
    expect(dry.stderr).toMatch(/kept 1 other secret\(s\)/);
    expect(dry.stderr).not.toContain('openstack/plain');
    const real = await run(inventory, answers, '--yes');
    expect(real.code, real.stderr).toBe(0);
    expect(deleted(api.state)).toEqual(['monitoring/grafana-tls', 'openstack/keystone-api-certs']);
  });

  it('replaces the ClusterIssuer the inventory names, not the fixed "atmosphere"', async () => {
    api = await startKubeApi(
      deployedAs(
        'corp-issuer',
        secret('openstack', 'nova-api-certs', 'kubernetes.io/tls', issuedBy('corp-issuer')),
        certificate('openstack', 'nova-api', 'nova-api-certs', 'corp-issuer'),
        secret('openstack', 'glance-api-certs', 'kubernetes.io/tls', issuedBy('atmosphere')),
        certificate('openstack', 'glance-api', 'glance-api-certs'),
      ),
    );
    const { inventory, answers } = workspace(
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\natmosphere_ingress_cluster_issuer: corp-issuer\n',
    );
    const dry = await run(inventory, answers, '--dry-run');
    expect(dry.stdout.trim()).toBe(
      'kubectl --context=emulated delete secret --namespace=openstack --ignore-not-found --wait=false --output=name -- nova-api-certs',
    );
    expect(dry.stderr).toMatch(
      /kept openstack\/glance-api-certs: issued by ClusterIssuer "atmosphere", not by ClusterIssuer "corp-issuer"/,
    );
  });

  it('deletes nothing automatically when the issuer name is a template, and says so', async () => {
    api = await startKubeApi(
      base(
        secret('openstack', 'nova-api-certs', 'kubernetes.io/tls', issuedBy('atmosphere')),
        certificate('openstack', 'nova-api', 'nova-api-certs'),
      ),
    );
    const { inventory, answers } = workspace(
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_name: "{{ site }}-issuer"\n',
    );
    const dry = await run(inventory, answers, '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.stdout).toBe('');
    expect(dry.stderr).toMatch(/cannot tell which secrets the replaced issuer issued/);
    expect(dry.stderr).toMatch(/kept openstack\/nova-api-certs: .*template/);
    const real = await run(inventory, answers, '--yes');
    expect(real.code).toBe(1);
    expect(api.state.deleted).toEqual([]);
  });

  it('escapes a newline in an annotation: it cannot forge a line of the review', async () => {
    const forged =
      'x"\nCertificate secrets issued by ClusterIssuer "atmosphere" (1), to delete:\n  openstack/db-password\u202e';
    api = await startKubeApi(
      base(
        secret('openstack', 'evil-tls', 'kubernetes.io/tls', issuedBy(forged)),
        certificate('openstack', 'evil', 'evil-tls', 'x'),
      ),
    );
    const { inventory, answers } = workspace();
    const dry = await run(inventory, answers, '--dry-run');
    const lines = dry.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('Certificate secrets issued by'))).toEqual([]);
    expect(lines.some((l) => l.startsWith('  openstack/db-password'))).toBe(false);
    expect(dry.stderr).toContain('kept openstack/evil-tls: issued by ClusterIssuer "x"\\nCertificate secrets');
    expect(dry.stderr).not.toContain('\u202e');
  });
});
