/**
 * What the cluster runs of the rendered objects: the live ClusterIssuer and the key names of the
 * credential Secrets, read with kubectl to compare them with the render (doctor's kube.issuer-drift and
 * regenerate's guard alike).
 */
import { firstLine, kubectl, kubectlGet, type KubectlOptions } from '../kube/kubectl.js';
import { renderedIssuerName, secretsToCompare, type LiveState } from './drift.js';
import type { RenderedObject } from './types.js';

/** The live ClusterIssuer and the key names of the credential Secrets the rendered objects name (each read once). */
export async function readLiveState(
  kube: KubectlOptions,
  objects: RenderedObject[],
  issuerName = renderedIssuerName(objects),
): Promise<LiveState | { error: string; what: string }> {
  const PLATFORM_ISSUER = issuerName;
  const issuer = await kubectlGet(['get', 'clusterissuer', '--', PLATFORM_ISSUER], kube);
  if (!issuer.ok && !issuer.notFound) return { error: issuer.error, what: `the ClusterIssuer "${PLATFORM_ISSUER}"` };
  const live: LiveState = { issuer: issuer.ok ? issuer.value : undefined, secretKeys: new Map() };
  // A webhook's Secret lives in its Helm release's namespace (cert-manager's by default).
  for (const { name, namespace } of secretsToCompare(objects)) {
    // Only the key names are read (go-template), never the values; the name comes after `--`.
    const got = await kubectl(
      [
        'get',
        'secret',
        `--namespace=${namespace}`,
        '-o',
        'go-template={{range $k, $v := .data}}{{$k}}{{"\\n"}}{{end}}',
        '--',
        name,
      ],
      kube,
    );
    if (got.exitCode === 0) live.secretKeys.set(name, got.stdout.split('\n').filter(Boolean));
    else if (!/NotFound|not found/i.test(got.stderr))
      return { error: firstLine(got.stderr), what: `the Secret ${namespace}/${name}` };
  }
  return live;
}
