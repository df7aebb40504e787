import { factKey } from '../../../../src/core/doctor/facts.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitCodeFor, runChecks, uncheckedGroups, UnknownCheckReference } from '../../../../src/core/doctor/runner.js';
import { configured, notApplicable, notConfigured, type Gate } from '../../../../src/core/doctor/gates.js';
import type { Check, RunnableCheck } from '../../../../src/core/doctor/types.js';

const check = (id: string, run: RunnableCheck['run'], extra: Partial<RunnableCheck> = {}): Check => ({
  id,
  group: id.split('.')[0],
  title: id,
  run,
  ...extra,
});

// The timing tests run on fake clocks: time moves only when the test advances it.
const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
afterEach(() => {
  vi.useRealTimers();
});

describe('runChecks', () => {
  it('counts the time before the checks from startedAt in the report, not in the checks', async () => {
    fakeClock();
    const startedAt = performance.now();
    vi.advanceTimersByTime(700); // the groups providing their checks (the inventory read and checked)
    const report = await runChecks([check('a.fixed', async () => ({ status: 'ok', message: 'done before' }))], {
      startedAt,
    });
    expect(report.durationMs).toBe(700);
    expect(report.checks[0].durationMs).toBe(0);
    expect((await runChecks([check('a.fixed', async () => ({ status: 'ok', message: 'x' }))])).durationMs).toBe(0);
  });

  it('reports a thrown error that says what to do (a request, kubectl) as a failure of what was checked, not a bug', async () => {
    const report = await runChecks([
      check('a.kubectl', async () => {
        throw Object.assign(new Error('kubectl get certificates did not finish within 1 s.'), {
          advice: 'Check the API server.',
        });
      }),
    ]);
    expect(report.checks[0]).toMatchObject({
      status: 'fail',
      message: 'kubectl get certificates did not finish within 1 s.',
      advice: 'Check the API server.',
    });
  });

  it('reports a throwing check as fail instead of crashing', async () => {
    const report = await runChecks([
      check('a.boom', async () => {
        throw new Error('kaput');
      }),
      check('a.fine', async () => ({ status: 'ok', message: 'fine' })),
    ]);
    expect(report.checks.map((c) => c.status)).toEqual(['fail', 'ok']);
    expect(report.checks[0].message).toContain('kaput');
    expect(report.summary).toEqual({ ok: 1, warn: 0, fail: 1, skip: 0 });
  });

  it('fails a check that outlives its timeout, and the others still finish', async () => {
    fakeClock();
    const running = runChecks(
      [
        check('a.hang', () => new Promise(() => {}), { timeoutMs: 50 }),
        check('a.quick', async () => ({ status: 'ok', message: 'quick' })),
      ],
      { deadlineMs: 5_000 },
    );
    let settled = false;
    void running.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    // It does not stop on its signal: the runner's own failure, after the moment it grants the check.
    await vi.advanceTimersByTimeAsync(99);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const report = await running;
    expect(report.checks[0]).toMatchObject({ status: 'fail' });
    expect(report.checks[0].message).toBe('Did not finish within 0.1 s.'); // 50 ms, rounded to a tenth
    expect(report.checks[1].status).toBe('ok');
  });

  it('a check that stops at once on its signal reports its own failure: what it was waiting for', async () => {
    fakeClock();
    const running = runChecks([
      check(
        'a.request',
        (ctx) =>
          new Promise((resolve) =>
            ctx.signal.addEventListener(
              'abort',
              () =>
                resolve({
                  status: 'fail',
                  message: 'example.test accepted the connection but did not complete the TLS handshake',
                  advice: 'Check that this port serves TLS.',
                }),
              { once: true },
            ),
          ),
        { timeoutMs: 50 },
      ),
      // Its work ends just after its time: still a failure, never a late ok.
      check(
        'a.late',
        (ctx) =>
          new Promise((resolve) =>
            ctx.signal.addEventListener('abort', () => resolve({ status: 'ok', message: 'late' }), { once: true }),
          ),
        { timeoutMs: 50 },
      ),
    ]);
    await vi.advanceTimersByTimeAsync(50);
    const report = await running;
    expect(report.checks[0]).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('TLS handshake'),
      advice: 'Check that this port serves TLS.',
    });
    expect(report.checks[1]).toMatchObject({ status: 'fail', message: 'Did not finish within 0.1 s.' });
  });

  it('stops at the overall deadline', async () => {
    fakeClock();
    const running = runChecks([check('a.hang', () => new Promise(() => {}), { timeoutMs: 10_000 })], {
      deadlineMs: 60,
    });
    await vi.advanceTimersByTimeAsync(60 + 100); // the deadline, then the moment the check gets to answer
    const report = await running;
    expect(report.checks[0].message).toContain('overall deadline');
  });

  it('aborts running checks when the caller cancels the run', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const run = runChecks(
      [
        check(
          'a.wait',
          (ctx) =>
            new Promise((resolve) => {
              ctx.signal.addEventListener('abort', () => {
                sawAbort = true;
                resolve({ status: 'ok', message: 'stopped' });
              });
              started();
            }),
          { timeoutMs: 10_000 },
        ),
      ],
      { signal: controller.signal, deadlineMs: 10_000 },
    );
    // Cancelled while the check runs.
    await running;
    controller.abort();
    const report = await run;
    expect(sawAbort).toBe(true);
    expect(report.checks[0]).toMatchObject({
      status: 'skip',
      message: 'Not run: interrupted.',
      reason: { code: 'interrupted' },
    });
  });

  // What the checks of these tests hand on to each other.
  const FIRST = factKey<string>('s', 'what s.first hands on');
  const SECOND = factKey<string>('s', 'what s.two hands on');
  const ONE = factKey<string>('s', 'what s.one hands on');

  it('skips a check whose prerequisite failed, naming it', async () => {
    const report = await runChecks([
      check('s.first', async () => ({ status: 'fail', message: 'no' }), { provides: [FIRST] }),
      check('s.second', async () => ({ status: 'ok', message: 'yes' }), { needs: [FIRST] }),
    ]);
    expect(report.checks[1]).toMatchObject({ status: 'skip', reason: { code: 'needs-failed' } });
    expect(report.checks[1].message).toContain('s.first');
  });

  it('names the root cause once through a chain of skipped steps', async () => {
    const report = await runChecks([
      { id: 's.one', group: 's', title: 's.one', gate: notApplicable('No broker_url is configured.'), provides: [ONE] },
      check('s.two', async () => ({ status: 'ok', message: '' }), { needs: [ONE], provides: [SECOND] }),
      check('s.three', async () => ({ status: 'ok', message: '' }), { needs: [SECOND] }),
    ]);
    expect(report.checks[1].message).toBe('Not run: s.one was skipped (No broker_url is configured).');
    expect(report.checks[2].message).toBe(report.checks[1].message);
    expect(report.checks.map((c) => c.reason?.code)).toEqual(['not-applicable', 'not-applicable', 'not-applicable']);
  });

  it("says which check did not hand on a fact when it passed without the fact, with the fact's own reason", async () => {
    const CHOSEN = factKey<string>('s', 'the chosen project', {
      unset: { code: 'not-configured', text: 'Name one with --project.' },
    });
    const report = await runChecks([
      check('s.list', async () => ({ status: 'warn', message: 'none chosen' }), { provides: [CHOSEN] }),
      check('s.scope', async () => ({ status: 'ok', message: '' }), { needs: [CHOSEN] }),
    ]);
    expect(report.checks[1]).toMatchObject({
      status: 'skip',
      message: 'Not run: s.list did not hand on the chosen project.',
      reason: { code: 'not-configured', text: 'Name one with --project.' },
    });
  });

  it('reports an unavailable check (found only while running) as not run, with its code', async () => {
    const report = await runChecks([
      check('k.crds', async () => ({
        unavailable: 'needs-failed',
        message: 'cert-manager is not installed.',
        text: 'Install it.',
      })),
    ]);
    expect(report.checks[0]).toMatchObject({
      status: 'skip',
      message: 'cert-manager is not installed.',
      reason: { code: 'needs-failed', text: 'Install it.' },
    });
  });

  it('refuses a check that reads or writes a fact it did not declare', async () => {
    const report = await runChecks([
      check('s.sneaky', async (ctx) => {
        ctx.facts.set(FIRST, 'x');
        return { status: 'ok', message: '' };
      }),
    ]);
    expect(report.checks[0]).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('without declaring it'),
    });
  });

  it('passes facts from a check to the checks that need them, in order', async () => {
    fakeClock();
    const TOKEN = factKey<string>('s', 'the token');
    const order: string[] = [];
    const running = runChecks([
      check(
        's.second',
        async (ctx) => {
          order.push('second');
          return { status: 'ok', message: ctx.facts.need(TOKEN) };
        },
        { needs: [TOKEN] },
      ),
      check(
        's.first',
        async (ctx) => {
          await new Promise((r) => setTimeout(r, 20));
          order.push('first');
          ctx.facts.set(TOKEN, 'handed-over');
          return { status: 'ok', message: 'first' };
        },
        { provides: [TOKEN] },
      ),
    ]);
    // s.first ends 20 ms after it starts: s.second, listed before it, waits for it.
    await vi.advanceTimersByTimeAsync(19);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const report = await running;
    expect(order).toEqual(['first', 'second']);
    expect(report.checks[0].message).toBe('handed-over');
  });

  it('runs independent checks concurrently, within the bound', async () => {
    fakeClock();
    let active = 0;
    let peak = 0;
    const slow = (id: string) =>
      check(id, async () => {
        peak = Math.max(peak, ++active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return { status: 'ok', message: id };
      });
    const running = runChecks(
      Array.from({ length: 12 }, (_, i) => slow(`c.${i}`)),
      { concurrency: 5 },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(active).toBe(5); // five at once from the start, the other seven waiting
    await vi.advanceTimersByTimeAsync(60); // three rounds of 20 ms: 5, 5, 2
    const report = await running;
    expect(peak).toBe(5);
    expect(report.summary.ok).toBe(12);
  });

  it('maps results to exit codes, with --strict counting warnings', async () => {
    const warn = await runChecks([check('a.w', async () => ({ status: 'warn', message: 'w' }))]);
    expect(exitCodeFor(warn, false)).toBe(0);
    expect(exitCodeFor(warn, true)).toBe(1);
  });

  it('refuses a needs or after that names nothing of a group in the run, before running anything', async () => {
    let ran = false;
    const first = check('s.first', async () => {
      ran = true;
      return { status: 'ok', message: '' };
    });
    await expect(
      runChecks([first, check('s.second', async () => ({ status: 'ok', message: '' }), { needs: [FIRST] })]),
    ).rejects.toThrow(UnknownCheckReference);
    const foreign = check('t.taker', async () => ({ status: 'ok', message: '' }), { provides: [FIRST] });
    await expect(runChecks([first, foreign])).rejects.toThrow(/belongs to group s/);
    await expect(
      runChecks([first, check('s.third', async () => ({ status: 'ok', message: '' }), { after: ['s.frist'] })]),
    ).rejects.toThrow(/s\.third waits on "s\.frist"/);
    expect(ran).toBe(false);
  });

  it('accepts a fact of a group left out of the run (--only): the check runs, or says which group to add', async () => {
    const SCOPED = factKey<string>('signin', 'the scoped token');
    const report = await runChecks([
      check('tls.catalog', async () => ({ status: 'ok', message: 'ran' }), { after: ['signin.scope'], uses: [SCOPED] }),
      check('tls.needy', async () => ({ status: 'ok', message: 'ran' }), { needs: [SCOPED] }),
    ]);
    expect(report.checks[0]).toMatchObject({ status: 'ok' });
    expect(report.checks[1]).toMatchObject({ status: 'skip', reason: { code: 'needs-failed' } });
    expect(report.checks[1].reason!.text).toContain('"signin"');
  });

  it('skips a check whose configured() gate is closed, with not-configured and what to set, without running it', async () => {
    let ran = false;
    const report = await runChecks([
      check(
        'd.doc',
        async () => {
          ran = true;
          return { status: 'ok', message: '' };
        },
        { gate: configured({ issuer_url: undefined, token_file: 'x' }) },
      ),
      check('d.any', async () => ({ status: 'ok', message: 'ran' }), {
        gate: configured({ a: '', b: 'set' }, { any: true }),
      }),
    ]);
    expect(ran).toBe(false);
    expect(report.checks[0]).toMatchObject({
      status: 'skip',
      reason: { code: 'not-configured', text: 'Set issuer_url.' },
    });
    expect(report.checks[1]).toMatchObject({ status: 'ok' });
  });

  it('skips a check behind the cluster() gate with no-cluster when kubectl reaches none, and hands on the context when it does', async () => {
    const gate = (ok: boolean): Gate => ({
      kind: 'cluster',
      probe: async () =>
        ok ? { ok: true, context: 'kind-test' } : { ok: false, reason: 'kubectl has no current context.' },
    });
    const report = await runChecks([
      check('k.none', async () => ({ status: 'ok', message: 'ran' }), { gate: gate(false) }),
      check('k.some', async (ctx) => ({ status: 'ok', message: String(ctx.cluster?.context) }), { gate: gate(true) }),
    ]);
    expect(report.checks[0]).toMatchObject({
      status: 'skip',
      reason: { code: 'no-cluster', text: 'kubectl has no current context.' },
    });
    expect(report.checks[1]).toMatchObject({ status: 'ok', message: 'kind-test' });
  });

  it("writes a closed notConfigured() gate's own sentence as the skip's message and what to do, and a cluster gate's lead before the reason", async () => {
    const sentence = 'Only needed for kubernetes: the inventory does not select it.';
    const report = await runChecks([
      check('k.closed', async () => ({ status: 'ok', message: 'ran' }), { gate: notConfigured(sentence) }),
      check('k.led', async () => ({ status: 'ok', message: 'ran' }), {
        gate: { kind: 'cluster', lead: 'No cluster to ask', probe: async () => ({ ok: false, reason: 'no context.' }) },
      }),
    ]);
    expect(report.checks[0]).toMatchObject({
      status: 'skip',
      message: sentence,
      reason: { code: 'not-configured', text: sentence },
    });
    expect(report.checks[1]).toMatchObject({
      status: 'skip',
      message: 'No cluster to ask: no context.',
      reason: { code: 'no-cluster' },
    });
  });

  it("asks the cluster probe under the run's signal: one check timing out while kubectl is asked does not cancel the answer the others wait for", async () => {
    fakeClock();
    let answer: (value: { ok: true; context: string }) => void = () => {};
    let asked: Promise<{ ok: true; context: string }> | undefined;
    const probe = (signal: AbortSignal) =>
      (asked ??= new Promise((resolve, reject) => {
        answer = resolve;
        signal.addEventListener('abort', () => reject(new Error('probe cancelled')), { once: true });
      }));
    const gate: Gate = { kind: 'cluster', probe };
    let lateStart = false;
    const running = runChecks(
      [
        check('k.short', async () => ((lateStart = true), { status: 'ok', message: 'ran' }), { gate, timeoutMs: 50 }),
        check('k.long', async (ctx) => ({ status: 'ok', message: String(ctx.cluster?.context) }), {
          gate,
          timeoutMs: 10_000,
        }),
      ],
      { deadlineMs: 20_000 },
    );
    await vi.advanceTimersByTimeAsync(50);
    answer({ ok: true, context: 'kind-test' });
    const report = await running;
    expect(report.checks[0]).toMatchObject({ status: 'fail', message: 'Did not finish within 0.1 s.' });
    expect(report.checks[1]).toMatchObject({ status: 'ok', message: 'kind-test' });
    expect(lateStart).toBe(false); // timed out behind the gate: never started once the answer came
  });

  it('hands a not-configured reason on to the checks that need the skipped one, naming the root once', async () => {
    const report = await runChecks([
      check('s.one', async () => ({ status: 'ok', message: '' }), {
        gate: configured({ broker_url: undefined }),
        provides: [ONE],
      }),
      check('s.two', async () => ({ status: 'ok', message: '' }), { needs: [ONE], provides: [SECOND] }),
      check('s.three', async () => ({ status: 'ok', message: '' }), { needs: [SECOND] }),
    ]);
    expect(report.checks.map((c) => c.reason?.code)).toEqual(['not-configured', 'not-configured', 'not-configured']);
    expect(report.checks[2].message).toBe(report.checks[1].message);
    expect(report.checks[1].message).toContain('s.one was skipped');
  });

  it('with --strict fails a run where a requested group checked nothing; without --only, only a run that checked nothing at all', async () => {
    const report = await runChecks([
      check('inventory.valid', async () => ({ status: 'ok', message: '' })),
      check('signin.exchange', async () => ({ status: 'ok', message: '' }), {
        gate: configured({ broker_url: undefined }),
      }),
    ]);
    expect(uncheckedGroups(report, ['inventory', 'signin'])).toEqual(['signin']);
    expect(exitCodeFor(report, true, ['inventory', 'signin'])).toBe(1);
    expect(exitCodeFor(report, false, ['inventory', 'signin'])).toBe(0);
    expect(exitCodeFor(report, true, ['inventory'])).toBe(0);
    expect(exitCodeFor(report, true)).toBe(0);
    const nothing = await runChecks([
      check('signin.exchange', async () => ({ status: 'ok', message: '' }), {
        gate: configured({ broker_url: undefined }),
      }),
    ]);
    expect(exitCodeFor(nothing, true)).toBe(1);
    expect(exitCodeFor(nothing, false)).toBe(0);
  });
});
