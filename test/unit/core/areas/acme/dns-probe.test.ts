/** What a DNS answer's header says (response, authoritative, rcode), on built headers (no server). */
import { describe, expect, it } from 'vitest';
import { decodeHeader } from '../../../../../src/core/areas/acme/dns-probe.js';

describe('DNS header', () => {
  it('decodes the header flags', () => {
    const header = Buffer.from([0x12, 0x34, 0x84, 0x03, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(decodeHeader(header)).toEqual({
      id: 0x1234,
      response: true,
      authoritative: true,
      rcode: 'NXDOMAIN',
      answers: 0,
    });
  });

  it.each([
    [0x8400, { response: true, authoritative: true, rcode: 'NOERROR' }],
    [0x8000, { response: true, authoritative: false, rcode: 'NOERROR' }],
    [0x8002, { response: true, authoritative: false, rcode: 'SERVFAIL' }],
    [0x8005, { response: true, authoritative: false, rcode: 'REFUSED' }],
    [0x8409, { response: true, authoritative: true, rcode: 'NOTAUTH' }],
    [0x840a, { response: true, authoritative: true, rcode: 'NOTZONE' }],
    [0x000f, { response: false, authoritative: false, rcode: 'RCODE15' }],
  ])('flags %s', (flags, expected) => {
    const header = Buffer.alloc(12);
    header.writeUInt16BE(flags, 2);
    header.writeUInt16BE(2, 6);
    expect(decodeHeader(header)).toEqual({ id: 0, answers: 2, ...expected });
  });

  it('refuses an answer shorter than a header', () => {
    expect(() => decodeHeader(Buffer.alloc(11))).toThrow(expect.objectContaining({ code: 'malformed' }));
  });
});
