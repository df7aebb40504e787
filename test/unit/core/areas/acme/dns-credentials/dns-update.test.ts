/** The DNS UPDATE message and what the answer's rcode and TSIG error say, on built messages (no server). */
import { describe, expect, it } from 'vitest';
import { buildUpdate } from '../../../../../../src/core/areas/acme/dns-credentials/dns-update.js';
import { readAnswer, readRecords, signQuery, type TsigKey } from '../../../../../../src/core/areas/acme/dns-probe.js';

const KEY: TsigKey = { name: 'k', algorithm: 'HMACSHA256', secret: Buffer.alloc(32).toString('base64') };
const signMessage = (message: Buffer, key: TsigKey, time: number) => signQuery(message, key, time).signed;
/** How the update reads an answer to its signed request (the MAC is not the point here). */
const decode = (message: Buffer, id = 0x1234) => {
  const read = readAnswer(message, id, { key: KEY, mac: Buffer.alloc(32) });
  return read && { rcode: read.header.rcode, tsigError: read.tsig!.error };
};

/** A signed UPDATE turned into an answer: the QR bit, `rcode` in the header and `tsigError` in the TSIG record. */
function answer(rcode: number, tsigError = 0): Buffer {
  const signed = signMessage(
    buildUpdate(0x1234, 'example.test', '_cloudgate-probe.example.test', 'v', 'add'),
    KEY,
    1_700_000_000,
  );
  signed.writeUInt16BE(0x8000 | (5 << 11) | rcode, 2);
  // The TSIG record ends with its error and the length of "other data" (0).
  signed.writeUInt16BE(tsigError, signed.length - 4);
  return signed;
}

describe('DNS UPDATE message', () => {
  it('builds an UPDATE with one zone and one update record, then a TSIG record', () => {
    const message = buildUpdate(0x1234, 'example.test', '_cloudgate-probe.example.test', 'v', 'add');
    expect(message.readUInt16BE(2) >> 11).toBe(5); // opcode UPDATE
    expect([4, 6, 8, 10].map((at) => message.readUInt16BE(at))).toEqual([1, 0, 1, 0]);
    const signed = signMessage(message, KEY, 1_700_000_000);
    expect(signed.readUInt16BE(0)).toBe(0x1234);
    expect(signed.readUInt16BE(10)).toBe(1);
    const records = readRecords(signed);
    expect(records.map((r) => r.type)).toEqual([16, 250]); // the TXT update, then the TSIG record
    expect(records.at(-1)!.name).toBe('k');
    // The request itself is no answer (no QR bit): the exchange keeps waiting for one.
    expect(decode(signed)).toBeUndefined();
  });

  it('deletes with class NONE and a zero TTL, adds with class IN', () => {
    const classAndTtl = (m: Buffer) => {
      // After the record's name (its text length + 2 in wire form) and its type come the class and the TTL.
      const at = m.indexOf(Buffer.from('_cloudgate-probe')) - 1 + '_cloudgate-probe.example.test'.length + 2 + 2;
      return [m.readUInt16BE(at), m.readUInt32BE(at + 2)];
    };
    expect(classAndTtl(buildUpdate(1, 'example.test', '_cloudgate-probe.example.test', 'v', 'add'))).toEqual([1, 60]);
    expect(classAndTtl(buildUpdate(1, 'example.test', '_cloudgate-probe.example.test', 'v', 'delete'))).toEqual([
      254, 0,
    ]);
  });
});

describe('the rcode and the TSIG error of an answer to the update', () => {
  it.each([
    [0, 'NOERROR'],
    [2, 'SERVFAIL'],
    [3, 'NXDOMAIN'],
    [5, 'REFUSED'],
    [8, 'NXRRSET'],
    [9, 'NOTAUTH'],
    [10, 'NOTZONE'],
    [15, 'RCODE15'],
  ])('rcode %i is %s', (code, name) => {
    expect(decode(answer(code))).toEqual({ rcode: name, tsigError: 'NOERROR' });
  });

  it.each([
    [0, 'NOERROR'],
    [16, 'BADSIG'],
    [17, 'BADKEY'],
    [18, 'BADTIME'],
    [22, 'BADTRUNC'],
    [99, 'TSIG error 99'],
  ])('TSIG error %i is %s', (code, name) => {
    expect(decode(answer(9, code))).toMatchObject({ rcode: 'NOTAUTH', tsigError: name });
    expect(decode(answer(9, code), 0x4321)).toBeUndefined(); // another message's answer
  });

  it('an answer without a TSIG record has no TSIG error; a short or cut answer is malformed', () => {
    const unsigned = buildUpdate(7, 'example.test', '_cloudgate-probe.example.test', 'v', 'add');
    unsigned.writeUInt16BE(0x8000 | (5 << 11) | 5, 2);
    expect(decode(unsigned, 7)).toEqual({ rcode: 'REFUSED', tsigError: 'NOERROR' });
    expect(() => decode(Buffer.alloc(11))).toThrow(expect.objectContaining({ code: 'malformed' }));
    expect(() => decode(answer(0).subarray(0, 20))).toThrow(expect.objectContaining({ code: 'malformed' }));
  });
});
