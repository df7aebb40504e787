/**
 * `discovery.apiserver-flags`: the service-account issuer flags of every control plane agree with
 * each other, with the public issuer URL, and with kubeadm's `ClusterConfiguration` (ConfigMap
 * kube-system/kubeadm-config). A flag edited by hand in one node's static manifest is lost at the
 * next `kubeadm upgrade`; control planes that disagree sign tokens that fail only sometimes.
 */
import { loadYaml } from '../../inventory/yaml-load.js';
import type { DoctorInput } from '../../doctor/input.js';
import type { Check, RunResult } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { KubectlError, kubectlJson, type KubectlOptions } from '../../kube/kubectl.js';
import { cluster, firstClosed } from '../../doctor/gates.js';
import { kubeOptionsFor } from '../../kube/options.js';
import { expectedJwksUri } from '../../kube/service-account-issuer.js';
import { keylessGate, type DiscoverySettings } from '../../config/discovery-settings.js';
import type { ApiserverFlagsFacts } from './facts.js';
import { TITLES } from './messages.js';
import { messageOf } from '../../errors.js';
import { memberOf } from '../../records.js';
import { APISERVER_FLAGS, FLAG_FINDING } from './messages/document.js';

export const FLAGS = ['service-account-issuer', 'service-account-jwks-uri', 'api-audiences'] as const;
type Flag = (typeof FLAGS)[number];
/** Flag → its values in order (the issuer flag may repeat; the first one signs). */
export type FlagValues = Map<string, string[]>;

interface Pod {
  metadata: { name: string };
  spec?: { nodeName?: string; containers?: { name: string; command?: string[]; args?: string[] }[] };
}

/** `--name=value` / `--name value` words of a container's command line. */
export function parseCommandFlags(words: string[]): FlagValues {
  const flags: FlagValues = new Map();
  for (let i = 0; i < words.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(words[i]);
    if (!m) continue;
    let value = m[2];
    if (value === undefined && i + 1 < words.length && !words[i + 1].startsWith('--')) value = words[++i];
    flags.set(m[1], [...(flags.get(m[1]) ?? []), value ?? '']);
  }
  return flags;
}

/** `apiServer.extraArgs` of a ClusterConfiguration: v1beta3's map or v1beta4's list of {name, value}. */
export function kubeadmExtraArgs(clusterConfiguration: unknown): FlagValues {
  const flags: FlagValues = new Map();
  const extra = memberOf(memberOf(clusterConfiguration, 'apiServer'), 'extraArgs');
  if (Array.isArray(extra)) {
    for (const item of extra) {
      const name = memberOf(item, 'name');
      if (typeof name === 'string')
        flags.set(name, [...(flags.get(name) ?? []), String(memberOf(item, 'value') ?? '')]);
    }
  } else if (extra && typeof extra === 'object') {
    for (const [name, value] of Object.entries(extra)) flags.set(name, [String(value ?? '')]);
  }
  return flags;
}

/** The comparable form of a flag: issuers in order, audiences as a set. */
function normalised(flag: Flag, values: string[] | undefined): string | undefined {
  if (!values?.length) return undefined;
  if (flag === 'api-audiences')
    return values
      .flatMap((v) => v.split(','))
      .map((a) => a.trim())
      .filter(Boolean)
      .sort()
      .join(',');
  return values.join(' ');
}

export interface ControlPlane {
  node: string;
  flags: FlagValues;
}

export interface FlagsVerdict {
  failures: string[];
  warnings: string[];
}

/** Pure rules; `publicIssuer` undefined skips the comparison with the public URL. */
export function judgeFlags(
  planes: ControlPlane[],
  kubeadm: FlagValues | undefined,
  publicIssuer: string | undefined,
  stsAudience: string,
): FlagsVerdict {
  const verdict: FlagsVerdict = { failures: [], warnings: [] };
  for (const flag of FLAGS) {
    const byValue = new Map<string, string[]>();
    for (const p of planes) {
      const v = normalised(flag, p.flags.get(flag)) ?? '(unset)';
      byValue.set(v, [...(byValue.get(v) ?? []), p.node]);
    }
    if (byValue.size > 1) {
      verdict.failures.push(
        FLAG_FINDING.disagree(flag, [...byValue].map(([v, nodes]) => FLAG_FINDING.nodesWithValue(nodes, v)).join('; ')),
      );
    }
    if (!kubeadm) continue;
    const configured = normalised(flag, kubeadm.get(flag));
    for (const p of planes) {
      const running = normalised(flag, p.flags.get(flag));
      if (running !== undefined && running !== configured) {
        verdict.warnings.push(FLAG_FINDING.handEdited(flag, p.node, running, configured));
      }
    }
  }
  if (publicIssuer) {
    const jwks = expectedJwksUri(publicIssuer);
    for (const p of planes) {
      const issuers = p.flags.get('service-account-issuer') ?? [];
      if (!issuers.includes(publicIssuer))
        verdict.failures.push(FLAG_FINDING.issuerMissing(p.node, publicIssuer, issuers));
      else if (issuers[0] !== publicIssuer)
        verdict.warnings.push(FLAG_FINDING.issuerNotFirst(p.node, publicIssuer, issuers[0]));
      const jwksUri = p.flags.get('service-account-jwks-uri')?.[0];
      if (jwksUri !== jwks) verdict.failures.push(FLAG_FINDING.jwksUri(p.node, jwksUri, jwks));
      const audiences = (p.flags.get('api-audiences') ?? []).flatMap((v) => v.split(',')).map((a) => a.trim());
      if (!audiences.includes(stsAudience)) verdict.failures.push(FLAG_FINDING.audienceMissing(p.node, stsAudience));
    }
  }
  return verdict;
}

export function apiserverFlagsCheck(input: DoctorInput, s: DiscoverySettings): Check {
  return {
    id: 'discovery.apiserver-flags',
    group: 'discovery',
    title: TITLES.apiserverFlags,
    // Asked of the cluster only when the check applies: a run without keyless route53 needs no kubectl.
    gate: firstClosed(keylessGate(s, 'inventory or issuer URL'), cluster(kubeOptionsFor(input))),
    async run(ctx) {
      const k = kubeOptionsFor(input, { signal: ctx.signal, log: (line) => ctx.log(line) });
      return compare({ ...k, context: ctx.cluster?.context ?? k.context }, s);
    },
  };
}

async function compare(k: KubectlOptions, s: DiscoverySettings): Promise<RunResult<ApiserverFlagsFacts>> {
  let pods: Pod[];
  let kubeadm: FlagValues | undefined;
  try {
    pods = (await kubectlJson<{ items: Pod[] }>(['get', 'pods', '-n', 'kube-system'], k)).items.filter((p) =>
      p.metadata.name.startsWith('kube-apiserver-'),
    );
    kubeadm = await kubeadmFlags(k);
  } catch (error) {
    if (error instanceof KubectlError) {
      const advice = error.result.exitCode === 0 ? APISERVER_FLAGS.repairKubeadmConfig : APISERVER_FLAGS.needsAccess;
      return { status: 'fail', message: error.message, advice };
    }
    throw error;
  }
  if (pods.length === 0) {
    return {
      unavailable: 'not-applicable',
      message: APISERVER_FLAGS.noControlPlane,
      text: APISERVER_FLAGS.compareByHand,
    };
  }
  const planes: ControlPlane[] = pods.map((p) => {
    const container = p.spec?.containers?.find((c) => c.name === 'kube-apiserver') ?? p.spec?.containers?.[0];
    return {
      node: escapeLine(p.spec?.nodeName ?? p.metadata.name.replace(/^kube-apiserver-/, '')),
      flags: parseCommandFlags([...(container?.command ?? []), ...(container?.args ?? [])]),
    };
  });
  const verdict = judgeFlags(planes, kubeadm, s.issuerUrl, s.stsAudience);
  const facts: ApiserverFlagsFacts = {
    kubeadmConfig: kubeadm ? Object.fromEntries(FLAGS.map((f) => [f, kubeadm.get(f) ?? null])) : null,
    controlPlanes: Object.fromEntries(
      planes.map((p) => [p.node, Object.fromEntries(FLAGS.map((f) => [f, p.flags.get(f) ?? null]))]),
    ),
  };
  const nodes = planes.map((p) => p.node).join(', ');
  const notes = [kubeadm ? '' : APISERVER_FLAGS.notKubeadm, s.issuerUrl ? '' : APISERVER_FLAGS.noIssuerUrl].join('');
  if (verdict.failures.length) {
    const expected = s.issuerUrl
      ? APISERVER_FLAGS.expectedFlags(s.issuerUrl, s.stsAudience)
      : APISERVER_FLAGS.sameFlags;
    return {
      status: 'fail',
      message: APISERVER_FLAGS.wrong(verdict.failures, verdict.warnings),
      advice: APISERVER_FLAGS.putEverywhere(expected),
      facts,
    };
  }
  if (verdict.warnings.length) {
    return {
      status: 'warn',
      message: APISERVER_FLAGS.warnings(verdict.warnings),
      advice: APISERVER_FLAGS.putIntoKubeadmConfig,
      facts,
    };
  }
  return { status: 'ok', message: APISERVER_FLAGS.agree(planes.length, nodes, Boolean(kubeadm), notes), facts };
}

async function kubeadmFlags(k: KubectlOptions): Promise<FlagValues | undefined> {
  let cm: { data?: Record<string, string> };
  try {
    cm = await kubectlJson(['get', 'configmap', 'kubeadm-config', '-n', 'kube-system'], k);
  } catch (error) {
    if (error instanceof KubectlError && /not ?found/i.test(error.result.stderr)) return undefined;
    throw error;
  }
  const text = cm.data?.ClusterConfiguration;
  if (!text) return new Map();
  try {
    return kubeadmExtraArgs(
      loadYaml(text, { what: 'the ClusterConfiguration in', path: 'kube-system/kubeadm-config', plain: true }).value,
    );
  } catch (error) {
    throw new KubectlError(escapeLine(messageOf(error).split('\n')[0]), { exitCode: 0, stdout: '', stderr: '' });
  }
}
