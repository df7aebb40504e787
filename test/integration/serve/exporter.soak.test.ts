/**
 * The exporter holds a flat heap: 200 runs of every group but kube against local servers, at a
 * 5 ms interval, in a child process with --expose-gc that measures the heap after a full collection
 * as each run starts (test/helpers/serve-soak.ts, bundled and run by scripts/bench-serve.mjs).
 *
 * Node's default flags, as `cloudgate serve` runs: the exporter turns V8's optimising compiler off
 * for its process. With it, the heap also held the machine code of the functions that became hot one
 * after the other, 4 KB per run at first and still ~0.7 KB per run after 300 runs (docs/exporter.md);
 * this test then failed (~3.6 KB per run). The objects the exporter keeps: ~120 KB per run while each
 * check's signal stayed tied to the exporter's, under 0.1 KB now. Kube is left out (and kubectl with
 * it): its kubectl children make a run last seconds; `npm run bench -- serve` includes it.
 */
import { describe, expect, it } from 'vitest';

interface Sample {
  run: number;
  heapUsed: number;
  rss: number;
  scrapeMs: number;
}
interface SoakResult {
  samples: Sample[];
  metrics: string;
  stderr: string;
  code: number | null;
}
interface BenchServe {
  bundleSoakDriver(): Promise<string>;
  runSoak(
    file: string,
    options: { runs: number; intervalMs: number; kube: boolean; v8Flags: string[]; deadlineMs: number },
  ): Promise<SoakResult>;
  slopeOf(samples: Sample[]): number;
}

const RUNS = 200;
const WARM_UP = 60;
const LIMIT_BYTES_PER_RUN = 1024;

describe('cloudgate serve over many runs', () => {
  it(`retains under 1 KB of heap per run over ${RUNS} runs of every group but kube`, async () => {
    // The script has no types: imported by path, as the bench does.
    const bench = (await import(new URL('../../../scripts/bench-serve.mjs', import.meta.url).pathname)) as BenchServe;
    const { samples, metrics, stderr, code } = await bench.runSoak(await bench.bundleSoakDriver(), {
      runs: RUNS,
      intervalMs: 5,
      kube: false,
      v8Flags: [],
      deadlineMs: 170_000,
    });
    expect(code, stderr).toBe(0);
    expect(samples).toHaveLength(RUNS);
    // The runs did real work: the groups answered (not a run that failed early each time).
    for (const id of [
      'certificate.wildcard-pem.validity',
      'signin.api',
      'tls.catalog',
      'discovery.jwks',
      'acme.directory',
    ]) {
      expect(metrics).toMatch(
        new RegExp(`cloudgate_check_status\\{group="[a-z]+",id="${id.replace('.', '\\.')}",status="ok"\\} 1`),
      );
    }
    expect(stderr).not.toMatch(/run failed|MaxListeners/);
    const perRun = bench.slopeOf(samples.filter((s) => s.run > WARM_UP));
    expect(perRun).toBeLessThan(LIMIT_BYTES_PER_RUN);
  }, 200_000);
});
