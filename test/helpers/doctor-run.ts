import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DoctorInput } from '../../src/core/doctor/input.js';
import { runChecks } from '../../src/core/doctor/runner.js';
import type { CheckProvider } from '../../src/core/doctor/input.js';
import type { CheckOutcome } from '../../src/core/doctor/types.js';
import { flagFields } from './doctor-options.js';
import type { ParsedValues } from '../../src/cli-flags.js';

export function doctorInput(
  flags: ParsedValues,
  options: {
    env?: NodeJS.ProcessEnv;
    caFile?: string;
    inventory?: string;
    config?: Record<string, unknown>;
    insecure?: boolean;
  } = {},
): DoctorInput {
  const cwd = mkdtempSync(join(tmpdir(), 'cg-discovery-'));
  return {
    ...flagFields(flags, cwd),
    env: options.env ?? {},
    cwd,
    config: options.config ?? {},
    inventoryPath: options.inventory ?? join(cwd, 'inventory/group_vars/all/certificates.yml'),
    inventoryExplicit: options.inventory !== undefined,
    network: {
      timeoutMs: 5000,
      caFile: options.caFile,
      insecure: options.insecure ?? false,
      allowHttp: false,
      verbose: false,
      log: () => {},
    },
  };
}

export async function run(provider: CheckProvider, input: DoctorInput): Promise<Record<string, CheckOutcome>> {
  const report = await runChecks(await provider(input), { timeoutMs: 15_000, network: input.network });
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
}

export function writeTemp(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-discovery-file-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
