import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../../../src/core/net/transport.js';

const via = (url: string, env: NodeJS.ProcessEnv) => proxyFor(new URL(url), env)?.href;

describe('proxyFor: the proxy of a request, from the environment', () => {
  it('takes HTTPS_PROXY for https:// and HTTP_PROXY for http://, the lower-case names first', () => {
    const env = { HTTPS_PROXY: 'http://secure.proxy:3128', HTTP_PROXY: 'http://plain.proxy:3128' };
    expect(via('https://api.example.com/', env)).toBe('http://secure.proxy:3128/');
    expect(via('http://api.example.com/', env)).toBe('http://plain.proxy:3128/');
    expect(via('https://api.example.com/', { ...env, https_proxy: 'http://lower.proxy:8080' })).toBe(
      'http://lower.proxy:8080/',
    );
    expect(via('https://api.example.com/', { ...env, https_proxy: '' })).toBeUndefined();
  });

  it('uses HTTP_PROXY for https:// too when HTTPS_PROXY is not set, and no proxy without either', () => {
    expect(via('https://api.example.com/', { HTTP_PROXY: 'http://plain.proxy:3128' })).toBe('http://plain.proxy:3128/');
    expect(via('http://api.example.com/', { HTTPS_PROXY: 'http://secure.proxy:3128' })).toBeUndefined();
    expect(via('https://api.example.com/', {})).toBeUndefined();
  });

  it('bypasses NO_PROXY hosts, their subdomains and matching ports, and everything for *', () => {
    const env = {
      HTTPS_PROXY: 'http://proxy:3128',
      NO_PROXY: 'internal.example, .svc.cluster.local,*.corp.example, 10.0.0.5:8443',
    };
    expect(via('https://internal.example/', env)).toBeUndefined();
    expect(via('https://keystone.internal.example/', env)).toBeUndefined();
    expect(via('https://keystone.svc.cluster.local/', env)).toBeUndefined();
    expect(via('https://git.corp.example/', env)).toBeUndefined();
    expect(via('https://10.0.0.5:8443/', env)).toBeUndefined();
    expect(via('https://10.0.0.5/', env)).toBe('http://proxy:3128/');
    expect(via('https://notinternal.example/', env)).toBe('http://proxy:3128/');
    expect(via('https://api.example.com/', { ...env, no_proxy: '*' })).toBeUndefined();
  });

  it('refuses a proxy setting that is not a URL, naming the variable and not its value', () => {
    for (const setting of ['user:s3cret@proxy.example:3128', 's3cret proxy']) {
      const refusal = () => proxyFor(new URL('https://api.example.com/'), { HTTPS_PROXY: setting });
      expect(refusal).toThrow(/HTTPS_PROXY .*http:\/\/proxy.example:3128/);
      expect(refusal).not.toThrow(/s3cret/);
    }
  });
});
