/** The pieces of the token service's and the DNS API's XML answers the checks read. */
import { describe, expect, it } from 'vitest';
import { awsError, xmlText } from '../../../../../src/core/areas/discovery/aws-xml.js';

describe('awsError', () => {
  it.each<[string, string, ReturnType<typeof awsError>]>([
    [
      'a query-API error',
      '<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>Not authorized to perform sts:AssumeRoleWithWebIdentity</Message></Error></ErrorResponse>',
      { code: 'AccessDenied', message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity' },
    ],
    [
      'a REST-XML error with a namespace',
      '<?xml version="1.0"?><ErrorResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><Error><Code>NoSuchHostedZone</Code><Message>No hosted zone found with ID: Z1</Message></Error></ErrorResponse>',
      { code: 'NoSuchHostedZone', message: 'No hosted zone found with ID: Z1' },
    ],
    [
      'escaped text',
      '<Error><Code>InvalidInput</Code><Message>id &quot;Z&amp;1&quot; &lt;bad&gt; &#x41;&#66;</Message></Error>',
      { code: 'InvalidInput', message: 'id "Z&1" <bad> AB' },
    ],
    ['no message', '<Error><Code>Throttling</Code></Error>', { code: 'Throttling', message: '' }],
    [
      'control characters in the text',
      '<Error><Code>Bad\u001b[2J</Code><Message>a\nb</Message></Error>',
      { code: 'Bad\\x1b[2J', message: 'a\\nb' },
    ],
    ['an error without a code', '<Error><Message>m</Message></Error>', undefined],
    [
      'a success document',
      '<AssumeRoleWithWebIdentityResponse><Credentials/></AssumeRoleWithWebIdentityResponse>',
      undefined,
    ],
    ['an HTML page', '<html><body>502 Bad Gateway</body></html>', undefined],
  ])('%s', (_, body, expected) => {
    expect(awsError(body)).toEqual(expected);
  });

  it('reads the first element of a name, with a prefix or attributes', () => {
    expect(xmlText('<a:Name x="1"> zone.test. </a:Name><Name>other</Name>', 'Name')).toBe('zone.test.');
    expect(xmlText('<Names>x</Names>', 'Name')).toBeUndefined();
  });
});
