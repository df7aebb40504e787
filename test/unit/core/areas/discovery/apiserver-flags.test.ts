/** The service-account issuer flags of the control planes, judged on fixtures (no cluster). */
import { describe, expect, it } from 'vitest';
import {
  judgeFlags,
  kubeadmExtraArgs,
  parseCommandFlags,
  type ControlPlane,
} from '../../../../../src/core/areas/discovery/apiserver-flags.js';

const ISSUER = 'https://oidc.example.com/cluster1';
const STS = 'sts.amazonaws.com';
const GOOD: Record<string, string[]> = {
  'service-account-issuer': [ISSUER, 'https://kubernetes.default.svc.cluster.local'],
  'service-account-jwks-uri': [`${ISSUER}/openid/v1/jwks`],
  'api-audiences': [`https://kubernetes.default.svc.cluster.local,${STS}`],
};
const flags = (over: Record<string, string[] | undefined> = {}) =>
  new Map(Object.entries({ ...GOOD, ...over }).filter((e): e is [string, string[]] => e[1] !== undefined));
const plane = (node: string, over: Record<string, string[] | undefined> = {}): ControlPlane => ({
  node,
  flags: flags(over),
});

describe('flag parsing', () => {
  it('reads repeated and spaced flags from a command line', () => {
    const flags = parseCommandFlags([
      'kube-apiserver',
      '--service-account-issuer=a',
      '--service-account-issuer',
      'b',
      '--api-audiences=x,y',
      '--profiling',
    ]);
    expect(flags.get('service-account-issuer')).toEqual(['a', 'b']);
    expect(flags.get('api-audiences')).toEqual(['x,y']);
    expect(flags.get('profiling')).toEqual(['']);
  });

  it('reads extraArgs in both kubeadm forms', () => {
    expect(
      kubeadmExtraArgs({ apiServer: { extraArgs: { 'service-account-issuer': 'a' } } }).get('service-account-issuer'),
    ).toEqual(['a']);
    expect(
      kubeadmExtraArgs({
        apiServer: {
          extraArgs: [
            { name: 'service-account-issuer', value: 'a' },
            { name: 'service-account-issuer', value: 'b' },
          ],
        },
      }).get('service-account-issuer'),
    ).toEqual(['a', 'b']);
    expect(kubeadmExtraArgs({}).size).toBe(0);
  });
});

describe('judgeFlags', () => {
  it.each<
    [
      string,
      ControlPlane[],
      Map<string, string[]> | undefined,
      string | undefined,
      { failures: RegExp[]; warnings: RegExp[] },
    ]
  >([
    [
      'every plane and kubeadm-config agree with the public issuer',
      [plane('cp-1'), plane('cp-2')],
      flags(),
      ISSUER,
      { failures: [], warnings: [] },
    ],
    [
      'the audiences in another order and spacing are the same',
      [plane('cp-1'), plane('cp-2', { 'api-audiences': [`${STS} , https://kubernetes.default.svc.cluster.local`] })],
      undefined,
      ISSUER,
      { failures: [], warnings: [] },
    ],
    [
      'one plane with another issuer',
      [plane('cp-1'), plane('cp-2', { 'service-account-issuer': ['https://kubernetes.default.svc.cluster.local'] })],
      undefined,
      ISSUER,
      {
        failures: [/disagree on --service-account-issuer: cp-1: .*; cp-2: /, /^cp-2: --service-account-issuer lacks/],
        warnings: [],
      },
    ],
    [
      'the public issuer second: new tokens carry the other',
      [plane('cp-1', { 'service-account-issuer': ['https://kubernetes.default.svc.cluster.local', ISSUER] })],
      undefined,
      ISSUER,
      { failures: [], warnings: [/^cp-1: .* is not the first --service-account-issuer/] },
    ],
    [
      'no key set URL',
      [plane('cp-1', { 'service-account-jwks-uri': undefined })],
      undefined,
      ISSUER,
      { failures: [/^cp-1: --service-account-jwks-uri is unset/], warnings: [] },
    ],
    [
      'another key set URL',
      [plane('cp-1', { 'service-account-jwks-uri': ['https://elsewhere.test/jwks'] })],
      undefined,
      ISSUER,
      { failures: [/is https:\/\/elsewhere\.test\/jwks, not/], warnings: [] },
    ],
    [
      'no STS audience',
      [plane('cp-1', { 'api-audiences': ['https://kubernetes.default.svc.cluster.local'] })],
      undefined,
      ISSUER,
      { failures: [/^cp-1: --api-audiences lacks sts\.amazonaws\.com/], warnings: [] },
    ],
    [
      'a hand edit kubeadm-config does not have',
      [plane('cp-1')],
      flags({ 'api-audiences': undefined }),
      ISSUER,
      { failures: [], warnings: [/^--api-audiences on cp-1 .* is not in kubeadm-config/] },
    ],
    [
      'a value kubeadm-config has otherwise',
      [plane('cp-1')],
      flags({ 'service-account-jwks-uri': ['https://old.test/jwks'] }),
      ISSUER,
      {
        failures: [],
        warnings: [
          /^--service-account-jwks-uri on cp-1 .* is not what is in \(https:\/\/old\.test\/jwks\) kubeadm-config/,
        ],
      },
    ],
    [
      'without an issuer URL only the planes are compared',
      [plane('cp-1', { 'api-audiences': undefined }), plane('cp-2', { 'api-audiences': undefined })],
      undefined,
      undefined,
      { failures: [], warnings: [] },
    ],
    [
      'without an issuer URL, planes that disagree',
      [plane('cp-1'), plane('cp-2', { 'api-audiences': undefined })],
      undefined,
      undefined,
      { failures: [/disagree on --api-audiences: .*cp-2: \(unset\)/], warnings: [] },
    ],
  ])('%s', (_, planes, kubeadm, issuer, expected) => {
    const verdict = judgeFlags(planes, kubeadm, issuer, STS);
    expect(verdict.failures).toHaveLength(expected.failures.length);
    expected.failures.forEach((pattern, i) => expect(verdict.failures[i]).toMatch(pattern));
    expect(verdict.warnings).toHaveLength(expected.warnings.length);
    expected.warnings.forEach((pattern, i) => expect(verdict.warnings[i]).toMatch(pattern));
  });
});
