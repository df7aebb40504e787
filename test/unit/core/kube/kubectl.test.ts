import { describe, expect, it } from 'vitest';
import { KubectlError, withOptions } from '../../../../src/core/kube/kubectl.js';

describe('withOptions', () => {
  it('puts options before the -- that ends them', () => {
    expect(withOptions(['get', 'secret', '--', '-x'], '-o', 'json')).toEqual([
      'get',
      'secret',
      '-o',
      'json',
      '--',
      '-x',
    ]);
    expect(withOptions(['get', 'secrets'], '-o', 'json')).toEqual(['get', 'secrets', '-o', 'json']);
  });
});

describe('KubectlError advice', () => {
  const error = (stderr: string, timedOut = false) =>
    new KubectlError('kubectl get certificates failed', { exitCode: timedOut ? -1 : 1, stdout: '', stderr }, timedOut);

  it.each([
    ['a timeout', error('', true), /did not answer in time.*--timeout/],
    [
      'a refusal',
      error('Error from server (Forbidden): certificates.cert-manager.io is forbidden: User "ci" cannot list'),
      /kubectl auth can-i/,
    ],
    [
      'refused credentials',
      error('error: You must be logged in to the server (Unauthorized)'),
      /credentials were refused/,
    ],
    [
      'an unreachable API server',
      error('Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout'),
      /cannot reach the API server/,
    ],
    ['anything else', error('error: something else'), /same kubectl context/],
  ])('%s', (_name, e, advice) => {
    expect(e.advice).toMatch(advice);
  });
});
