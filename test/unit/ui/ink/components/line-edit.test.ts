import { describe, expect, it } from 'vitest';
import { applyInput, keysOf } from '../../../../../src/ui/ink/components/line-edit.js';

const at = (value: string, cursor = value.length) => ({ value, cursor });
const run = (start: ReturnType<typeof at>, ...keys: string[]) =>
  keys.reduce((line, key) => applyInput(line, key).line, start);

describe('the line editor', () => {
  it('splits raw input into keys: escape sequences, control characters, text', () => {
    expect(keysOf('ab\u001b[D\u007fc\u001b[3~\r')).toEqual(['ab', '\u001b[D', '\u007f', 'c', '\u001b[3~', '\r']);
  });

  it('Left/Right move the cursor and typing inserts there', () => {
    expect(run(at('helo'), '\u001b[D', 'l')).toEqual(at('hello', 4));
    expect(run(at('ab', 0), '\u001b[C', 'X')).toEqual(at('aXb', 2));
  });

  it('Backspace deletes before the cursor, Delete (ESC [3~) after it', () => {
    expect(run(at('abcd', 2), '\u007f')).toEqual(at('acd', 1));
    expect(run(at('abcd', 2), '\u001b[3~')).toEqual(at('abd', 2));
    expect(run(at('abcd'), '\u001b[3~')).toEqual(at('abcd'));
  });

  it('Home/End and Ctrl+A/E go to the start and the end', () => {
    expect(run(at('abc'), '\u001b[H').cursor).toBe(0);
    expect(run(at('abc'), '\u001bOH', '\u001b[F').cursor).toBe(3);
    expect(run(at('abc'), '\u0001').cursor).toBe(0);
    expect(run(at('abc', 0), '\u0005').cursor).toBe(3);
  });

  it('Ctrl+U, Ctrl+K and Ctrl+W delete to the start, to the end, and the word before the cursor', () => {
    expect(run(at('hello world', 6), '\u0015')).toEqual(at('world', 0));
    expect(run(at('hello world', 5), '\u000b')).toEqual(at('hello', 5));
    expect(run(at('hello world'), '\u0017')).toEqual(at('hello ', 6));
    expect(run(at('/etc/pki/ca.pem'), '\u0017')).toEqual(at('/etc/pki/', 9));
  });

  it('Enter submits the text typed before it; Tab is reported; Esc and Up change nothing', () => {
    expect(applyInput(at(''), 'abc\r')).toMatchObject({ line: at('abc'), submit: true });
    expect(applyInput(at('a'), '\t')).toMatchObject({ line: at('a'), tab: true, submit: false });
    expect(run(at('a'), '\u001b', '\u001b[A')).toEqual(at('a'));
  });
});
