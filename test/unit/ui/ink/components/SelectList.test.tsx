import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { SelectList } from '../../../../../src/ui/ink/components/SelectList.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CHOICES = ['http01', 'clouddnsa', 'rfc2136', 'clouddnsb'].map((value) => ({ value, label: value }));

describe('SelectList', () => {
  it('Enter picks the choice the arrows reached, even before the list redrew (fast keys, scripts)', async () => {
    const picked: string[] = [];
    const { stdin, unmount } = render(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await wait(20);
    stdin.write('\x1b[B');
    stdin.write('\x1b[B');
    stdin.write('\r');
    await wait(20);
    expect(picked).toEqual(['rfc2136']);
    unmount();
  });

  it('a number highlights that choice; Enter picks it', async () => {
    const picked: string[] = [];
    const { stdin, lastFrame, unmount } = render(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await wait(20);
    stdin.write('4');
    await wait(20);
    expect(lastFrame()).toMatch(/> clouddnsb/);
    stdin.write('\r');
    await wait(20);
    expect(picked).toEqual(['clouddnsb']);
    unmount();
  });
});

describe('SelectList, keys arriving as one chunk', () => {
  it('two Enters in one chunk pick once; a number and Enter in one chunk pick that choice', async () => {
    const picked: string[] = [];
    const first = render(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await wait(20);
    first.stdin.write('\r\r');
    await wait(20);
    expect(picked).toEqual(['http01']);
    first.unmount();
    const second = render(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await wait(20);
    second.stdin.write('3\r');
    await wait(20);
    expect(picked).toEqual(['http01', 'rfc2136']);
    second.unmount();
  });
});
