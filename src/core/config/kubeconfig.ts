/**
 * The kubeconfig contexts as kubectl sees them, read without running it: `KUBECONFIG` (a list of files,
 * merged; the first file that sets `current-context` decides it), else `~/.kube/config`. For the doctor's
 * report of the context it found and for completing `--context`. A file that cannot be read or parsed
 * counts as empty: kubectl itself reports it when the checks ask the cluster.
 */
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { readRegularFileIfExistsSync } from '../safe-read.js';
import { asRecord, isRecord, textOf } from '../records.js';

/** The kubeconfig files kubectl reads, in its order. */
export function kubeconfigFiles(env: NodeJS.ProcessEnv): string[] {
  if (env.KUBECONFIG) return env.KUBECONFIG.split(delimiter).filter(Boolean);
  return [join(env.HOME || homedir(), '.kube', 'config')];
}

/**
 * A kubeconfig's text, the one place one is opened: it holds cluster credentials (tokens, client keys),
 * so it follows the rule for files that hold secrets.
 */
function readKubeconfig(path: string): string | undefined {
  try {
    return readRegularFileIfExistsSync(path, { what: 'the kubeconfig' })?.text;
  } catch {
    return undefined;
  }
}

async function parsed(path: string): Promise<Record<string, unknown>> {
  const text = readKubeconfig(path);
  if (!text) return {};
  const { loadYaml } = await import('../inventory/yaml-load.js');
  try {
    return asRecord(loadYaml(text, { what: 'the kubeconfig', path, plain: true }).value) ?? {};
  } catch {
    return {};
  }
}

export interface KubeContexts {
  names: string[];
  current?: { name: string; file: string };
}

export async function kubeContexts(env: NodeJS.ProcessEnv): Promise<KubeContexts> {
  const names: string[] = [];
  let current: KubeContexts['current'];
  for (const file of kubeconfigFiles(env)) {
    const config = await parsed(file);
    for (const context of Array.isArray(config.contexts) ? config.contexts : []) {
      const name = isRecord(context) ? textOf(context.name) : undefined;
      if (name && !names.includes(name)) names.push(name);
    }
    const named = textOf(config['current-context']);
    if (named && !current) current = { name: named, file };
  }
  return { names, ...(current ? { current } : {}) };
}
