import { describe, expect, it } from 'vitest';
import { TextInput } from '../../../../../src/ui/ink/components/TextInput.js';
import { KEY, renderInk } from '../../../../helpers/ink.js';

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
    const ui = await renderInk(
      <TextInput
        validate={(v) => (v.includes('@') ? undefined : 'not an email')}
        onSubmit={(v) => submitted.push(v)}
      />,
    );
    await ui.press('ops\r');
    expect(submitted).toEqual([]);
    expect(ui.frame()).toContain('ops');
    expect(ui.frame()).toContain('not an email');
    ui.unmount();
  });
});

describe('TextInput edits like a shell prompt', () => {
  it('moves with Left/Home/End, deletes forward with Delete and back with Backspace, and kills with Ctrl+U/K/W', async () => {
    const submitted: string[] = [];
    const ui = await renderInk(<TextInput initialValue="cloud.example.com" onSubmit={(v) => submitted.push(v)} />);
    await ui.press(KEY.home);
    await ui.press(KEY.delete);
    expect(ui.frame()).toContain('> loud.example.com');
    await ui.press('c');
    await ui.press(KEY.end);
    await ui.press(KEY.left.repeat(4));
    await ui.press(KEY.backspace);
    await ui.press('-');
    expect(ui.frame()).toContain('> cloud.exampl-.com');
    await ui.press(KEY.ctrlK);
    expect(ui.frame()).toContain('> cloud.exampl-');
    await ui.press(' oops');
    await ui.press(KEY.ctrlW);
    expect(ui.frame()).toContain('> cloud.exampl-');
    expect(ui.frame()).not.toContain('oops');
    await ui.press(KEY.backspace.repeat(8));
    await ui.press('api');
    await ui.press(KEY.ctrlA);
    await ui.press('x.');
    await ui.press(KEY.ctrlE);
    await ui.press(KEY.enter);
    expect(submitted).toEqual(['x.cloud.api']);
    await ui.press(KEY.ctrlU);
    expect(ui.frame().trim()).toBe('>');
    ui.unmount();
  });

  it('Tab asks the field to complete the line at the cursor', async () => {
    const ui = await renderInk(
      <TextInput
        initialValue="/tm"
        complete={(line) => ({ value: `${line.value}p/`, cursor: line.value.length + 2 })}
        onSubmit={() => undefined}
      />,
    );
    await ui.press(KEY.tab);
    expect(ui.frame()).toContain('> /tmp/');
    ui.unmount();
  });
});
