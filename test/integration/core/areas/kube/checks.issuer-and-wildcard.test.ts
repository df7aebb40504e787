import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorInput } from '../../../../../src/core/doctor/input.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import { provideChecks } from '../../../../../src/core/areas/kube/checks.js';
import { redact } from '../../../../../src/core/secrets.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../../../../servers/kube-api.js';
import { createPki, type Pki } from '../../../../servers/tls-endpoints.js';
import { flagFields } from '../../../../helpers/doctor-options.js';

let pki: Pki;
let api: KubeApi | undefined;
beforeAll(() => {
  pki = createPki();
});
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

const ready = (status: string, reason: string, message = '') => ({
  status: { conditions: [{ type: 'Ready', status, reason, message }] },
});
const issuer = (spec: Record<string, unknown>, condition: ReturnType<typeof ready>): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'ClusterIssuer',
  metadata: { name: 'atmosphere' },
  spec,
  ...condition,
});
const certificate = (name: string, condition?: ReturnType<typeof ready>): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name, namespace: 'openstack' },
  spec: { secretName: `${name}-certs`, issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer' } },
  ...(condition ?? {}),
});
const tlsSecret = (name: string, cert: string, key: string, type = 'kubernetes.io/tls'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type,
  metadata: { name, namespace: 'openstack' },
  data: { 'tls.crt': Buffer.from(cert).toString('base64'), 'tls.key': Buffer.from(key).toString('base64') },
});

async function doctor(
  state: KubeState,
  inventory: string,
  env?: NodeJS.ProcessEnv | ((api: KubeApi) => NodeJS.ProcessEnv),
) {
  api = await startKubeApi(state);
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-kubecert-'));
  const inventoryPath = join(dir, 'certificates.yml');
  writeFileSync(inventoryPath, inventory);
  const input: DoctorInput = {
    ...flagFields(),
    env: typeof env === 'function' ? env(api) : (env ?? { ...process.env, ...api.env }),
    cwd: dir,
    config: {},
    inventoryPath,
    inventoryExplicit: true,
    network: { timeoutMs: 10_000, insecure: false, allowHttp: false, verbose: false, log: () => undefined },
  };
  const report = await runChecks(await provideChecks(input), { timeoutMs: 20_000 });
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
}

const base = () => new KubeState().add(...certManagerCrds(), namespace('openstack'));

describe('kube.issuer and kube.certificates', () => {
  it('reports a Ready issuer and Ready certificates', async () => {
    const state = base().add(
      issuer(
        { acme: { server: 'https://acme.example/dir' } },
        ready('True', 'ACMEAccountRegistered', 'The ACME account was registered with the ACME server'),
      ),
      certificate('keystone-api', ready('True', 'Ready', 'Certificate is up to date and has not expired')),
      certificate('nova-api', ready('True', 'Ready')),
      ...['keystone-api', 'nova-api'].map((name) => {
        const leaf = pki.leaf([`${name}.example.test`]);
        return tlsSecret(`${name}-certs`, leaf.cert, leaf.key);
      }),
    );
    const r = await doctor(state, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n');
    expect(r['kube.issuer']).toMatchObject({ status: 'ok' });
    expect(r['kube.issuer']!.message).toContain('ACMEAccountRegistered');
    expect(r['kube.certificates']).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(
        /^All 2 Certificates in openstack, auth-system, monitoring, cert-manager are Ready/,
      ),
    });
    expect(r['kube.wildcard-secret']!.status).toBe('skip');
  });

  it("fails a not-Ready issuer with cert-manager's reason and message, and names the certificates that are not Ready", async () => {
    const state = base().add(
      issuer(
        { acme: {} },
        ready(
          'False',
          'ErrRegisterACMEAccount',
          'Failed to register ACME account: 400 urn:ietf:params:acme:error:invalidContact',
        ),
      ),
      certificate('keystone-api', ready('True', 'Ready')),
      certificate(
        'nova-api',
        ready(
          'False',
          'IncorrectIssuer',
          'Issuing certificate as Secret was previously issued by ClusterIssuer.cert-manager.io/old',
        ),
      ),
      certificate('glance-api'),
    );
    const r = await doctor(state, 'cluster_issuer_type: acme\n');
    expect(r['kube.issuer']).toMatchObject({ status: 'fail' });
    expect(r['kube.issuer']!.message).toMatch(/ErrRegisterACMEAccount: Failed to register ACME account/);
    expect(r['kube.issuer']!.advice).toMatch(/cluster_issuer_acme_email/);
    expect(r['kube.certificates']).toMatchObject({ status: 'fail' });
    // The issuer is the one root cause of the two Certificates waiting on it: said once, naming both.
    expect(r['kube.certificates']!.message).toMatch(
      /3 of 3 .*openstack\/keystone-api: it says Ready but its secret openstack\/keystone-api-certs does not exist; openstack\/nova-api, openstack\/glance-api: its issuer ClusterIssuer atmosphere is not Ready \(kube.issuer says why\)/,
    );
  });

  it('warns when the live issuer is of another type than the inventory, and fails when it is missing', async () => {
    const r1 = await doctor(
      base().add(issuer({ selfSigned: {} }, ready('True', 'IsReady'))),
      'cluster_issuer_type: ca\n',
    );
    expect(r1['kube.issuer']).toMatchObject({ status: 'warn' });
    expect(r1['kube.issuer']!.message).toMatch(/of type selfSigned, while the inventory says ca/);
    await api?.stop();
    const r2 = await doctor(base(), 'cluster_issuer_type: ca\n');
    expect(r2['kube.issuer']).toMatchObject({ status: 'fail' });
    expect(r2['kube.issuer']!.message).toMatch(/does not exist/);
  });

  it('fails with a plain message, not a crash, when kubectl prints something that is not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-kubectl-'));
    const wrapper = join(dir, 'kubectl');
    // A real kubectl for everything but the issuer, whose answer is replaced as a broken proxy would.
    writeFileSync(
      wrapper,
      '#!/bin/sh\ncase "$*" in *clusterissuer*) echo "<html>502 Bad Gateway</html>"; exit 0;; esac\nexec kubectl "$@"\n',
      { mode: 0o755 },
    );
    const state = base().add(issuer({ acme: {} }, ready('True', 'ACMEAccountRegistered')));
    const r = await doctor(
      state,
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
      (running) => ({
        ...process.env,
        ...running.env,
        CLOUDGATE_KUBECTL: wrapper,
      }),
    );
    expect(r['kube.issuer']).toMatchObject({ status: 'fail' });
    expect(r['kube.issuer']!.message).toContain('not JSON: <html>502 Bad Gateway</html>');
  });

  it('skips every check with the reason when there is no cluster to ask', async () => {
    const r = await doctor(base(), 'cluster_issuer_type: acme\n', {
      ...process.env,
      KUBECONFIG: '/nonexistent/kubeconfig',
    });
    expect(r['kube.issuer']).toMatchObject({ status: 'skip' });
    expect(r['kube.issuer']!.message).toMatch(/No cluster to ask/);
    expect(r['kube.certificates']!.reason).toMatchObject({ code: 'no-cluster' });
  });
});

describe('kube.wildcard-secret', () => {
  const inventory =
    'cluster_issuer_type: none\nopenstack_helm_ingress_secret_name: wildcard-certs\nopenstack_helm_ingress_wildcard_domain: example.test\n';

  it('passes a TLS secret whose certificate passes the certificate checks, never printing the key', async () => {
    const leaf = pki.leaf(['*.example.test']);
    const r = await doctor(
      base().add(tlsSecret('wildcard-certs', leaf.cert + pki.intermediate.cert, leaf.key)),
      inventory,
    );
    expect(r['kube.wildcard-secret']).toMatchObject({ status: 'ok' });
    expect(r['kube.issuer']!.status).toBe('skip');
    const keyLine = leaf.key.split('\n')[1]!;
    expect(redact(keyLine)).not.toContain(keyLine);
    expect(JSON.stringify(r)).not.toContain(keyLine);
  });

  it('fails a missing secret, a secret of the wrong type, and a key that does not match', async () => {
    const leaf = pki.leaf(['*.example.test']);
    const other = pki.leaf(['*.example.test']);
    const missing = await doctor(base(), inventory);
    expect(missing['kube.wildcard-secret']).toMatchObject({ status: 'fail' });
    expect(missing['kube.wildcard-secret']!.message).toMatch(/openstack\/wildcard-certs: it does not exist/);
    await api?.stop();
    const opaque = await doctor(base().add(tlsSecret('wildcard-certs', leaf.cert, leaf.key, 'Opaque')), inventory);
    expect(opaque['kube.wildcard-secret']!.message).toMatch(/type Opaque, not kubernetes.io\/tls/);
    await api?.stop();
    const mismatch = await doctor(
      base().add(tlsSecret('wildcard-certs', leaf.cert + pki.intermediate.cert, other.key)),
      inventory,
    );
    expect(mismatch['kube.wildcard-secret']).toMatchObject({ status: 'fail' });
    expect(mismatch['kube.wildcard-secret']!.message).toMatch(/tls.key/);
  });
});
