import { describe, expect, it } from 'vitest';
import { provideChecks as discoveryChecks } from '../../../../../src/core/areas/discovery/checks.js';
import { atLeast, parseVersion } from '../../../../../src/core/areas/kube/keyless.js';
import { provideChecks } from '../../../../../src/core/areas/kube/checks.js';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';
import { createSigningKey } from '../../../../servers/jwt.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  serviceAccount,
  tokenCreatorRbac,
  type KubeObject,
} from '../../../../servers/kube-api.js';
import { startOidcIssuer } from '../../../../servers/oidc-issuer.js';
import { run } from '../../../../helpers/doctor-run.js';
import { keylessInventory, kubeDoctorInput, useKubeCluster } from '../../../../helpers/kube-cluster.js';

const kube = useKubeCluster();
const doctorInput = kubeDoctorInput;
const kubernetes = keylessInventory;
const cluster = (...objects: KubeObject[]) => kube.start(new KubeState().add(namespace('cert-manager'), ...objects));

const healthy = () => [
  ...certManagerCrds('v1.15.5'),
  serviceAccount('cert-manager', 'dns-sa'),
  serviceAccount('cert-manager', 'cert-manager'),
  ...tokenCreatorRbac('cert-manager', 'dns-sa'),
];

describe.skipIf(!hasKubectl)(`kube checks for kubernetes${needsKubectl}`, () => {
  it('passes a cluster prepared as the first prerequisite says (cert-manager new enough), with the service account named in the inventory', async () => {
    await cluster(...healthy());
    const r = await run(provideChecks, doctorInput({}, { inventory: kubernetes() }));
    expect(r['kube.crd-version']).toMatchObject({ status: 'ok', message: expect.stringContaining('1.15.5') });
    expect(r['kube.service-account']).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('cert-manager/dns-sa'),
    });
    expect(r['kube.token-permission']).toMatchObject({ status: 'ok' });
    // The permission is asked about the named service account, as cert-manager's controller.
    expect(
      kube.api!.state.requests.some((q) => q.impersonate === 'system:serviceaccount:cert-manager:cert-manager'),
    ).toBe(true);
  });

  it('fails CRDs older than 1.15.0, a missing service account and a missing token permission', async () => {
    await cluster(...certManagerCrds('v1.14.7'), serviceAccount('cert-manager', 'cert-manager'));
    const r = await run(provideChecks, doctorInput({}, { inventory: kubernetes() }));
    expect(r['kube.crd-version']).toMatchObject({ status: 'fail', message: expect.stringContaining('1.14.7') });
    expect(r['kube.service-account']).toMatchObject({
      status: 'fail',
      advice: expect.stringContaining('kubectl create serviceaccount --namespace=cert-manager -- dns-sa'),
    });
    expect(r['kube.token-permission']).toMatchObject({
      status: 'fail',
      advice: expect.stringContaining('serviceaccounts/token'),
    });
  });

  it('fails when cert-manager is not installed at all', async () => {
    await cluster(serviceAccount('cert-manager', 'dns-sa'));
    const r = await run(provideChecks, doctorInput({}, { inventory: kubernetes() }));
    expect(r['kube.crd-version']).toMatchObject({ status: 'fail', message: expect.stringContaining('not installed') });
  });

  it('skips with the reason when the context does not exist, or when kubernetes is not in use', async () => {
    await cluster(...healthy());
    const wrong = await run(provideChecks, doctorInput({ context: 'nope' }, { inventory: kubernetes() }));
    expect(wrong['kube.crd-version']).toMatchObject({
      status: 'skip',
      message: expect.stringContaining('no context "nope"'),
      reason: { code: 'no-cluster' },
    });
    const unused = await run(provideChecks, doctorInput({}));
    for (const id of ['kube.crd-version', 'kube.service-account', 'kube.token-permission']) {
      expect(unused[id]).toMatchObject({
        status: 'skip',
        message: expect.stringContaining('kubernetes'),
        reason: { code: 'not-applicable' },
      });
    }
  });

  it('skips with the reason when kubectl is missing', async () => {
    process.env.CLOUDGATE_KUBECTL = '/nonexistent/kubectl';
    try {
      const r = await run(provideChecks, doctorInput({}, { inventory: kubernetes() }));
      expect(r['kube.service-account']).toMatchObject({
        status: 'skip',
        message: expect.stringContaining('kubectl was not found'),
      });
    } finally {
      delete process.env.CLOUDGATE_KUBECTL;
    }
  });
});

describe.skipIf(!hasKubectl)(`discovery.token through kubectl create token${needsKubectl}`, () => {
  it('requests a token for the service account and verifies it against the published key set', async () => {
    const key = createSigningKey('RS256');
    const issuer = await startOidcIssuer({ keys: [key] });
    try {
      const state = new KubeState().add(namespace('cert-manager'), serviceAccount('cert-manager', 'dns-sa'));
      state.signingKey = key;
      state.issuer = issuer.url;
      state.apiAudiences = ['https://kubernetes.default.svc.cluster.local', issuer.url, 'sts.amazonaws.com'];
      await kube.start(state);
      const r = await run(
        discoveryChecks,
        doctorInput({ 'issuer-url': issuer.url }, { inventory: kubernetes(), caFile: issuer.caFile }),
      );
      expect(r['discovery.token']).toMatchObject({
        status: 'ok',
        message: expect.stringContaining('kubectl create token dns-sa -n cert-manager'),
      });

      // Same cluster before --api-audiences and --service-account-issuer were changed.
      state.apiAudiences = [];
      state.issuer = 'https://kubernetes.default.svc.cluster.local';
      const before = await run(
        discoveryChecks,
        doctorInput({ 'issuer-url': issuer.url }, { inventory: kubernetes(), caFile: issuer.caFile }),
      );
      expect(before['discovery.token'].status).toBe('fail');
      expect(before['discovery.token'].message).toContain('iss "https://kubernetes.default.svc.cluster.local"');
    } finally {
      await issuer.stop();
    }
  });
});

describe('versions', () => {
  it('reads chart and app versions and compares them', () => {
    expect(parseVersion('v1.15.5')).toEqual([1, 15, 5]);
    expect(parseVersion('cert-manager-v1.9.12')).toEqual([1, 9, 12]);
    expect(parseVersion('main')).toBeUndefined();
    expect(atLeast([1, 15, 0], '1.15.0')).toBe(true);
    expect(atLeast([1, 9, 99], '1.15.0')).toBe(false);
    expect(atLeast([2, 0, 0], '1.15.0')).toBe(true);
  });
});
