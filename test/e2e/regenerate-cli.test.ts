import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { underCI } from '../helpers/tools.js';
import { renderPlatform } from '../../src/core/render/objects.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../servers/kube-api.js';

const tlsSecret = (ns: string, name: string, issuer?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/tls',
  metadata: {
    name,
    namespace: ns,
    ...(issuer
      ? {
          annotations: {
            'cert-manager.io/issuer-name': issuer,
            'cert-manager.io/issuer-kind': 'ClusterIssuer',
            'cert-manager.io/certificate-name': name.replace(/-(certs|tls)$/, ''),
          },
        }
      : {}),
  },
  data: { 'tls.crt': Buffer.from('cert').toString('base64'), 'tls.key': Buffer.from('key').toString('base64') },
});

/** The Certificate that names `secretName`: what issues the secret again once it is deleted. */
const certificate = (ns: string, secretName: string, issuer = 'atmosphere', kind = 'ClusterIssuer'): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name: secretName.replace(/-(certs|tls)$/, ''), namespace: ns },
  spec: { secretName, issuerRef: { name: issuer, kind } },
});

const clusterIssuer = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'ClusterIssuer',
  metadata: { name: 'atmosphere' },
  spec,
});

const ACME = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };
/** The spec of the ClusterIssuer a deployment of these values leaves in the cluster. */
const deployedSpec = (values: Record<string, unknown>) =>
  renderPlatform(values).objects.at(-1)!.object.spec as Record<string, unknown>;

const STALE = [
  'openstack/keystone-api-certs',
  'openstack/nova-api-certs',
  'auth-system/keycloak.example.com-tls',
  'monitoring/grafana-tls',
];

function cluster(liveIssuer: Record<string, unknown>): KubeState {
  return new KubeState().add(
    ...certManagerCrds(),
    namespace('openstack'),
    namespace('auth-system'),
    namespace('monitoring'),
    clusterIssuer(liveIssuer),
    tlsSecret('openstack', 'keystone-api-certs', 'atmosphere'),
    tlsSecret('openstack', 'nova-api-certs', 'atmosphere'),
    tlsSecret('auth-system', 'keycloak.example.com-tls', 'atmosphere'),
    tlsSecret('monitoring', 'grafana-tls', 'atmosphere'),
    ...STALE.map((s) => certificate(s.split('/')[0]!, s.split('/')[1]!)),
    tlsSecret('openstack', 'internal-ca', 'self-signed'),
    certificate('openstack', 'internal-ca', 'self-signed'),
    tlsSecret('openstack', 'hand-made-tls'),
    tlsSecret('other', 'unrelated-certs', 'atmosphere'),
  );
}

let api: KubeApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-regen-'));
  const inventory = join(dir, 'certificates.yml');
  writeFileSync(inventory, '# ours\ncluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n');
  const answers = join(dir, 'issuer.yml');
  writeFileSync(answers, 'cluster_issuer_type: self-signed\n');
  return { dir, inventory, answers };
}

const remaining = (state: KubeState) => state.list('Secret').map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
const deleted = (state: KubeState) => state.deleted.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).sort();

describe('cloudgate regenerate', () => {
  it('--dry-run prints the exact kubectl commands and changes nothing', async () => {
    api = await startKubeApi(cluster(deployedSpec({ cluster_issuer_type: 'self-signed' })));
    const { inventory, answers } = workspace();
    const before = readFileSync(inventory, 'utf8');
    const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--dry-run'], {
      env: api.env,
    });
    expect(r.stderr).toContain('Issuer: self-signed (was acme)');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual([
      // One call per namespace, saying each secret it deletes.
      'kubectl --context=emulated delete secret --namespace=auth-system --ignore-not-found --wait=false --output=name -- keycloak.example.com-tls',
      'kubectl --context=emulated delete secret --namespace=monitoring --ignore-not-found --wait=false --output=name -- grafana-tls',
      'kubectl --context=emulated delete secret --namespace=openstack --ignore-not-found --wait=false --output=name -- keystone-api-certs nova-api-certs',
    ]);
    expect(r.stderr).toMatch(/kept openstack\/internal-ca: issued by ClusterIssuer "self-signed"/);
    // the review shows what changes in the cluster, and the objects' diff on --dry-run (never on stdout)
    expect(r.stderr).toContain('+ Certificate cert-manager/self-signed-ca (new)');
    expect(r.stderr).toContain('~ ClusterIssuer atmosphere: spec.acme, spec.ca');
    expect(r.stderr).toContain('+++ ClusterIssuer atmosphere (after)');
    expect(r.stdout).not.toContain('ClusterIssuer');
    expect(readFileSync(inventory, 'utf8')).toBe(before);
    expect(api.state.deleted).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain('a2V5'); // the secrets' data is never printed
  });

  it('--yes writes the inventory as setup does and deletes exactly the secrets of the previous issuer', async () => {
    api = await startKubeApi(cluster(deployedSpec({ cluster_issuer_type: 'self-signed' })));
    const { inventory, answers } = workspace();
    const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], { env: api.env });
    expect(r.stderr).toContain('Deleted 4');
    expect(r.code).toBe(0);
    // The review shows the inventory diff, then the objects' diff, in the real run too.
    expect(r.stderr.indexOf('+++ ClusterIssuer atmosphere (after)')).toBeGreaterThan(
      r.stderr.indexOf('+cluster_issuer_type: self-signed'),
    );
    expect(r.stderr.indexOf('+cluster_issuer_type: self-signed')).toBeGreaterThan(-1);
    const text = readFileSync(inventory, 'utf8');
    expect(text).toContain('# ours');
    expect(text).toMatch(/cluster_issuer_type: self-signed/);
    expect(text).not.toContain('cluster_issuer_acme_email');
    expect(deleted(api.state)).toEqual([...STALE].sort());
    expect(remaining(api.state).sort()).toEqual([
      'openstack/hand-made-tls',
      'openstack/internal-ca',
      'other/unrelated-certs',
    ]);
  });

  it('reports which secrets were and were not deleted when it fails half-way', async () => {
    const state = cluster(deployedSpec({ cluster_issuer_type: 'self-signed' }));
    state.forbid = ({ method, path }) => method === 'DELETE' && path.endsWith('/secrets/keystone-api-certs');
    api = await startKubeApi(state);
    const { inventory, answers } = workspace();
    const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], { env: api.env });
    expect(r.code).toBe(1);
    // The namespace's one call goes on past the refused secret: only that one is left.
    expect(r.stderr).toMatch(
      /Deleted 3: auth-system\/keycloak.example.com-tls, monitoring\/grafana-tls, openstack\/nova-api-certs/,
    );
    expect(r.stderr).toMatch(/Failed to delete in openstack: .*forbidden/);
    expect(r.stderr).toMatch(/Not deleted \(1\): openstack\/keystone-api-certs/);
    expect(r.stderr).toContain(
      'kubectl --context=emulated delete secret --namespace=openstack --ignore-not-found --wait=false --output=name -- keystone-api-certs',
    );
    expect(deleted(api.state)).toEqual([
      'auth-system/keycloak.example.com-tls',
      'monitoring/grafana-tls',
      'openstack/nova-api-certs',
    ]);
    expect(remaining(api.state)).toContain('openstack/keystone-api-certs');
  });

  it('deletes nothing while the live ClusterIssuer is still the old type, and says to deploy first', async () => {
    api = await startKubeApi(cluster(deployedSpec(ACME)));
    const { inventory, answers } = workspace();
    const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], { env: api.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the cluster runs acme\/http01, the inventory says self-signed/);
    expect(r.stderr).toMatch(/Deploy the inventory.*then run "cloudgate regenerate" again/);
    expect(api.state.deleted).toEqual([]);
    expect(readFileSync(inventory, 'utf8')).toMatch(/cluster_issuer_type: self-signed/);
  });

  it('names no ClusterIssuer that the cluster lacks as the one being replaced, and says so', async () => {
    // Secrets and Certificates an earlier deployment left, whose ClusterIssuer is gone.
    const state = new KubeState().add(
      ...certManagerCrds(),
      namespace('openstack'),
      namespace('auth-system'),
      namespace('monitoring'),
      tlsSecret('openstack', 'keystone-api-certs', 'atmosphere'),
      certificate('openstack', 'keystone-api-certs'),
    );
    api = await startKubeApi(state);
    const { inventory, answers } = workspace();
    for (const flag of ['--dry-run', '--yes']) {
      const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, flag], { env: api.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('No ClusterIssuer "atmosphere" exists in the cluster: no issuer is being replaced.');
      expect(r.stderr).not.toMatch(/issued by ClusterIssuer "atmosphere"/);
      // The issuer the deployment must create is the platform's, not the self-signed one every platform also has.
      expect(r.stderr).toContain('The ClusterIssuer "atmosphere" does not exist in the cluster yet');
      expect(r.stderr).not.toContain('ClusterIssuer "self-signed" does not exist');
      expect(r.stdout).not.toContain('kubectl');
    }
    expect(api.state.deleted).toEqual([]);
  });

  it('never deletes the supplied wildcard secret, even when it carries the annotations', async () => {
    api = await startKubeApi(cluster(deployedSpec(ACME)).add(tlsSecret('openstack', 'my-wildcard', 'atmosphere')));
    const { dir, inventory } = workspace();
    writeFileSync(inventory, 'cluster_issuer_type: none\nopenstack_helm_ingress_secret_name: my-wildcard\n');
    const answers = join(dir, 'acme.yml');
    writeFileSync(
      answers,
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\nopenstack_helm_ingress_secret_name: null\n',
    );
    const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], { env: api.env });
    expect(r.stderr).toMatch(/kept openstack\/my-wildcard: the supplied wildcard certificate/);
    expect(r.code).toBe(0);
    expect(deleted(api.state)).toEqual([...STALE].sort());
    expect(remaining(api.state)).toContain('openstack/my-wildcard');
  });

  it('a write that fails exits 1 (the input was fine) and deletes nothing', async (t) => {
    const { dir, inventory, answers } = workspace();
    // An immutable folder refuses even root. Where chattr cannot set it there is nothing to test, except
    // under CI, where the suite must prove it (chattr is e2fsprogs', which every Debian has).
    const immutable = spawnSync('chattr', ['+i', dir], { encoding: 'utf8' });
    if (immutable.status !== 0) {
      if (underCI()) throw new Error(`chattr +i ${dir} failed under CI: ${immutable.stderr || immutable.error}`);
      return t.skip();
    }
    try {
      api = await startKubeApi(cluster(deployedSpec({ cluster_issuer_type: 'self-signed' })));
      const r = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], { env: api.env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/nothing was written/i);
      expect(r.stderr).not.toContain('unexpected error');
      expect(api.state.deleted).toEqual([]);
    } finally {
      spawnSync('chattr', ['-i', dir]);
    }
  });

  it('exits 2 without --answers or without --yes when it cannot ask, naming the flag', async () => {
    const { inventory, answers } = workspace();
    const noAnswers = await runCli(['regenerate', '--inventory', inventory]);
    expect(noAnswers.code).toBe(2);
    expect(noAnswers.stderr).toContain('--answers');
    const noYes = await runCli(['regenerate', '--inventory', inventory, '--answers', answers]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
  });
});

describe('cloudgate regenerate in a real terminal (tmux)', () => {
  let term: Terminal | undefined;
  afterEach(() => term?.kill());

  it('re-asks the issuer, shows the secrets, and deletes them once confirmed', async () => {
    api = await startKubeApi(cluster(deployedSpec({ cluster_issuer_type: 'self-signed' })));
    const { dir, inventory } = workspace();
    term = launchCloudgate(['regenerate', '--inventory', inventory], {
      cwd: dir,
      size: { x: 100, y: 40 },
      env: api.env,
    });
    const first = await term.waitFor('Certificate issuer');
    expect(first).toContain('cloudgate regenerate');
    expect(first).not.toContain('cloudgate setup');
    term.send('Down', 'Down', 'Down');
    await term.waitFor('> self-signed');
    term.send('Enter');
    // The walkthrough's review screen and keys: Enter does it (no [y/N] where Enter means No).
    const review = await term.waitFor('Enter write the inventory and delete 4 secret(s)');
    expect(review).toContain('+cluster_issuer_type: self-signed');
    expect(review).not.toContain('[y/N]');
    expect(api.state.deleted).toEqual([]);
    term.send('Enter');
    await term.waitFor('EXIT=0');
    expect(deleted(api.state)).toEqual([...STALE].sort());
    expect(readFileSync(inventory, 'utf8')).toMatch(/cluster_issuer_type: self-signed/);
  });

  it('Esc on the review cancels: nothing written or deleted, exit 130', async () => {
    api = await startKubeApi(cluster(deployedSpec({ cluster_issuer_type: 'self-signed' })));
    const { dir, inventory } = workspace();
    const before = readFileSync(inventory, 'utf8');
    term = launchCloudgate(['regenerate', '--inventory', inventory], {
      cwd: dir,
      size: { x: 100, y: 40 },
      env: api.env,
    });
    await term.waitFor('Certificate issuer');
    await term.press('Down', 'Down', 'Down');
    await term.waitFor('> self-signed');
    term.send('Enter');
    await term.waitFor('Esc cancel (nothing written or deleted)');
    term.send('Escape');
    expect(await term.waitFor('EXIT=130')).toContain('Cancelled. Nothing was written or deleted.');
    expect(readFileSync(inventory, 'utf8')).toBe(before);
    expect(api.state.deleted).toEqual([]);
  });

  it('asks no question when there is nothing to write and nothing to delete', async () => {
    const { dir, inventory } = workspace();
    writeFileSync(inventory, 'cluster_issuer_type: self-signed\n');
    term = launchCloudgate(['regenerate', '--inventory', inventory], {
      cwd: dir,
      size: { x: 100, y: 40 },
      env: { KUBECONFIG: join(dir, 'none') },
    });
    await term.waitFor('> self-signed');
    await term.press('Enter');
    const screen = await term.waitFor(/EXIT=\d+/);
    expect(screen).toContain('Nothing to write');
    expect(screen).not.toContain('Continue?');
    expect(screen).not.toContain('Enter write');
    expect(screen).not.toContain('Cancelled');
  });

  it('--plain: Ctrl+C at a question cancels with exit 130, nothing written or deleted', async () => {
    api = await startKubeApi(cluster(deployedSpec({ cluster_issuer_type: 'self-signed' })));
    const { dir, inventory } = workspace();
    const before = readFileSync(inventory, 'utf8');
    term = launchCloudgate(['regenerate', '--plain', '--inventory', inventory], {
      cwd: dir,
      size: { x: 100, y: 40 },
      env: api.env,
    });
    await term.waitFor(/issuer/i);
    term.send('C-c');
    const screen = await term.waitFor('EXIT=130');
    expect(screen).toContain('Cancelled');
    expect(screen).not.toContain('unexpected error');
    expect(readFileSync(inventory, 'utf8')).toBe(before);
    expect(api.state.deleted).toEqual([]);
  });
});

describe('cloudgate regenerate: faithful dry run, idempotent deletion', () => {
  it("--dry-run reaches the real run's verdict: no runnable command while the old issuer is deployed, exit 1", async () => {
    api = await startKubeApi(cluster(deployedSpec(ACME)));
    const { inventory, answers } = workspace();
    const dry = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--dry-run'], {
      env: api.env,
    });
    expect(dry.code).toBe(1);
    expect(dry.stdout).toBe('');
    expect(dry.stderr).toMatch(/the cluster runs acme\/http01/);
    const real = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], {
      env: api.env,
    });
    expect(real.code).toBe(dry.code);
    expect(api.state.deleted).toEqual([]);
  });

  it('keeps the secrets cert-manager created after the issuer changed: a second run deletes nothing', async () => {
    const changed = '2026-06-01T00:00:00Z';
    const at = (secret: KubeObject, time: string) => ({
      ...secret,
      metadata: { ...secret.metadata, creationTimestamp: time },
    });
    const state = new KubeState().add(
      ...certManagerCrds(),
      namespace('openstack'),
      namespace('auth-system'),
      namespace('monitoring'),
      {
        ...clusterIssuer(deployedSpec({ cluster_issuer_type: 'self-signed' })),
        metadata: { name: 'atmosphere', creationTimestamp: changed },
      },
      at(tlsSecret('openstack', 'keystone-api-certs', 'atmosphere'), '2026-07-01T00:00:00Z'),
      at(tlsSecret('openstack', 'nova-api-certs', 'atmosphere'), '2026-01-01T00:00:00Z'),
      certificate('openstack', 'keystone-api-certs'),
      certificate('openstack', 'nova-api-certs'),
    );
    api = await startKubeApi(state);
    const { inventory, answers } = workspace();
    const first = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], {
      env: api.env,
    });
    expect(first.code).toBe(0);
    expect(deleted(api.state)).toEqual(['openstack/nova-api-certs']);
    expect(first.stderr).toMatch(
      /kept openstack\/keystone-api-certs: created at 2026-07-01T00:00:00.000Z, after the issuer changed/,
    );
    const second = await runCli(['regenerate', '--inventory', inventory, '--answers', answers, '--yes'], {
      env: api.env,
    });
    expect(second.code).toBe(0);
    expect(deleted(api.state)).toEqual(['openstack/nova-api-certs']);
  });
});

describe('cloudgate regenerate --wait', () => {
  const certificateFor = (ns: string, name: string, ready: boolean): KubeObject => ({
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace: ns },
    spec: { secretName: `${name}-certs`, issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer' } },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          reason: ready ? 'Ready' : 'Pending',
          message: ready ? 'ok' : 'Waiting for DNS-01 challenge propagation',
        },
      ],
    },
  });
  const twoSecrets = () =>
    new KubeState().add(
      ...certManagerCrds(),
      namespace('openstack'),
      namespace('auth-system'),
      namespace('monitoring'),
      clusterIssuer(deployedSpec({ cluster_issuer_type: 'self-signed' })),
      tlsSecret('openstack', 'keystone-api-certs', 'atmosphere'),
      tlsSecret('openstack', 'nova-api-certs', 'atmosphere'),
    );

  it('follows the Certificates until they are issued again', async () => {
    const state = twoSecrets().add(
      certificateFor('openstack', 'keystone-api', true),
      certificateFor('openstack', 'nova-api', true),
    );
    api = await startKubeApi(state);
    // What cert-manager does after the deletion: the secrets come back.
    const reissue = setInterval(() => {
      for (const name of ['keystone-api-certs', 'nova-api-certs']) {
        if (
          !state.list('Secret').some((s) => s.metadata.name === name) &&
          state.deleted.some((s) => s.metadata.name === name)
        )
          state.add(tlsSecret('openstack', name, 'atmosphere'));
      }
    }, 200);
    const { inventory, answers } = workspace();
    const r = await runCli(
      ['regenerate', '--inventory', inventory, '--answers', answers, '--yes', '--wait', '--wait-timeout', '20'],
      { env: api.env },
    );
    clearInterval(reissue);
    expect(r.stderr).toMatch(/Fake Certificate/);
    expect(r.stderr).toMatch(/Issued again \(2\)/);
    expect(r.code).toBe(0);
  });

  it('says which are still not issued and why when the deadline passes: exit 1', async () => {
    api = await startKubeApi(
      twoSecrets().add(
        certificateFor('openstack', 'keystone-api', false),
        certificateFor('openstack', 'nova-api', false),
      ),
    );
    const { inventory, answers } = workspace();
    const r = await runCli(
      ['regenerate', '--inventory', inventory, '--answers', answers, '--yes', '--wait', '--wait-timeout', '1'],
      { env: api.env },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Not issued yet: openstack\/nova-api-certs: not issued yet \(Pending: Waiting for DNS-01 challenge propagation\)/,
    );
  });

  it('refuses a --wait-timeout out of range', async () => {
    const { inventory, answers } = workspace();
    const r = await runCli([
      'regenerate',
      '--inventory',
      inventory,
      '--answers',
      answers,
      '--yes',
      '--wait',
      '--wait-timeout',
      '0',
    ]);
    expect(r.code).toBe(2);
  });
});
