import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TextInput } from '../../../../../src/ui/ink/components/TextInput.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('TextInput', () => {
  it('a pasted value ending in a line break is submitted, without the line break', async () => {
    const submitted: string[] = [];
    const { stdin, unmount } = render(<TextInput onSubmit={(v) => submitted.push(v)} />);
    await wait(20);
    stdin.write('ops@example.com\n');
    await wait(20);
    expect(submitted).toEqual(['ops@example.com']);
    unmount();
  });

  it('a pasted value that does not pass is kept on screen with its error, not submitted', async () => {
    const submitted: string[] = [];
    const { stdin, lastFrame, unmount } = render(<TextInput validate={(v) => (v.includes('@') ? undefined : 'not an email')} onSubmit={(v) => submitted.push(v)} />);
    await wait(20);
    stdin.write('ops\r');
    await wait(20);
    expect(submitted).toEqual([]);
    expect(lastFrame()).toContain('ops');
    expect(lastFrame()).toContain('not an email');
    unmount();
  });
});
