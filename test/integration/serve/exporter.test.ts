/**
 * What one exporter run reports: its duration counts the time the groups take to provide their checks
 * (the inventory group reads and checks the whole inventory then), not only the checks' own runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startExporter, type Exporter } from '../../../src/serve/exporter.js';
import { waitUntil } from '../../helpers/wait.js';

let exporter: Exporter | undefined;
afterEach(async () => {
  await exporter?.stop();
  exporter = undefined;
});

describe('an exporter run', () => {
  it('reports the time spent providing the checks in cloudgate_run_duration_seconds', async () => {
    exporter = await startExporter({
      host: '127.0.0.1',
      port: 0,
      intervalMs: 60_000,
      version: '0.0.0-test',
      areaMetrics: [],
      runOptions: {},
      log: () => undefined,
      provide: async () => {
        // A group that computes for 300 ms before its checks exist, as the inventory lint of a large file does.
        const until = performance.now() + 300;
        while (performance.now() < until);
        return [
          {
            id: 'inventory.valid',
            group: 'inventory',
            title: 'Inventory variables',
            run: async () => ({ status: 'ok', message: 'fine' }),
          },
        ];
      },
    });
    await waitUntil('the first run to finish', () => exporter!.runs() === 1, { timeoutMs: 10_000 });
    const metrics = await (await fetch(`http://${exporter.address}/metrics`)).text();
    const duration = Number(/^cloudgate_run_duration_seconds (\S+)$/m.exec(metrics)?.[1]);
    const check = Number(
      /^cloudgate_check_duration_seconds\{group="inventory",id="inventory\.valid"\} (\S+)$/m.exec(metrics)?.[1],
    );
    expect(duration).toBeGreaterThanOrEqual(0.3);
    expect(check).toBeLessThan(0.3);
  });
});
