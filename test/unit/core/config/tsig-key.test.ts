import { describe, expect, it } from 'vitest';
import { ALGORITHM, KEY_NAME, SECRET, fillFromKeyFile, secretFromFile, tsigFindings } from '../../../../src/core/config/tsig-key.js';

const KEY_FILE = 'key "acme-update" {\n\talgorithm hmac-sha256;\n\tsecret "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXg=";\n};\n';

describe('a BIND key file given as the TSIG secret', () => {
  it('takes name and algorithm from the file when neither is given', () => {
    const secret = secretFromFile(KEY_FILE, 'tsig.key');
    const set: Record<string, unknown> = { [SECRET]: secret };
    fillFromKeyFile(set, {});
    expect(set).toMatchObject({ [KEY_NAME]: 'acme-update', [ALGORITHM]: 'HMACSHA256' });
    expect(tsigFindings(set).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('compares a given algorithm with the file, and guesses no default when it is unset', () => {
    const secret = secretFromFile(KEY_FILE, 'tsig.key');
    const mismatch = tsigFindings({ [SECRET]: secret, [KEY_NAME]: 'acme-update', [ALGORITHM]: 'HMACSHA512' });
    expect(mismatch.filter((f) => f.rule === 'rfc2136-tsig-key-mismatch').map((f) => f.variable)).toEqual([ALGORITHM]);
    // Unset: the platform has no default (that is its own finding), so nothing is compared with a guess.
    const unset = tsigFindings({ [SECRET]: secret, [KEY_NAME]: 'acme-update' });
    expect(unset.filter((f) => f.rule === 'rfc2136-tsig-key-mismatch')).toEqual([]);
  });

  it('refuses a whole key statement stored as the secret, and a secret that is not base64', () => {
    expect(tsigFindings({ [SECRET]: KEY_FILE }).map((f) => f.rule)).toEqual(['rfc2136-tsig-secret']);
    expect(tsigFindings({ [SECRET]: 'not base64!' }).map((f) => f.rule)).toEqual(['rfc2136-tsig-secret']);
  });
});
