import { describe, expect, it } from 'vitest';
import { openServices, serviceKey } from '../../../../src/core/doctor/services.js';
import { DEFAULT_NETWORK } from '../../../../src/core/config/network.js';
import { runChecks } from '../../../../src/core/doctor/runner.js';
import type { Check } from '../../../../src/core/doctor/types.js';

describe('the services a run owns', () => {
  it('makes each service once, on first use, and closes every one with the run', async () => {
    const services = openServices(DEFAULT_NETWORK);
    const KEY = serviceKey<{ closed: number; close(): void }>('a service');
    let made = 0;
    const make = () => ({
      closed: 0,
      close() {
        this.closed++;
      },
    });
    const first = services.own(KEY, () => (made++, make()));
    expect(services.own(KEY, () => (made++, make()))).toBe(first);
    expect(made).toBe(1);
    await services.close();
    await services.close();
    expect(first.closed).toBe(1);
  });

  it('hands every check of a run the same services, closed when the run ends; the next run gets new ones', async () => {
    const KEY = serviceKey<{ closed: boolean; close(): void }>('a client');
    const seen: { closed: boolean }[] = [];
    const check = (id: string): Check => ({
      id,
      group: 'g',
      title: id,
      run: async (ctx) => {
        seen.push(
          ctx.services.own(KEY, () => ({
            closed: false,
            close() {
              this.closed = true;
            },
          })),
        );
        return { status: 'ok', message: ctx.services.clock.now().toISOString() };
      },
    });
    const clock = { now: () => new Date('2030-01-01T00:00:00Z') };
    const report = await runChecks([check('g.a'), check('g.b')], { clock });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]!.closed).toBe(true);
    expect(report.checks.map((c) => c.message)).toEqual(['2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z']);
    await runChecks([check('g.c')]);
    expect(seen[2]).not.toBe(seen[0]);
  });
});
