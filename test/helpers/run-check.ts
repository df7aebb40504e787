/** Runs the acme group on an inventory and returns `acme.dns-credentials`, checking that no secret is in it. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { provideChecks } from '../../src/core/areas/acme/checks.js';
import type { DoctorInput } from '../../src/core/doctor/input.js';
import { runChecks } from '../../src/core/doctor/runner.js';
import type { CheckOutcome } from '../../src/core/doctor/types.js';
import { createTestCA, type TestCA } from './pki.js';
import { defaultWorld, startDnsApis, type DnsApis } from '../servers/dns-apis.js';
import { flagFields } from './doctor-options.js';

export async function dnsCheck(
  inventory: Record<string, unknown>,
  options: {
    env?: Record<string, string>;
    flags?: Record<string, string | boolean>;
    caFile: string;
    secrets: string[];
  },
): Promise<CheckOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-dnscred-'));
  const inventoryPath = join(dir, 'certificates.yml');
  const lines = Object.entries({
    cluster_issuer_type: 'acme',
    cluster_issuer_acme_email: 'ops@example.test',
    ...inventory,
  }).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  writeFileSync(inventoryPath, lines.join('\n') + '\n');
  const input: DoctorInput = {
    ...flagFields(options.flags ?? {}, dir),
    env: options.env ?? {},
    cwd: dir,
    config: {},
    inventoryPath,
    inventoryExplicit: true,
    network: {
      timeoutMs: 5000,
      insecure: false,
      allowHttp: false,
      verbose: false,
      log: () => undefined,
      caFile: options.caFile,
    },
  };
  const checks = (await provideChecks(input)).filter((c) => c.id === 'acme.dns-credentials');
  const report = await runChecks(checks, { network: input.network });
  const outcome = report.checks[0]!;
  const printed = JSON.stringify(outcome);
  for (const secret of options.secrets) expect(printed).not.toContain(secret);
  return outcome;
}

/** The local DNS provider APIs (one CA) for a test file: started once, `reset` before each test. */
export function useDnsApis(
  caName: string,
  reset: (apis: DnsApis) => void,
): { readonly apis: DnsApis; readonly ca: TestCA } {
  let ca: TestCA;
  let apis: DnsApis;
  beforeAll(async () => {
    ca = createTestCA(caName);
    apis = await startDnsApis(ca);
  });
  afterAll(() => apis.stop());
  beforeEach(() => reset(apis));
  return {
    get apis() {
      return apis;
    },
    get ca() {
      return ca;
    },
  };
}

/** The token providers (cloudflare, godaddy, infoblox) as each test starts: valid credentials, no writes yet. */
export function resetTokenProviders(apis: DnsApis): void {
  const fresh = defaultWorld();
  apis.world.cloudflare = { ...fresh.cloudflare, token: apis.world.cloudflare.token };
  apis.world.godaddy = { ...apis.world.godaddy, apiAccess: true };
  apis.world.writes.length = 0;
}

/** acme.dns-credentials against the token providers, checking that none of their credentials is printed. */
export function tokenProviderCheck(dns: { readonly apis: DnsApis; readonly ca: TestCA }) {
  return (inventory: Record<string, string>, flags: Record<string, boolean | string> = {}) => {
    const w = dns.apis.world;
    return dnsCheck(inventory, {
      env: dns.apis.env,
      flags,
      caFile: dns.ca.file,
      secrets: [w.cloudflare.token, w.godaddy.key, w.godaddy.secret, w.infoblox.password],
    });
  };
}
