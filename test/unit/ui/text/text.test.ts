import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../../src/core/doctor/types.js';
import { clearSecretsForTests, registerSecret } from '../../../../src/core/secrets.js';
import { renderJson } from '../../../../src/ui/text/json.js';
import { renderText } from '../../../../src/ui/text/text.js';

const report = (checks: DoctorReport['checks']): DoctorReport => ({
  schema: 'cloudgate.doctor/v1',
  durationMs: 5,
  summary: { ok: 0, warn: 0, fail: 0, skip: 0 },
  checks,
});

const outcome = (id: string, status: 'ok' | 'warn' | 'fail' | 'skip', message: string, advice?: string) => ({
  id,
  group: id.split('.')[0],
  title: id,
  status,
  message,
  advice,
  durationMs: 3,
});

describe('text report', () => {
  afterEach(() => clearSecretsForTests());

  it('shows one line per group with the worst status, and details only for problems', () => {
    const text = renderText(
      report([
        outcome('signin.exchange', 'ok', 'broker token issued'),
        outcome('signin.federated', 'fail', 'identity service said 401', 'check the mapping'),
        outcome('inventory.valid', 'ok', 'no problems'),
      ]),
      { verbose: false, color: false },
    );
    expect(text).toContain('[✗] Federated sign-in chain (1 ok, 1 fail)');
    expect(text).toContain('[✓] Inventory (1 ok)');
    expect(text).toContain('identity service said 401');
    expect(text).toContain('→ check the mapping');
    expect(text).not.toContain('broker token issued');
    expect(text.trimEnd().endsWith('! Found issues in 1 group.\n3 checks: 2 ok, 0 warn, 1 fail, 0 skipped.')).toBe(true);
  });

  it('shows every check with --verbose and says when nothing is wrong', () => {
    const text = renderText(report([outcome('inventory.valid', 'ok', 'no problems')]), { verbose: true, color: false });
    expect(text).toContain('no problems');
    expect(text).toContain('No issues found.');
    expect(text).not.toContain('\x1b[');
  });

  it('does not call a run of nothing but skips "no issues"', () => {
    const text = renderText(report([outcome('signin.exchange', 'skip', 'not configured')]), { verbose: false, color: false });
    expect(text).not.toContain('No issues found');
    expect(text).toContain('Nothing was checked');
  });

  it('lists the checks Ctrl+C stopped without --verbose, instead of an unrelated skip reason', () => {
    const text = renderText(
      report([
        outcome('tls.a.example.com', 'ok', 'chain trusted'),
        outcome('tls.catalog', 'skip', 'No service catalog: signin.scope did not run.'),
        outcome('tls.b.example.com', 'skip', 'Not run: interrupted.'),
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
});
