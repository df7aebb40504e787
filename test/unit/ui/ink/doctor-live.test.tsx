import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { Check, DoctorReport } from '../../../../src/core/doctor/types.js';
import { DoctorLive, GroupBlock } from '../../../../src/ui/ink/doctor-live.js';
import { renderInk } from '../../../helpers/ink.js';
import { waitUntil } from '../../../helpers/wait.js';

function gated(id: string, group: string, result: { status: 'ok' | 'fail'; message: string; advice?: string }) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const check: Check = {
    id,
    group,
    title: id,
    run: async (ctx) => {
      await Promise.race([gate, new Promise((r) => ctx.signal.addEventListener('abort', r))]);
      return result;
    },
  };
  return { check, release };
}

describe('live doctor view', () => {
  it('shows each group as one block under its line, in order, whatever order the checks end in', async () => {
    const a1 = gated('inv.one', 'inventory', { status: 'ok', message: 'fine' });
    const b1 = gated('tls.one', 'tls', { status: 'fail', message: 'went wrong', advice: 'fix it' });
    const a2 = gated('inv.two', 'inventory', { status: 'ok', message: 'fine too' });
    let report: DoctorReport | undefined;
    const ui = await renderInk(
      <DoctorLive
        checks={[a1.check, b1.check, a2.check]}
        options={{}}
        verbose={false}
        color={false}
        titles={{ inventory: 'Inventory', tls: 'Served certificates' }}
        onDone={(r) => (report = r)}
      />,
    );
    await ui.waitFor(/Inventory \(0\/2/);
    b1.release();
    await ui.waitFor('tls.one: went wrong');
    a1.release();
    await ui.waitFor('inv.one: fine');
    // tls has ended, inventory has not: the inventory block still comes first, each check under its group.
    const text = ui.frame();
    const order = ['Inventory (1/2', 'inv.one: fine', 'Served certificates', 'tls.one: went wrong', '→ fix it'].map(
      (t) => text.indexOf(t),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    a2.release();
    await waitUntil('the run to end', () => report, { lastSeen: ui.frame });
    expect(report?.summary.fail).toBe(1);
    // Once the run ends the view draws nothing: the report is printed as text after Ink.
    expect(ui.frame()).toBe('');
    ui.unmount();
  });

  it('Ctrl+C stops the running checks and ends with "Interrupted", what finished, and the rest as not run', async () => {
    const done = gated('inv.one', 'inventory', { status: 'ok', message: 'fine' });
    const hangs = gated('tls.one', 'tls', { status: 'ok', message: 'never' });
    let ended: { report: DoctorReport; interrupted: boolean } | undefined;
    const ui = await renderInk(
      <DoctorLive
        checks={[done.check, hangs.check]}
        options={{}}
        verbose={false}
        color={false}
        onDone={(report, interrupted) => (ended = { report, interrupted })}
      />,
    );
    done.release();
    await ui.waitFor('inv.one: fine');
    await ui.press('\u0003');
    await waitUntil('the run to end', () => ended, { lastSeen: ui.frame });
    expect(ended?.interrupted).toBe(true);
    expect(ended?.report.checks.find((c) => c.id === 'tls.one')).toMatchObject({
      status: 'skip',
      message: 'Not run: interrupted.',
    });
    expect(ended?.report.checks.find((c) => c.id === 'inv.one')).toMatchObject({ status: 'ok' });
    ui.unmount();
  });

  it('tells the run is over only once its empty frame is drawn, so unmounting leaves no spinner above the report', async () => {
    const only = gated('inv.one', 'inventory', { status: 'ok', message: 'fine' });
    let frameAtDone: string | undefined;
    const view = render(
      <DoctorLive
        checks={[only.check]}
        options={{}}
        verbose={false}
        color={false}
        onDone={() => (frameAtDone = view.lastFrame())}
      />,
    );
    await waitUntil('the first frame', () => view.lastFrame()?.includes('inventory (0/1'), {
      lastSeen: () => view.lastFrame() ?? '',
    });
    only.release();
    await waitUntil('the run to end', () => frameAtDone !== undefined, { lastSeen: () => view.lastFrame() ?? '' });
    expect(frameAtDone).toBe('');
    view.unmount();
  });

  it('says under a group that checked nothing why, from the reason codes', () => {
    const check: Check = {
      id: 'kube.issuer',
      group: 'kube',
      title: 'kube.issuer',
      run: async () => ({ status: 'ok', message: 'never' }),
    };
    const finished = {
      id: 'kube.issuer',
      group: 'kube',
      title: 'kube.issuer',
      durationMs: 1,
      status: 'skip' as const,
      message: 'Cluster not checked.',
      reason: { code: 'no-cluster' as const, text: 'kubectl has no current context.' },
    };
    const view = render(
      <GroupBlock
        state={{ group: 'kube', checks: [check], running: [], finished: [finished] }}
        verbose={false}
        color={false}
        titles={{ kube: 'Cluster (kubectl)' }}
      />,
    );
    expect(view.lastFrame()).toContain('[-] Cluster (kubectl) (1/1, 1 skip)');
    expect(view.lastFrame()).toContain('No cluster: kubectl has no current context.');
    view.unmount();
  });
});
