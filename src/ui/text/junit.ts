/**
 * The doctor's run as JUnit XML for CI systems: one testsuite per group, one testcase per check.
 * `fail` is a <failure>, `skip` a <skipped>, each with the message and the advice; a `warn` passes
 * with its message and advice in <system-out>.
 */
import { redact } from '../../core/secrets.js';
import { escapeControl } from '../../core/escape.js';
import { summarize } from '../../core/doctor/status.js';
import type { CheckOutcome, DoctorReport } from '../../core/doctor/types.js';
import { groupBy, titleOf, type GroupTitles } from './text.js';

export function renderJunit(report: DoctorReport, titles: GroupTitles = {}): string {
  const suites = [...groupBy(report.checks)].map(([group, checks]) => suite(group, checks, titles));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cloudgate doctor"${counts(report.checks)} time="${seconds(report.durationMs)}">`,
    ...suites.flat(),
    '</testsuites>',
  ];
  return lines.join('\n') + '\n';
}

function suite(group: string, checks: CheckOutcome[], titles: GroupTitles): string[] {
  const time = checks.reduce((sum, c) => sum + c.durationMs, 0);
  return [
    `  <testsuite name="${attr(group)}"${counts(checks)} time="${seconds(time)}">`,
    `    <properties><property name="title" value="${attr(titleOf(group, titles))}"/></properties>`,
    ...checks.flatMap(testcase),
    '  </testsuite>',
  ];
}

function testcase(check: CheckOutcome): string[] {
  const open = `    <testcase classname="cloudgate.${attr(check.group)}" name="${attr(check.id)}" time="${seconds(check.durationMs)}"`;
  const body = [check.message, check.advice ? `→ ${check.advice}` : ''].filter(Boolean).join('\n');
  switch (check.status) {
    case 'fail':
      return [
        `${open}>`,
        `      <failure type="fail" message="${attr(check.message)}">${escapeXml(`${check.title}\n${body}`)}</failure>`,
        '    </testcase>',
      ];
    case 'skip':
      return [`${open}>`, `      <skipped message="${attr(withAdvice(check))}"/>`, '    </testcase>'];
    case 'warn':
      return [
        `${open}>`,
        `      <system-out>${escapeXml(`warning: ${check.title}\n${body}`)}</system-out>`,
        '    </testcase>',
      ];
    default:
      return [`${open}/>`];
  }
}

/** A skip's message, then what to do: its advice, or its reason's text. */
function withAdvice(check: CheckOutcome): string {
  const then = check.advice ?? check.reason?.text;
  return then ? `${check.message} → ${then}` : check.message;
}

function counts(checks: CheckOutcome[]): string {
  const n = summarize(checks);
  return ` tests="${checks.length}" failures="${n.fail}" errors="0" skipped="${n.skip}"`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function attr(value: string): string {
  return escapeXml(value).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/**
 * Escapes markup, after showing as their code the characters a CI page would obey instead of show
 * (control characters, bidi overrides such as U+202E, zero-width ones: escape.ts); what XML 1.0 cannot
 * carry at all is dropped.
 */
export function escapeXml(value: string): string {
  return escapeControl(redact(value))
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
