/** Runs the acme group on an inventory and returns `acme.dns-credentials`, checking that no secret is in it. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { provideChecks } from '../../src/core/areas/acme/checks.js';
import type { DoctorInput } from '../../src/core/doctor/input.js';
import { runChecks } from '../../src/core/doctor/runner.js';
import type { CheckOutcome } from '../../src/core/doctor/types.js';

export async function dnsCheck(
  inventory: Record<string, unknown>,
  options: { env?: Record<string, string>; flags?: Record<string, string | boolean>; caFile: string; secrets: string[] },
): Promise<CheckOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-dnscred-'));
  const inventoryPath = join(dir, 'certificates.yml');
  const lines = Object.entries({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.test', ...inventory }).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  writeFileSync(inventoryPath, lines.join('\n') + '\n');
  const input: DoctorInput = {
    flags: options.flags ?? {}, env: options.env ?? {}, cwd: dir, config: {}, inventoryPath, inventoryExplicit: true,
    network: { timeoutMs: 5000, insecure: false, allowHttp: false, verbose: false, log: () => undefined, caFile: options.caFile },
  };
  const checks = (await provideChecks(input)).filter((c) => c.id === 'acme.dns-credentials');
  const report = await runChecks(checks);
  const outcome = report.checks[0]!;
  const printed = JSON.stringify(outcome);
  for (const secret of options.secrets) expect(printed).not.toContain(secret);
  return outcome;
}
