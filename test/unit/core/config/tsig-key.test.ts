import { describe, expect, it } from 'vitest';
import {
  ALGORITHM,
  KEY_NAME,
  SECRET,
  fillFromKeyFile,
  secretFromFile,
  tsigFindings,
} from '../../../../src/core/config/tsig-key.js';

const KEY_FILE =
  'key "acme-update" {\n\talgorithm hmac-sha256;\n\tsecret "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXg=";\n};\n';

describe('a BIND key file given as the TSIG secret', () => {
  it('takes name and algorithm from the file when neither is given', () => {
    const { secret, key } = secretFromFile(KEY_FILE, 'tsig.key');
    const set: Record<string, unknown> = { [SECRET]: secret };
    fillFromKeyFile(set, {}, key);
    expect(set).toMatchObject({ [KEY_NAME]: 'acme-update', [ALGORITHM]: 'HMACSHA256' });
    expect(tsigFindings(set, key).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('compares a given algorithm with the file, and guesses no default when it is unset', () => {
    const { secret, key } = secretFromFile(KEY_FILE, 'tsig.key');
    const mismatch = tsigFindings({ [SECRET]: secret, [KEY_NAME]: 'acme-update', [ALGORITHM]: 'HMACSHA512' }, key);
    expect(mismatch.filter((f) => f.rule === 'rfc2136-tsig-key-mismatch').map((f) => f.variable)).toEqual([ALGORITHM]);
    // Unset: the platform has no default (that is its own finding), so nothing is compared with a guess.
    const unset = tsigFindings({ [SECRET]: secret, [KEY_NAME]: 'acme-update' }, key);
    expect(unset.filter((f) => f.rule === 'rfc2136-tsig-key-mismatch')).toEqual([]);
  });

  it('compares only with the key file this run read: another run with the same secret is not told about it', () => {
    const { secret, key } = secretFromFile(KEY_FILE, 'tsig.key');
    const values = { [SECRET]: secret, [KEY_NAME]: 'other-key', [ALGORITHM]: 'HMACSHA256' };
    expect(tsigFindings(values, key).map((f) => f.rule)).toEqual([
      'rfc2136-tsig-key-file',
      'rfc2136-tsig-key-mismatch',
    ]);
    // A doctor run (or the next run of a long-running process) on the same values read no key file.
    expect(tsigFindings(values)).toEqual([]);
    const set: Record<string, unknown> = { [SECRET]: secret };
    fillFromKeyFile(set, {});
    expect(set).toEqual({ [SECRET]: secret });
    // Nor is a secret the answers replaced after the key file was read compared with the file.
    expect(tsigFindings({ ...values, [SECRET]: 'b3RoZXItc2VjcmV0' }, key)).toEqual([]);
  });

  it('refuses a whole key statement stored as the secret, and a secret that is not base64', () => {
    expect(tsigFindings({ [SECRET]: KEY_FILE }).map((f) => f.rule)).toEqual(['rfc2136-tsig-secret']);
    expect(tsigFindings({ [SECRET]: 'not base64!' }).map((f) => f.rule)).toEqual(['rfc2136-tsig-secret']);
  });
});
