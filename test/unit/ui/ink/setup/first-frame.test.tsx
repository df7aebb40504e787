import { afterEach, describe, expect, it } from 'vitest';
import { initialState, type WizardAnswers } from '../../../../../src/core/setup/wizard-flow.js';
import { firstFrameLines, rowsOf } from '../../../../../src/ui/ink/setup/first-frame.js';
import { SetupApp } from '../../../../../src/ui/ink/setup/SetupApp.js';
import type { SetupSession } from '../../../../../src/core/setup/session.js';
import { renderInk, stripAnsi, type InkDriver } from '../../../../helpers/ink.js';

const session: SetupSession = {
  cwd: '/',
  dryRun: true,
  prepare: () => Promise.reject(new Error('not reached')),
  write: () => Promise.reject(new Error('not reached')),
};

let ui: InkDriver | undefined;
afterEach(() => ui?.unmount());

describe('the first frame drawn before Ink loads', () => {
  it.each<[string, WizardAnswers, { only?: 'issuer' }]>([
    ['a new inventory', {}, {}],
    ['an inventory with a supplied wildcard', { certificate_type: 'wildcard-supplied' }, {}],
    ['the issuer part of an ACME inventory', { cluster_issuer_type: 'ca' }, { only: 'issuer' }],
  ])('is the same text as the walkthrough’s first frame, for %s', async (_name, answers, options) => {
    ui = await renderInk(<SetupApp initial={answers} options={options} session={session} onExit={() => undefined} />);
    // Ink wraps long lines at word boundaries; the painted frame leaves wrapping to the terminal.
    const words = (s: string) => s.replace(/\s+/g, ' ').trim();
    const painted = firstFrameLines(initialState(answers, options))!.map(stripAnsi);
    expect(words(painted.join('\n'))).toBe(words(ui.frame()));
    expect(painted.length).toBeGreaterThan(8);
  });

  it('counts wrapped rows so that it can erase exactly what it drew', () => {
    expect(rowsOf(['abc', '', 'x'.repeat(81)], 80)).toBe(4);
    expect(rowsOf(['\u001b[1mbold\u001b[22m'], 4)).toBe(1);
  });
});
