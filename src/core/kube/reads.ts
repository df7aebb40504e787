/**
 * The cluster as the kube checks read it: one kubectl list per kind across all namespaces (or one
 * namespace for cert-manager's own workloads), each asked once per run and shared by every check that
 * needs it. A healthy cluster costs the same handful of kubectl calls whether it holds 5 Certificates
 * or 500. Whether kubectl reaches the cluster is the doctor's `cluster()` gate's question, asked once
 * per run; a check reads `at(ctx.cluster.context)`, the context that answered.
 */
import { firstLine, kubeAvailability, kubectl, type KubeAvailability, type KubectlOptions } from './kubectl.js';
import { CERT_MANAGER_NAMESPACE } from './platform.js';
import type { CmObject } from './objects.js';

export type ListResult = { ok: true; items: CmObject[] } | { ok: false; missingKind: boolean; error: string };

/** One `kubectl get` (kinds that stay few), or raw API paths with the kind of their items (kinds that grow with the platform). */
type ListSource = { get: string[] } | { raw: { path: string; kind: string }[] };

/**
 * Lists the checks share. The large ones are read with `kubectl get --raw`: kubectl then hands over
 * the API server's JSON as it comes instead of decoding and re-encoding every item, which on 500
 * Certificates is most of the time a list takes.
 */
const LISTS = {
  /** cert-manager's own objects: what its controller works on. */
  certManager: [
    {
      raw: [
        { path: '/apis/cert-manager.io/v1/certificates', kind: 'Certificate' },
        { path: '/apis/cert-manager.io/v1/certificaterequests', kind: 'CertificateRequest' },
      ],
    },
    {
      get: [
        'get',
        'orders.acme.cert-manager.io,challenges.acme.cert-manager.io,clusterissuers.cert-manager.io,issuers.cert-manager.io',
        '--all-namespaces',
      ],
    },
  ],
  ingresses: [{ raw: [{ path: '/apis/networking.k8s.io/v1/ingresses', kind: 'Ingress' }] }],
  /** TLS secrets only: other secrets (Helm releases, tokens) are large and none of the checks' business. */
  tlsSecrets: [{ raw: [{ path: '/api/v1/secrets?fieldSelector=type%3Dkubernetes.io%2Ftls', kind: 'Secret' }] }],
  /** cert-manager's controller, webhook and cainjector, and the endpoints of the webhook's Service. */
  workloads: [
    { get: ['get', 'deployments.apps,endpointslices.discovery.k8s.io', `--namespace=${CERT_MANAGER_NAMESPACE}`] },
  ],
  /** Read only when a walk needs the recent events of the objects it names. */
  events: [{ raw: [{ path: '/api/v1/events', kind: 'Event' }] }],
} satisfies Record<string, ListSource[]>;
export type ListName = keyof typeof LISTS;

export interface ClusterReads {
  readonly options: KubectlOptions;
  /** Whether kubectl reaches the cluster, asked once; an answering context is then used by every list. */
  available(): Promise<KubeAvailability>;
  /**
   * The same reads asked of `context` (the one the run's cluster gate found answering): the lists and
   * what is derived from them are shared with every other check that asks for the same context.
   */
  at(context: string): ClusterReads;
  list(name: ListName): Promise<ListResult>;
  /**
   * A value built from the lists (the TLS secrets of some namespaces, parsed), built once per set of
   * reads and `key`. The key names what is built and from what, so one key always means one builder.
   */
  derive<T>(key: string, build: () => Promise<T>): Promise<T>;
  /** How many kubectl lists were run, across every context (for the speed test). */
  readonly calls: number;
}

/** What one context's reads hold: each list and each derived value, asked once. */
interface Memo {
  lists: Map<ListName, Promise<ListResult>>;
  derived: Map<string, Promise<unknown>>;
}

/** One set of reads for one doctor run. `options` without a signal: a shared read outlives the check that started it. */
export function clusterReads(options: KubectlOptions): ClusterReads {
  const memos = new Map<string, Memo>();
  const counter = { calls: 0 };
  let availability: Promise<KubeAvailability> | undefined;
  const base = readsWith(options, memos, counter, () => {
    availability ??= kubeAvailability(options).then((a) => {
      if (a.ok) options.context = a.context;
      return a;
    });
    return availability;
  });
  return base;
}

function readsWith(
  options: KubectlOptions,
  memos: Map<string, Memo>,
  counter: { calls: number },
  available: () => Promise<KubeAvailability>,
): ClusterReads {
  const memo = (): Memo => {
    const key = options.context ?? '';
    let found = memos.get(key);
    if (!found) memos.set(key, (found = { lists: new Map(), derived: new Map() }));
    return found;
  };
  return {
    options,
    get calls() {
      return counter.calls;
    },
    available,
    at(context) {
      const pinned = { ...options, context };
      return readsWith(pinned, memos, counter, async () => ({ ok: true, context }));
    },
    list(name) {
      const { lists } = memo();
      let pending = lists.get(name);
      if (!pending) {
        counter.calls++;
        pending = readSources(LISTS[name], options);
        lists.set(name, pending);
      }
      return pending;
    },
    derive<T>(key: string, build: () => Promise<T>) {
      const { derived } = memo();
      // The memo holds under each key what that key's build() returned: a Promise<T>.
      let pending = derived.get(key) as Promise<T> | undefined;
      if (!pending) {
        pending = build();
        derived.set(key, pending);
      }
      return pending;
    },
  };
}

async function readSources(sources: ListSource[], options: KubectlOptions): Promise<ListResult> {
  const reads = sources.flatMap((source) =>
    'get' in source
      ? [readList([...source.get, '-o', 'json'], options)]
      : source.raw.map(({ path, kind }) => readList(['get', '--raw', path], options, kind)),
  );
  const results = await Promise.all(reads);
  const failed = results.find((r) => !r.ok);
  if (failed) return failed;
  return { ok: true, items: results.flatMap((r) => (r.ok ? r.items : [])) };
}

/** `kind`: set on every item of a raw list (the API server leaves it out of list items). */
async function readList(args: string[], options: KubectlOptions, kind?: string): Promise<ListResult> {
  const result = await kubectl(args, options);
  if (result.exitCode !== 0) {
    return {
      ok: false,
      missingKind: /doesn't have a resource type|the server could not find the requested resource/i.test(result.stderr),
      error: firstLine(result.stderr) || `kubectl exit code ${result.exitCode}`,
    };
  }
  try {
    // A list as kubectl prints it: objects the API server validated against their kind's schema.
    const items = (JSON.parse(result.stdout) as { items?: CmObject[] }).items ?? [];
    if (kind) for (const item of items) item.kind = kind;
    return { ok: true, items };
  } catch {
    return {
      ok: false,
      missingKind: false,
      error: `kubectl ${args.slice(0, 2).join(' ')} printed something that is not JSON: ${firstLine(result.stdout).slice(0, 200) || '(nothing)'}`,
    };
  }
}

/** The items of `kind` in a list result (empty when the list failed). */
export function itemsOf(list: ListResult, kind: string): CmObject[] {
  return list.ok ? list.items.filter((i) => i.kind === kind) : [];
}
