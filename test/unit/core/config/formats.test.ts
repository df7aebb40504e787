import { describe, expect, it } from 'vitest';
import { DOMAIN, isHostName, issuerUrlProblems, parseHostPort, parseUrl } from '../../../../src/core/config/formats.js';

describe('host:port', () => {
  it('parses a name server: host:port and [IPv6]:port, a port required', () => {
    expect(parseHostPort('ns1.example.com:53')).toEqual({ ok: true, host: 'ns1.example.com', port: 53 });
    expect(parseHostPort('[2001:db8::1]:5353')).toEqual({ ok: true, host: '2001:db8::1', port: 5353 });
    expect(parseHostPort('10.0.0.1:53')).toEqual({ ok: true, host: '10.0.0.1', port: 53 });
    expect(parseHostPort('NS1.Example.com.:53')).toMatchObject({ ok: true, host: 'ns1.example.com' });
  });

  it.each([
    ['ns1.example.com', 'no-port'],
    ['ns1.example.com:', 'no-port'],
    ['[2001:db8::1]', 'no-port'],
    ['2001:db8::1:53', 'ipv6-brackets'],
    ['10.0.0.1:99999', 'port'],
    ['ns1:0', 'port'],
    ['ns1:5x', 'port'],
    ['ns1:-1', 'port'],
    ['bad host:53', 'host'],
    [':53', 'host'],
    ['[ns1.example.com]:53', 'host'],
    ['[1.2.3.4]:53', 'host'],
  ])('names what is wrong with %j: %s', (value, problem) => {
    expect(parseHostPort(value)).toMatchObject({ ok: false, problem });
  });

  it('takes a default port, and then an IPv6 address alone', () => {
    expect(parseHostPort('identity.example.com', { defaultPort: 443 })).toEqual({
      ok: true,
      host: 'identity.example.com',
      port: 443,
    });
    expect(parseHostPort('::1', { defaultPort: 443 })).toEqual({ ok: true, host: '::1', port: 443 });
    expect(parseHostPort('[::1]', { defaultPort: 443 })).toEqual({ ok: true, host: '::1', port: 443 });
    expect(parseHostPort('a:1:2', { defaultPort: 443 })).toMatchObject({ ok: false, problem: 'ipv6-brackets' });
  });

  it('takes an empty host and port 0 where the caller allows them (an address to listen on)', () => {
    const listen = { emptyHost: '0.0.0.0', lowestPort: 0 };
    expect(parseHostPort(':9464', listen)).toEqual({ ok: true, host: '0.0.0.0', port: 9464 });
    expect(parseHostPort('[::1]:0', listen)).toEqual({ ok: true, host: '::1', port: 0 });
    expect(parseHostPort('[::1]:0')).toMatchObject({ ok: false, problem: 'port' });
  });
});

describe('names and URLs', () => {
  it('tells host names and domains', () => {
    for (const name of ['identity', 'identity.example.com', 'identity.example.com.', 'svc_1.internal'])
      expect(isHostName(name), name).toBe(true);
    for (const name of ['bad host', '-lead.example.com', 'a..b', '', 'x'.repeat(64)])
      expect(isHostName(name), name).toBe(false);
    expect(DOMAIN.test('cloud.example.com')).toBe(true);
    expect(DOMAIN.test('identity')).toBe(false);
    expect(DOMAIN.test('10.0.0.1')).toBe(false);
  });

  it('parses URLs without throwing', () => {
    expect(parseUrl('https://host.example:8443/v3')?.port).toBe('8443');
    expect(parseUrl('host.example')).toBeUndefined();
  });

  it('refuses URLs that cannot be issuers', () => {
    expect(issuerUrlProblems('https://oidc.example.com/c1')).toEqual([]);
    expect(issuerUrlProblems('http://oidc.example.com')[0]).toContain('https://');
    expect(issuerUrlProblems('https://oidc.example.com/?a=b')[0]).toContain('query');
    expect(issuerUrlProblems('https://oidc.example.com/c1/')[0]).toContain('trailing slash');
    expect(issuerUrlProblems('oidc.example.com')[0]).toContain('not a URL');
  });
});
