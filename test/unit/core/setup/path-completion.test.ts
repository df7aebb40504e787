import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completePath } from '../../../../src/core/setup/path-completion.js';

const dir = mkdtempSync(join(tmpdir(), 'cloudgate-complete-'));
mkdirSync(join(dir, 'pki'));
for (const name of ['pki/ca.crt', 'pki/ca.key', 'pki/wildcard.pem', 'pki/.hidden']) writeFileSync(join(dir, name), '');

describe('completePath', () => {
  it('completes a unique name, and a folder with its /', () => {
    expect(completePath('pk', 2, dir)).toEqual({ value: 'pki/', cursor: 4, candidates: [] });
    expect(completePath('pki/w', 5, dir)).toEqual({ value: 'pki/wildcard.pem', cursor: 16, candidates: [] });
  });

  it('completes to what the matches share and lists them; hidden names only when asked for', () => {
    expect(completePath('pki/c', 5, dir)).toEqual({ value: 'pki/ca.', cursor: 7, candidates: ['ca.crt', 'ca.key'] });
    expect(completePath('pki/.h', 6, dir).value).toBe('pki/.hidden');
    expect(completePath('pki/', 4, dir).candidates).not.toContain('.hidden');
  });

  it('keeps file: as typed, and the text after the cursor', () => {
    expect(completePath('file:pki/w', 10, dir).value).toBe('file:pki/wildcard.pem');
    expect(completePath('pki/w tail', 5, dir)).toMatchObject({ value: 'pki/wildcard.pem tail', cursor: 16 });
  });

  it('changes nothing when nothing matches or the folder cannot be read', () => {
    expect(completePath('nope/x', 6, dir)).toEqual({ value: 'nope/x', cursor: 6, candidates: [] });
    expect(completePath('pki/zz', 6, dir)).toEqual({ value: 'pki/zz', cursor: 6, candidates: [] });
  });
});
