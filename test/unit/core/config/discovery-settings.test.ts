import { describe, expect, it } from 'vitest';
import { parseRoleArn } from '../../../../src/core/config/discovery-settings.js';

describe('discovery settings', () => {
  it('parses role ARNs', () => {
    expect(parseRoleArn('arn:aws:iam::123456789012:role/dns/certmgr')).toEqual({ partition: 'aws', account: '123456789012', roleName: 'certmgr' });
    expect(parseRoleArn('arn:aws-cn:iam::123456789012:role/x')).toMatchObject({ partition: 'aws-cn' });
    expect(parseRoleArn('arn:aws:iam::1234:role/x')).toBeUndefined();
  });
});
