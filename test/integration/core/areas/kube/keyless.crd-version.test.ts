import { describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/kube/checks.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  serviceAccount,
  tokenCreatorRbac,
  type KubeObject,
} from '../../../../servers/kube-api.js';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';
import { run } from '../../../../helpers/doctor-run.js';
import { keylessInventory, kubeDoctorInput, useKubeCluster } from '../../../../helpers/kube-cluster.js';

/** The CRDs with the ClusterIssuer spec reduced to an open object, as some distributions ship it. */
function openSchemaCrds(version: string | undefined): KubeObject[] {
  return certManagerCrds(version ?? 'v0.0.0').map((crd) => {
    if (version === undefined) delete crd.metadata.labels!['app.kubernetes.io/version'];
    if (crd.metadata.name !== 'clusterissuers.cert-manager.io') return crd;
    const spec = crd.spec as { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[] };
    for (const v of spec.versions)
      v.schema.openAPIV3Schema.properties.spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    return crd;
  });
}

const kube = useKubeCluster();

async function crdVersionWith(crds: KubeObject[]) {
  await kube.start(
    new KubeState().add(
      namespace('cert-manager'),
      ...crds,
      serviceAccount('cert-manager', 'dns-sa'),
      ...tokenCreatorRbac('cert-manager', 'dns-sa'),
    ),
  );
  return (await run(provideChecks, kubeDoctorInput({}, { inventory: keylessInventory() })))['kube.crd-version']!;
}

describe.skipIf(!hasKubectl)(`kube.crd-version judges by the version label first${needsKubectl}`, () => {
  it('is ok for a 1.15+ label on a schema that keeps unknown fields instead of naming serviceAccountRef', async () => {
    const result = await crdVersionWith(openSchemaCrds('v1.16.2'));
    expect(result.status).toBe('ok');
    expect(result.facts).toMatchObject({
      versionLabel: 'v1.16.2',
      serviceAccountRefInSchema: false,
      schemaKeepsUnknownFields: true,
    });
  });

  it('still fails an old label whatever the schema', async () => {
    expect((await crdVersionWith(openSchemaCrds('v1.14.1'))).status).toBe('fail');
  });

  it('without a label, an open schema cannot tell the version: warn, not fail', async () => {
    const result = await crdVersionWith(openSchemaCrds(undefined));
    expect(result.status).toBe('warn');
  });
});
