import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

const DEPLOY = new URL('../../deploy/', import.meta.url);

/** The PrometheusRule's spec is a plain rule file: written out for promtool. */
function ruleFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-rules-'));
  const rule = parse(readFileSync(new URL('prometheusrule.yaml', DEPLOY), 'utf8'));
  writeFileSync(join(dir, 'rules.yaml'), stringify(rule.spec));
  copyFileSync(new URL('alerts.promtool.yml', import.meta.url), join(dir, 'alerts.promtool.yml'));
  return dir;
}

describe('alert rules', () => {
  it('pass promtool check rules', () => {
    const dir = ruleFolder();
    const result = spawnSync('promtool', ['check', 'rules', join(dir, 'rules.yaml')], { encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('SUCCESS: 7 rules found');
    expect(result.status).toBe(0);
  });

  it('pass promtool test rules, with test series for each alert', () => {
    const dir = ruleFolder();
    const tests = parse(readFileSync(join(dir, 'alerts.promtool.yml'), 'utf8')) as {
      tests: { alert_rule_test: { alertname: string }[] }[];
    };
    const alerts = (
      parse(readFileSync(join(dir, 'rules.yaml'), 'utf8')) as { groups: { rules: { alert: string }[] }[] }
    ).groups.flatMap((g) => g.rules.map((r) => r.alert));
    const tested = new Set(tests.tests.flatMap((t) => t.alert_rule_test.map((a) => a.alertname)));
    expect(alerts.filter((a) => !tested.has(a))).toEqual([]);
    const result = spawnSync('promtool', ['test', 'rules', 'alerts.promtool.yml'], { cwd: dir, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });
});
