import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSecretsForTests, registerSecret } from '../../../../src/core/secrets.js';
import { escapeLabelValue, renderBuildInfo, renderPrometheus } from '../../../../src/ui/text/prometheus.js';
import { fullReport, outcome } from '../../../helpers/fixture-run.js';
import { AREA_METRICS } from '../../../../src/core/areas/index.js';

const finishedAt = new Date('2026-01-01T00:00:00Z');

function promtoolCheck(text: string) {
  return spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
}

/** `name{labels} value` lines as a map, for asserting named values. */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    map.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return map;
}

describe('prometheus exposition', () => {
  afterEach(() => clearSecretsForTests());

  it('passes promtool check metrics, with every family the exporter documents', () => {
    const text = renderPrometheus({ report: fullReport(), finishedAt, version: '1.2.3', areaMetrics: AREA_METRICS });
    const result = promtoolCheck(text);
    expect(result.error).toBeUndefined();
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(promtoolCheck(renderBuildInfo('1.2.3')).status).toBe(0);
  });

  it('has one status series per status, 1 for the current one, and durations in seconds', () => {
    const s = samples(
      renderPrometheus({ report: fullReport(), finishedAt, version: '1.2.3', areaMetrics: AREA_METRICS }),
    );
    expect(s.get('cloudgate_check_status{group="kube",id="kube.wildcard-secret",status="fail"}')).toBe(1);
    expect(s.get('cloudgate_check_status{group="kube",id="kube.wildcard-secret",status="ok"}')).toBe(0);
    expect(s.get('cloudgate_check_duration_seconds{group="signin",id="signin.api"}')).toBe(0.012);
    expect(s.get('cloudgate_signin_success')).toBe(1);
    expect(s.get('cloudgate_signin_step_duration_seconds{step="exchange"}')).toBe(0.012);
    expect(s.has('cloudgate_signin_step_duration_seconds{step="idp-token"}')).toBe(false);
    expect(s.get('cloudgate_last_run_timestamp_seconds')).toBe(finishedAt.getTime() / 1000);
    expect(s.get('cloudgate_run_duration_seconds')).toBe(0.812);
    expect(s.get('cloudgate_build_info{version="1.2.3"}')).toBe(1);
  });

  it('reports token expiries by the check that obtained them, from the typed tokenExpiresAt (never details)', () => {
    const s = samples(renderPrometheus({ report: fullReport(), finishedAt, version: '1', areaMetrics: AREA_METRICS }));
    expect(s.get('cloudgate_token_expiry_timestamp_seconds{token="signin.exchange"}')).toBe(
      finishedAt.getTime() / 1000 + 300,
    );
    const untyped = {
      ...fullReport(),
      checks: [outcome('signin.scope', 'ok', { expires_at: '2027-01-01T01:00:00Z' })],
    };
    expect(
      samples(renderPrometheus({ report: untyped, finishedAt, version: '1', areaMetrics: AREA_METRICS })).has(
        'cloudgate_token_expiry_timestamp_seconds{token="signin.scope"}',
      ),
    ).toBe(false);
    expect(s.get('cloudgate_token_expiry_timestamp_seconds{token="signin.federated"}')).toBe(
      Date.parse('2027-01-01T00:00:00Z') / 1000,
    );
  });

  it('signin_success is 0 when a step fails and absent when the chain was not tried', () => {
    const failing = fullReport();
    failing.checks = failing.checks.map((c) => (c.id === 'signin.scope' ? { ...c, status: 'fail' } : c));
    expect(
      samples(renderPrometheus({ report: failing, finishedAt, version: '1', areaMetrics: AREA_METRICS })).get(
        'cloudgate_signin_success',
      ),
    ).toBe(0);
    const skipped = { ...fullReport(), checks: [outcome('signin.exchange', 'skip'), outcome('signin.api', 'skip')] };
    expect(
      samples(renderPrometheus({ report: skipped, finishedAt, version: '1', areaMetrics: AREA_METRICS })).has(
        'cloudgate_signin_success',
      ),
    ).toBe(false);
  });

  it('shows the control and bidi characters of a file name as codes in its label (no raw ESC reaches whoever reads the metrics)', () => {
    const report = {
      ...fullReport(),
      checks: [
        outcome('certificate.file', 'ok', undefined, {
          certificates: [
            {
              source: '/etc/ssl/\u001b]0;owned\u0007evil\u202e.pem',
              subject: 'CN=x',
              notAfter: '2030-01-01T00:00:00Z',
            },
          ],
        }),
      ],
    };
    const text = renderPrometheus({ report, finishedAt, version: '1', areaMetrics: AREA_METRICS });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('source="/etc/ssl/\\\\x1b]0;owned\\\\x07evil\\\\u202e.pem"');
    expect(promtoolCheck(text).status).toBe(0);
  });

  it('escapes label values per the exposition format and never carries a registered secret', () => {
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    registerSecret('s3cr3t-client-value');
    const report = {
      ...fullReport(),
      checks: [
        outcome('tls.host', 'ok', undefined, {
          certificates: [{ source: 'h:443', subject: 'CN=s3cr3t-client-value', notAfter: '2030-01-01T00:00:00Z' }],
        }),
      ],
    };
    const text = renderPrometheus({ report, finishedAt, version: '1', areaMetrics: AREA_METRICS });
    expect(text).not.toContain('s3cr3t-client-value');
    expect(text).toContain('subject="CN=[redacted]"');
    expect(promtoolCheck(text).status).toBe(0);
  });
});
