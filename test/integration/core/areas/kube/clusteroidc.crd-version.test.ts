import { afterEach, describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/kube/clusteroidc.js';
import { forgetKubeAvailability } from '../../../../../src/core/kube/kubectl.js';
import { certManagerCrds, KubeState, namespace, serviceAccount, startKubeApi, tokenCreatorRbac, type KubeApi, type KubeObject } from '../../../../servers/kube-api.js';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';
import { doctorInput as baseInput, run, writeTemp } from '../../../../helpers/doctor-run.js';

/** As the doctor runs them: with the run's environment (KUBECONFIG of the test cluster). */
const doctorInput = (flags: Parameters<typeof baseInput>[0], options: Parameters<typeof baseInput>[1] = {}) =>
  baseInput(flags, { env: { ...process.env }, ...options });

const clusteroidc = () =>
  writeTemp('certificates.yml', 'cluster_issuer_acme_solver: clouddnsb\ncluster_issuer_acme_clouddnsb_auth: clusteroidc\ncluster_issuer_acme_clouddnsb_service_account_name: dns-sa\n');

/** The CRDs with the ClusterIssuer spec reduced to an open object, as some distributions ship it. */
function openSchemaCrds(version: string | undefined): KubeObject[] {
  return certManagerCrds(version ?? 'v0.0.0').map((crd) => {
    if (version === undefined) delete crd.metadata.labels!['app.kubernetes.io/version'];
    if (crd.metadata.name !== 'clusterissuers.cert-manager.io') return crd;
    const spec = crd.spec as { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[] };
    for (const v of spec.versions) v.schema.openAPIV3Schema.properties.spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    return crd;
  });
}

let api: KubeApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
  delete process.env.KUBECONFIG;
  forgetKubeAvailability();
});

async function crdVersionWith(crds: KubeObject[]) {
  api = await startKubeApi(new KubeState().add(namespace('cert-manager'), ...crds, serviceAccount('cert-manager', 'dns-sa'), ...tokenCreatorRbac('cert-manager', 'dns-sa')));
  Object.assign(process.env, api.env);
  return (await run(provideChecks, doctorInput({}, { inventory: clusteroidc() })))['kube.crd-version']!;
}

describe.skipIf(!hasKubectl)(`kube.crd-version judges by the version label first${needsKubectl}`, () => {
  it('is ok for a 1.15+ label on a schema that keeps unknown fields instead of naming serviceAccountRef', async () => {
    const result = await crdVersionWith(openSchemaCrds('v1.16.2'));
    expect(result.status).toBe('ok');
    expect(result.details).toMatchObject({ versionLabel: 'v1.16.2', serviceAccountRefInSchema: false, schemaKeepsUnknownFields: true });
  });

  it('still fails an old label whatever the schema', async () => {
    expect((await crdVersionWith(openSchemaCrds('v1.14.1'))).status).toBe('fail');
  });

  it('without a label, an open schema cannot tell the version: warn, not fail', async () => {
    const result = await crdVersionWith(openSchemaCrds(undefined));
    expect(result.status).toBe('warn');
  });
});
