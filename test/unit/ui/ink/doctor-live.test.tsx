import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { Check, DoctorReport } from '../../../../src/core/doctor/types.js';
import { DoctorLive } from '../../../../src/ui/ink/doctor-live.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live doctor view', () => {
  it('shows a running check with a spinner, then its settled line and the summary', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const checks: Check[] = [
      { id: 'a.quick', group: 'inventory', title: 'Quick', run: async () => ({ status: 'ok', message: 'done fast' }) },
      {
        id: 'a.slow',
        group: 'inventory',
        title: 'Slow',
        run: async () => {
          await gate;
          return { status: 'fail', message: 'went wrong', advice: 'fix it' };
        },
      },
    ];
    let report: DoctorReport | undefined;
    const { lastFrame, frames, unmount } = render(
      <DoctorLive checks={checks} options={{}} verbose={false} onDone={(r) => (report = r)} />,
    );
    await wait(40);
    expect(lastFrame()).toContain('Slow…');
    release();
    await wait(40);
    const all = frames.join('\n');
    expect(all).toContain('✓ Quick: done fast');
    expect(all).toContain('✗ Slow: went wrong');
    expect(all).toContain('→ fix it');
    expect(lastFrame()).toContain('Found issues in 1 group.');
    expect(report?.summary.fail).toBe(1);
    unmount();
  });
});
