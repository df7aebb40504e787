import { describe, expect, it } from 'vitest';
import { CONTROL, hostileReport as report } from '../../../helpers/hostile-report.js';
import { renderText } from '../../../../src/ui/text/text.js';

describe('text report', () => {
  it('escapes every control character of titles, messages, advice and details', () => {
    const text = renderText(report, { verbose: true, color: false });
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('\\x1b[2J\\x1b]0;owned\\x07\\x9b31m');
  });

  it('keeps a quoted newline from faking a line of its own', () => {
    const text = renderText(report, { verbose: false, color: false });
    expect(text.split('\n').filter((l) => l.includes('Fake check'))).toEqual([
      expect.stringContaining('issuer is https://x'),
    ]);
  });

  it('still paints its own colours', () => {
    expect(renderText(report, { verbose: false, color: true })).toContain('\x1b[31m');
  });
});
