import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../../src/core/child-env.js';

const ENV = {
  PATH: '/usr/bin',
  HOME: '/root',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  KUBECONFIG: '/k',
  https_proxy: 'http://proxy:3128',
  NO_PROXY: 'localhost',
  OS_PASSWORD: 'p',
  OS_CLIENT_SECRET: 'c',
  OS_TOKEN: 't',
  CLOUDGATE_ACME_EAB_SECRET: 's',
  CLOUDGATE_CLIENT_SECRET: 's2',
  AWS_SECRET_ACCESS_KEY: 'a',
  GITHUB_TOKEN: 'g',
  ANSIBLE_CONFIG: '/a.cfg',
  VAULT_ADDR: 'https://v',
  VAULT_TOKEN: 'vt',
};

describe('the environment of a child', () => {
  it('kubectl gets PATH, HOME, locale, proxies and KUBECONFIG, and no secret nor Ansible/Vault variable', () => {
    expect(Object.keys(childEnvironment(ENV, 'kubectl')).sort()).toEqual([
      'HOME',
      'KUBECONFIG',
      'LANG',
      'LC_ALL',
      'NO_PROXY',
      'PATH',
      'https_proxy',
    ]);
  });

  it("a vault password script also gets ANSIBLE_* and VAULT_*, never cloudgate's or OpenStack's secrets", () => {
    const env = childEnvironment(ENV, 'vault-script');
    expect(env).toMatchObject({
      ANSIBLE_CONFIG: '/a.cfg',
      VAULT_ADDR: 'https://v',
      VAULT_TOKEN: 'vt',
      PATH: '/usr/bin',
    });
    for (const name of [
      'OS_PASSWORD',
      'OS_CLIENT_SECRET',
      'OS_TOKEN',
      'CLOUDGATE_ACME_EAB_SECRET',
      'CLOUDGATE_CLIENT_SECRET',
      'AWS_SECRET_ACCESS_KEY',
      'GITHUB_TOKEN',
      'KUBECONFIG',
    ]) {
      expect(env).not.toHaveProperty(name);
    }
  });

  it('CLOUDGATE_CHILD_ENV adds names, except those that look like secrets', () => {
    const env = childEnvironment(
      {
        ...ENV,
        AWS_PROFILE: 'prod',
        CLOUDGATE_CHILD_ENV: 'AWS_PROFILE, AWS_SECRET_ACCESS_KEY,OS_PASSWORD,GITHUB_TOKEN',
      },
      'kubectl',
    );
    expect(env.AWS_PROFILE).toBe('prod');
    for (const name of ['AWS_SECRET_ACCESS_KEY', 'OS_PASSWORD', 'GITHUB_TOKEN', 'CLOUDGATE_CHILD_ENV'])
      expect(env).not.toHaveProperty(name);
  });
});
