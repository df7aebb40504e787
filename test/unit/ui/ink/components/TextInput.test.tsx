import { describe, expect, it } from 'vitest';
import { TextInput } from '../../../../../src/ui/ink/components/TextInput.js';
import { renderInk } from '../../../../helpers/ink.js';

describe('TextInput', () => {
  it('a pasted value ending in a line break is submitted, without the line break', async () => {
    const submitted: string[] = [];
    const ui = await renderInk(<TextInput onSubmit={(v) => submitted.push(v)} />);
    await ui.press('ops@example.com\n');
    expect(submitted).toEqual(['ops@example.com']);
    ui.unmount();
  });

  it('a pasted value that does not pass is kept on screen with its error, not submitted', async () => {
    const submitted: string[] = [];
    const ui = await renderInk(<TextInput validate={(v) => (v.includes('@') ? undefined : 'not an email')} onSubmit={(v) => submitted.push(v)} />);
    await ui.press('ops\r');
    expect(submitted).toEqual([]);
    expect(ui.frame()).toContain('ops');
    expect(ui.frame()).toContain('not an email');
    ui.unmount();
  });
});
