/**
 * The expiry series come from what real checks read: the certificate group on files (two with one
 * base name, one expired), the tls group on a served endpoint and on the catalog's endpoints. The
 * exposition is checked by promtool.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { provideChecks as certificateChecks } from '../../../../src/core/areas/certificate/checks.js';
import { provideChecks as tlsChecks } from '../../../../src/core/areas/tls/checks.js';
import { runChecks } from '../../../../src/core/doctor/runner.js';
import { SERVICE_CATALOG } from '../../../../src/core/doctor/facts.js';
import type { Check, CheckOutcome, DoctorReport } from '../../../../src/core/doctor/types.js';
import { AREA_METRICS } from '../../../../src/core/areas/index.js';
import { renderPrometheus } from '../../../../src/ui/text/prometheus.js';
import { DAY } from '../../../helpers/pki.js';
import { doctorInput } from '../../../helpers/doctor-run.js';
import { useTlsEndpoints } from '../../../helpers/tls-endpoints.js';

const tls = useTlsEndpoints();
const finishedAt = new Date();

/** `{labels}` → value of the expiry family. */
function expiries(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^cloudgate_certificate_expiry_timestamp_seconds(\{.*\}) (\S+)$/.exec(line);
    if (m) map.set(m[1]!, Number(m[2]));
  }
  return map;
}

const seconds = (issued: { cert: string }) => Date.parse(new X509Certificate(issued.cert).validTo) / 1000;

function metricsOf(checks: CheckOutcome[]): string {
  const report: DoctorReport = {
    schema: 'cloudgate.doctor/v1',
    durationMs: 1,
    summary: { ok: 0, warn: 0, fail: 0, skip: 0 },
    checks,
  };
  return renderPrometheus({ report, finishedAt, version: 't', areaMetrics: AREA_METRICS });
}

describe('certificate expiry series', () => {
  it('one series per file by full path: two files named alike both count, the expired one too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-expiry-'));
    const [a, b] = [join(dir, 'region-a'), join(dir, 'region-b')];
    mkdirSync(a);
    mkdirSync(b);
    const fresh = tls.pki.leaf(['*.a.example']);
    const expired = tls.pki.leaf(['*.b.example'], {
      notBefore: new Date(Date.now() - 100 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    writeFileSync(join(a, 'wildcard.pem'), [fresh.cert, tls.pki.intermediate.cert].join(''));
    writeFileSync(join(b, 'wildcard.pem'), expired.cert);
    const input = doctorInput(
      { certificate: [join(a, 'wildcard.pem'), join(b, 'wildcard.pem')] },
      { caFile: tls.pki.rootFile },
    );
    const report = await runChecks(await certificateChecks(input), { network: input.network });

    const series = expiries(metricsOf(report.checks));
    expect(series.get(`{source="${join(a, 'wildcard.pem')}",subject="*.a.example"}`)).toBe(seconds(fresh));
    expect(series.get(`{source="${join(a, 'wildcard.pem')}",subject="cloudgate tls test intermediate"}`)).toBe(
      seconds(tls.pki.intermediate),
    );
    expect(series.get(`{source="${join(b, 'wildcard.pem')}",subject="*.b.example"}`)).toBe(seconds(expired));
    expect(series.size).toBe(3);
    // The expired file's validity check failed, and its series is still there.
    expect(
      report.checks.find((c) => c.id.endsWith('.validity') && c.status === 'fail')?.certificates?.[0]?.source,
    ).toBe(join(b, 'wildcard.pem'));
  });

  it('one series per endpoint certificate, by host:port, for configured and catalog endpoints alike', async () => {
    const served = tls.pki.leaf(['localhost']);
    const configured = await tls.start({ chain: [served.cert, tls.pki.intermediate.cert], key: served.key });
    const catalogLeaf = tls.pki.leaf(['localhost'], { cn: 'catalog service' });
    const catalogued = await tls.start({ chain: [catalogLeaf.cert, tls.pki.intermediate.cert], key: catalogLeaf.key });
    const input = doctorInput({ endpoint: `localhost:${configured.port}` }, { caFile: tls.pki.rootFile });
    const checks = await tlsChecks(input);

    // Stands in for the sign-in chain's scope: hands on a catalog of one endpoint.
    const scope: Check = {
      id: 'signin.scope',
      group: 'signin',
      title: 'scope',
      provides: [SERVICE_CATALOG],
      run: async (ctx) => {
        ctx.facts.set(SERVICE_CATALOG, [
          { type: 'compute', endpoints: [{ interface: 'public', url: `https://localhost:${catalogued.port}/v2.1` }] },
        ]);
        return { status: 'ok', message: 'scoped' };
      },
    };
    const outcomes = (await runChecks([scope, ...checks], { network: input.network })).checks.filter(
      (o) => o.group === 'tls',
    );
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);

    const text = metricsOf(outcomes);
    const series = expiries(text);
    expect(series.get(`{source="localhost:${configured.port}",subject="localhost"}`)).toBe(seconds(served));
    expect(series.get(`{source="localhost:${catalogued.port}",subject="catalog service"}`)).toBe(seconds(catalogLeaf));
    expect(series.get(`{source="localhost:${catalogued.port}",subject="cloudgate tls test intermediate"}`)).toBe(
      seconds(tls.pki.intermediate),
    );
    expect(series.size).toBe(4);

    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 10_000 });
    expect(promtool.error).toBeUndefined();
    expect(promtool.stdout + promtool.stderr).toBe('');
    expect(promtool.status).toBe(0);
  });
});
