import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../../src/core/doctor/types.js';
import { clearSecretsForTests, registerSecret } from '../../../../src/core/secrets.js';
import { renderJson } from '../../../../src/ui/text/json.js';
import { renderText, type TextOptions } from '../../../../src/ui/text/text.js';
import type { CheckOutcome, SkipReason } from '../../../../src/core/doctor/types.js';

const report = (checks: DoctorReport['checks']): DoctorReport => ({
  schema: 'cloudgate.doctor/v1',
  durationMs: 5,
  summary: { ok: 0, warn: 0, fail: 0, skip: 0 },
  checks,
});

const outcome = (
  id: string,
  status: 'ok' | 'warn' | 'fail' | 'skip',
  message: string,
  advice?: string,
  reason?: SkipReason,
): CheckOutcome => ({
  id,
  group: id.split('.')[0]!,
  title: id,
  status,
  message,
  advice,
  durationMs: 3,
  ...(reason ? { reason } : {}),
});

const titles = { signin: 'Federated sign-in chain', inventory: 'Inventory', kube: 'Cluster (kubectl)' };
const plain: TextOptions = { verbose: false, color: false, titles };

describe('text report', () => {
  afterEach(() => clearSecretsForTests());

  it('shows one line per group with the worst status, and details only for problems', () => {
    const text = renderText(
      report([
        outcome('signin.exchange', 'ok', 'broker token issued'),
        outcome('signin.federated', 'fail', 'identity service said 401', 'check the mapping'),
        outcome('inventory.valid', 'ok', 'no problems'),
      ]),
      plain,
    );
    expect(text).toContain('[✗] Federated sign-in chain (1 ok, 1 fail)');
    expect(text).toContain('[✓] Inventory (1 ok)');
    expect(text).toContain('identity service said 401');
    expect(text).toContain('→ check the mapping');
    expect(text).not.toContain('broker token issued');
    expect(text.trimEnd().endsWith('! Found issues in 1 group.\n3 checks: 2 ok, 0 warn, 1 fail, 0 skipped.')).toBe(
      true,
    );
  });

  it('shows every check with --verbose and says when nothing is wrong', () => {
    const text = renderText(report([outcome('inventory.valid', 'ok', 'no problems')]), { verbose: true, color: false });
    expect(text).toContain('no problems');
    expect(text).toContain('No issues found.');
    expect(text).not.toContain('\x1b[');
  });

  it('does not call a run of nothing but skips "no issues"', () => {
    const text = renderText(report([outcome('signin.exchange', 'skip', 'not configured')]), {
      verbose: false,
      color: false,
    });
    expect(text).not.toContain('No issues found');
    expect(text).toContain('Nothing was checked');
  });

  it('lists the checks Ctrl+C stopped without --verbose, instead of an unrelated skip reason', () => {
    const text = renderText(
      report([
        outcome('tls.a.example.com', 'ok', 'chain trusted'),
        outcome('tls.catalog', 'skip', 'No service catalog: signin.scope did not run.'),
        outcome('tls.b.example.com', 'skip', 'Not run: interrupted.', undefined, {
          code: 'interrupted',
          text: 'Run the doctor again.',
        }),
      ]),
      { verbose: false, color: false },
    );
    expect(text).toMatch(/- tls\.b\.example\.com: Not run: interrupted\./);
    expect(text).not.toContain('No service catalog');
    expect(text).not.toContain('chain trusted');
    expect(text).toContain('Interrupted: 1 check was not run');
  });

  it('never prints a registered secret, in text or JSON', () => {
    registerSecret('s3cr3t-value-123');
    const r = report([outcome('signin.exchange', 'fail', 'server echoed s3cr3t-value-123 back')]);
    expect(renderText(r, { verbose: true, color: false })).not.toContain('s3cr3t-value-123');
    expect(renderJson(r)).not.toContain('s3cr3t-value-123');
    expect(JSON.parse(renderJson(r)).checks[0].message).toContain('[redacted]');
  });

  it('lists an interrupted check by its reason code, whatever its message says', () => {
    const text = renderText(
      report([
        outcome('tls.a', 'ok', 'fine'),
        outcome('tls.b', 'skip', 'stopped by the operator', undefined, {
          code: 'interrupted',
          text: 'Run the doctor again.',
        }),
      ]),
      plain,
    );
    expect(text).toContain('tls.b: stopped by the operator');
    expect(text).toContain('Interrupted: 1 check was not run');
  });

  it('gives a group that checked nothing the reason that applies to most of its checks, one line per reason', () => {
    const noContext: SkipReason = { code: 'no-cluster', text: 'kubectl has no current context; pass --context NAME.' };
    const text = renderText(
      report([
        outcome('kube.kubernetes', 'skip', 'Only needed for route53 auth kubernetes.'),
        outcome('kube.crd-version', 'skip', 'Cluster not checked: no context.', undefined, noContext),
        outcome('kube.issuer', 'skip', 'Cluster not checked: no context.', undefined, noContext),
        outcome('kube.certificates', 'skip', 'Cluster not checked: no context.', undefined, noContext),
        outcome('kube.ingress-secrets', 'skip', 'Cluster not checked: no context.', undefined, noContext),
      ]),
      plain,
    );
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('[-] Cluster (kubectl)'));
    expect(lines[at + 1]).toBe('    No cluster (4 checks): kubectl has no current context; pass --context NAME.');
    expect(lines[at + 2]).toBe('    Does not apply: Only needed for route53 auth kubernetes.');
  });

  it('says a not-configured reason once when its text is the message itself (no "X → X")', () => {
    const why = 'No supplied wildcard: the inventory does not set one.';
    const text = renderText(
      report([outcome('kube.wildcard-secret', 'skip', why, undefined, { code: 'not-configured', text: why })]),
      plain,
    );
    expect(text).toContain(`Not configured: ${why}`);
    expect(text).not.toContain('→');
  });

  it('never offers a step skipped as not needed as the reason of a group stopped for want of settings', () => {
    const text = renderText(
      report([
        outcome('signin.idp-token', 'skip', 'No subject token.', undefined, {
          code: 'not-configured',
          text: 'Set subject_token.',
        }),
        outcome('signin.exchange', 'skip', 'Missing settings: broker_url, realm.', undefined, {
          code: 'not-configured',
          text: 'Set broker_url, realm.',
        }),
        outcome('signin.claims', 'skip', 'Not run: signin.exchange was skipped.', undefined, {
          code: 'not-configured',
          text: 'Set broker_url, realm.',
        }),
      ]),
      plain,
    );
    expect(text).toContain(
      '    Not configured (2 checks): Missing settings: broker_url, realm. → Set broker_url, realm.',
    );
    expect(text).toContain('    Not configured: No subject token. → Set subject_token.');
    expect(text).not.toContain('Not needed');
  });

  it('says plainly that nothing was checked, and what to set, from the not-configured reasons', () => {
    const text = renderText(
      report([
        outcome('signin.exchange', 'skip', 'The sign-in chain is not configured.', undefined, {
          code: 'not-configured',
          text: 'Set CLOUDGATE_BROKER_URL.',
        }),
        outcome('discovery.document', 'skip', 'No issuer URL given.', undefined, {
          code: 'not-configured',
          text: 'Give --issuer-url URL.',
        }),
      ]),
      plain,
    );
    expect(text).toContain(
      '! Nothing was checked: every check was skipped. To check something: Set CLOUDGATE_BROKER_URL. Give --issuer-url URL.',
    );
  });

  it('names a group asked for with --only that checked nothing, when others did check', () => {
    const checks = [
      outcome('inventory.valid', 'ok', 'fine'),
      outcome('signin.exchange', 'skip', 'not configured', undefined, {
        code: 'not-configured',
        text: 'Set broker_url.',
      }),
    ];
    expect(renderText(report(checks), { ...plain, requested: ['inventory', 'signin'] })).toContain(
      '! Nothing was checked in signin',
    );
    expect(renderText(report(checks), { ...plain, requested: ['inventory'] })).not.toContain('Nothing was checked');
  });

  it('wraps to the width at word boundaries, continuation indented, and not at all without a width', () => {
    const long =
      'the identity service answered 401 Unauthorized because the mapping of the identity provider has no rule for the group';
    const checks = [
      outcome(
        'signin.federated',
        'fail',
        long,
        'check https://keystone.example.com/v3/OS-FEDERATION/mappings/a-very-long-mapping-name-here',
      ),
    ];
    const wrapped = renderText(report(checks), { ...plain, width: 40 }).split('\n');
    const words = (lines: string[]) => lines.join(' ').split(/\s+/).filter(Boolean);
    const unwrapped = renderText(report(checks), plain).split('\n');
    expect(words(wrapped)).toEqual(words(unwrapped));
    for (const line of wrapped) {
      // Only a single word longer than the width (the URL) may stick out.
      if (line.length > 40)
        expect(
          line
            .trim()
            .split(' ')
            .some((w) => w.length > 40 - 8),
        ).toBe(true);
    }
    // The check's line continues under its text, six columns in: no line starts mid-word at the left edge.
    const first = wrapped.findIndex((l) => l.startsWith('    ✗ signin.federated:'));
    expect(wrapped[first + 1]).toMatch(/^ {6}\S/);
    expect(wrapped.slice(first + 1, first + 4).every((l) => l.startsWith('      '))).toBe(true);
    expect(unwrapped.some((l) => l.includes(long))).toBe(true);
  });

  it('ends with a newline', () => {
    expect(
      renderText(report([outcome('inventory.valid', 'ok', 'fine')]), { ...plain, width: 30 }).endsWith('.\n'),
    ).toBe(true);
  });
});
