import { describe, expect, it } from 'vitest';
import { SelectList } from '../../../../../src/ui/ink/components/SelectList.js';
import { KEY, renderInk } from '../../../../helpers/ink.js';

const CHOICES = ['http01', 'azuredns', 'rfc2136', 'route53'].map((value) => ({ value, label: value }));

describe('SelectList', () => {
  it('Enter picks the choice the arrows reached, even before the list redrew (fast keys, scripts)', async () => {
    const picked: string[] = [];
    const ui = await renderInk(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await ui.burst(KEY.down, KEY.down, KEY.enter);
    expect(picked).toEqual(['rfc2136']);
    ui.unmount();
  });

  it('a number highlights that choice; Enter picks it', async () => {
    const picked: string[] = [];
    const ui = await renderInk(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await ui.press('4');
    expect(ui.frame()).toMatch(/> route53/);
    expect(picked).toEqual([]);
    await ui.press(KEY.enter);
    expect(picked).toEqual(['route53']);
    ui.unmount();
  });
});

describe('SelectList, keys arriving as one chunk', () => {
  it('two Enters in one chunk pick once; a number and Enter in one chunk pick that choice', async () => {
    const picked: string[] = [];
    const first = await renderInk(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await first.press('\r\r');
    expect(picked).toEqual(['http01']);
    first.unmount();
    const second = await renderInk(<SelectList choices={CHOICES} onSelect={(v) => picked.push(v)} />);
    await second.press('3\r');
    expect(picked).toEqual(['http01', 'rfc2136']);
    second.unmount();
  });
});
