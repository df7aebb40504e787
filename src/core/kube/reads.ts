/**
 * The cluster as the kube checks read it: one kubectl list per kind across all namespaces (or one
 * namespace for cert-manager's own workloads), each asked once per run and shared by every check that
 * needs it. A healthy cluster costs the same handful of kubectl calls whether it holds 5 Certificates
 * or 500. Availability (kubectl installed, a context, the API server answering) is asked first, once.
 */
import { firstLine, kubeAvailability, kubectl, type KubeAvailability, type KubectlOptions } from './kubectl.js';
import { CERT_MANAGER_NAMESPACE } from './platform.js';
import type { CmObject } from './objects.js';

export type ListResult = { ok: true; items: CmObject[] } | { ok: false; missingKind: boolean; error: string };

/** Lists the checks share, each the arguments of one `kubectl get`. */
const LISTS = {
  /** cert-manager's own objects: what its controller works on. */
  certManager: ['get', 'certificates.cert-manager.io,certificaterequests.cert-manager.io,orders.acme.cert-manager.io,challenges.acme.cert-manager.io,clusterissuers.cert-manager.io,issuers.cert-manager.io', '--all-namespaces'],
  ingresses: ['get', 'ingresses.networking.k8s.io', '--all-namespaces'],
  /** TLS secrets only: other secrets (Helm releases, tokens) are large and none of the checks' business. */
  tlsSecrets: ['get', 'secrets', '--all-namespaces', '--field-selector=type=kubernetes.io/tls'],
  /** cert-manager's controller, webhook and cainjector, and the endpoints of the webhook's Service. */
  workloads: ['get', 'deployments.apps,endpointslices.discovery.k8s.io', `--namespace=${CERT_MANAGER_NAMESPACE}`],
  /** Read only when a walk needs the recent events of the objects it names. */
  events: ['get', 'events', '--all-namespaces'],
} as const;
export type ListName = keyof typeof LISTS;

export interface ClusterReads {
  readonly options: KubectlOptions;
  available(): Promise<KubeAvailability>;
  list(name: ListName): Promise<ListResult>;
  /** How many kubectl lists were run (for the speed test). */
  readonly calls: number;
}

/** One set of reads for one doctor run. `options` without a signal: a shared read outlives the check that started it. */
export function clusterReads(options: KubectlOptions): ClusterReads {
  let availability: Promise<KubeAvailability> | undefined;
  const lists = new Map<ListName, Promise<ListResult>>();
  let calls = 0;
  const reads: ClusterReads = {
    options,
    get calls() {
      return calls;
    },
    available() {
      availability ??= kubeAvailability(options).then((a) => {
        if (a.ok) options.context = a.context;
        return a;
      });
      return availability;
    },
    list(name) {
      let pending = lists.get(name);
      if (!pending) {
        calls++;
        pending = readList([...LISTS[name]], options);
        lists.set(name, pending);
      }
      return pending;
    },
  };
  return reads;
}

async function readList(args: string[], options: KubectlOptions): Promise<ListResult> {
  const result = await kubectl([...args, '-o', 'json'], options);
  if (result.exitCode !== 0) {
    return { ok: false, missingKind: /doesn't have a resource type|the server could not find the requested resource/i.test(result.stderr), error: firstLine(result.stderr) || `kubectl exit code ${result.exitCode}` };
  }
  try {
    return { ok: true, items: ((JSON.parse(result.stdout) as { items?: CmObject[] }).items ?? []) };
  } catch {
    return { ok: false, missingKind: false, error: `kubectl ${args.slice(0, 2).join(' ')} printed something that is not JSON: ${firstLine(result.stdout).slice(0, 200) || '(nothing)'}` };
  }
}

/** The items of `kind` in a list result (empty when the list failed). */
export function itemsOf(list: ListResult, kind: string): CmObject[] {
  return list.ok ? list.items.filter((i) => i.kind === kind) : [];
}
