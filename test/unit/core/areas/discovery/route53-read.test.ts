/** What a refused read of the DNS API means for the role (discovery), judged on outcomes (no server). */
import { describe, expect, it } from 'vitest';
import { dnsRefusal, zoneId, type DnsReadOutcome } from '../../../../../src/core/areas/discovery/route53-read.js';

const ctx = { roleName: 'dns-role', hostedZoneId: 'Z0123', policyHint: 'attach the policy "cloudgate oidc" prints.' };
const refused = (code: string | undefined, message?: string, status = 403): DnsReadOutcome => ({
  ok: false,
  action: 'route53:ListResourceRecordSets',
  status,
  code,
  message,
});

describe('dnsRefusal', () => {
  it.each<[string, DnsReadOutcome, RegExp, string]>([
    [
      'AccessDenied',
      refused('AccessDenied', 'not authorized'),
      /lacks DNS permissions/,
      'route53:ChangeResourceRecordSets',
    ],
    ['AccessDeniedException', refused('AccessDeniedException'), /lacks DNS permissions/, ctx.policyHint],
    [
      'NoSuchHostedZone',
      refused('NoSuchHostedZone', 'No hosted zone found', 404),
      /knows no hosted zone Z0123/,
      'cluster_issuer_acme_route53_hosted_zone_id',
    ],
    [
      'InvalidInput',
      refused('InvalidInput', 'bad id', 400),
      /refused the hosted zone id Z0123/,
      'Z0123456789ABCDEFGHIJ',
    ],
    ['SignatureDoesNotMatch', refused('SignatureDoesNotMatch'), /temporary credentials/, 'partition'],
    ['InvalidClientTokenId', refused('InvalidClientTokenId'), /temporary credentials/, 'CLOUDGATE_STS_ENDPOINT'],
    ['ExpiredToken', refused('ExpiredToken'), /temporary credentials/, 'partition'],
    [
      'another code',
      refused('Throttling', 'Rate exceeded', 400),
      /refused route53:ListResourceRecordSets: Throttling \("Rate exceeded"\)/,
      'Retry later',
    ],
    [
      'no error document',
      refused(undefined, undefined, 502),
      /status 502 without an error document/,
      'CLOUDGATE_ROUTE53_ENDPOINT',
    ],
  ])('%s', (_, outcome, message, advice) => {
    const result = dnsRefusal(outcome, ctx);
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(message);
    expect(result.advice).toContain(advice);
    expect(result.facts).toEqual({
      action: outcome.action,
      status: outcome.status,
      code: outcome.code,
      awsMessage: outcome.message,
    });
  });

  it.each([
    ['Z0123', 'Z0123'],
    ['/hostedzone/Z0123', 'Z0123'],
  ])('zoneId(%s) is %s', (id, expected) => {
    expect(zoneId(id)).toBe(expected);
  });
});
