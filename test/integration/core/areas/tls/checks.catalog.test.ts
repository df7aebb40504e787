import { describe, expect, it } from 'vitest';
import type { DoctorInput } from '../../../../../src/core/doctor/input.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import type { Check } from '../../../../../src/core/doctor/types.js';
import { provideChecks } from '../../../../../src/core/areas/tls/checks.js';
import { SERVICE_CATALOG, type CatalogService } from '../../../../../src/core/doctor/facts.js';
import { useTlsEndpoints } from '../../../../helpers/tls-endpoints.js';
import { flagFields } from '../../../../helpers/doctor-options.js';
import type { ParsedValues } from '../../../../../src/cli-flags.js';

const tls = useTlsEndpoints();

const input = (flags: ParsedValues = {}): DoctorInput => ({
  ...flagFields(flags),
  env: {},
  cwd: '/',
  config: {},
  inventoryPath: '/nonexistent/certificates.yml',
  inventoryExplicit: false,
  network: {
    timeoutMs: 3000,
    insecure: false,
    allowHttp: false,
    verbose: false,
    log: () => undefined,
    caFile: tls.pki.rootFile,
  },
});

/** Stands in for the sign-in chain's last step: hands the scoped token's catalog to later checks. */
const scope = (catalog: CatalogService[]): Check => ({
  id: 'signin.scope',
  group: 'signin',
  title: 'scope',
  provides: [SERVICE_CATALOG],
  run: async (ctx) => {
    ctx.facts.set(SERVICE_CATALOG, catalog);
    return { status: 'ok', message: 'scoped' };
  },
});

describe('tls.catalog', () => {
  it('checks the catalog endpoints the sign-in chain found, beyond the --endpoint ones', async () => {
    const good = tls.pki.leaf(['localhost']);
    const old = tls.pki.leaf(['localhost'], {
      notBefore: new Date(Date.now() - 9e9),
      notAfter: new Date(Date.now() - 1000),
    });
    const a = await tls.start({ chain: [good.cert, tls.pki.intermediate.cert], key: good.key });
    const b = await tls.start({ chain: [old.cert, tls.pki.intermediate.cert], key: old.key });
    const catalog = [
      { type: 'identity', endpoints: [{ interface: 'public', url: `https://localhost:${a.port}/v3` }] },
      {
        type: 'compute',
        endpoints: [
          { interface: 'public', url: `https://localhost:${b.port}/v2.1` },
          { interface: 'internal', url: 'http://nova.svc:8774' },
        ],
      },
    ];
    const checks = await provideChecks(input({ endpoint: [`localhost:${a.port}`] }));
    const report = await runChecks([scope(catalog), ...checks], { network: input().network });
    const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    expect(byId[`tls.localhost:${a.port}`]!.status).toBe('ok');
    expect(byId['tls.catalog']).toMatchObject({ status: 'fail' });
    expect(byId['tls.catalog']!.message).toMatch(
      new RegExp(`1 of 1 catalog endpoint\\(s\\) have problems: tls.localhost:${b.port}: .*expired`),
    );
    expect(byId['tls.catalog']!.parts!.map((p) => [p.name, p.status])).toEqual([[`tls.localhost:${b.port}`, 'fail']]);
  });

  it('is skipped with the reason when the sign-in chain did not run', async () => {
    const report = await runChecks(await provideChecks(input()));
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({ id: 'tls.catalog', status: 'skip' });
    expect(report.checks[0]!.reason).toMatchObject({
      code: 'not-configured',
      text: expect.stringMatching(/--endpoint/),
    });
  });
});
