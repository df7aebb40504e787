import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../../../src/ui/text/junit.js';
import { fullReport, outcome } from '../../../helpers/fixture-run.js';

// Python's standard XML parser (expat): a real, strict parser, with no new npm dependency.
const SUMMARIZE = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
out = {"root": root.tag, "attrs": root.attrib, "suites": []}
for s in root.findall("testsuite"):
    cases = []
    for c in s.findall("testcase"):
        f, k, o = c.find("failure"), c.find("skipped"), c.find("system-out")
        cases.append({"name": c.get("name"), "classname": c.get("classname"), "time": c.get("time"),
                      "failure": None if f is None else {"message": f.get("message"), "text": f.text},
                      "skipped": None if k is None else k.get("message"),
                      "out": None if o is None else o.text})
    out["suites"].append({"name": s.get("name"), "attrs": s.attrib, "cases": cases})
print(json.dumps(out))
`;

function parse(xml: string) {
  const result = spawnSync('python3', ['-c', SUMMARIZE], { input: xml, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`not well-formed XML: ${result.stderr}`);
  return JSON.parse(result.stdout) as {
    root: string;
    attrs: Record<string, string>;
    suites: {
      name: string;
      attrs: Record<string, string>;
      cases: {
        name: string;
        classname: string;
        time: string;
        failure: { message: string; text: string } | null;
        skipped: string | null;
        out: string | null;
      }[];
    }[];
  };
}

describe('junit report', () => {
  it('parses as XML: one testsuite per group, one testcase per check, in order', () => {
    const report = fullReport();
    const doc = parse(renderJunit(report));
    expect(doc.root).toBe('testsuites');
    expect(doc.suites.map((s) => s.name)).toEqual(['certificate', 'tls', 'kube', 'discovery', 'signin']);
    expect(doc.suites.flatMap((s) => s.cases.map((c) => c.name))).toEqual(report.checks.map((c) => c.id));
    expect(doc.attrs).toMatchObject({ tests: '12', failures: '1', skipped: '1', errors: '0' });
    expect(doc.suites.find((s) => s.name === 'kube')!.attrs).toMatchObject({ tests: '2', failures: '1', skipped: '0' });
    expect(doc.suites[0]!.cases[0]).toMatchObject({
      classname: 'cloudgate.certificate',
      time: '0.012',
      failure: null,
      skipped: null,
    });
  });

  it('a failure and a skip carry the message and the advice; a warning passes with both in system-out', () => {
    const checks = [
      outcome('signin.exchange', 'fail', undefined, {
        message: 'Broker said 401 <invalid_client> & more',
        advice: 'Check the client "secret" setting',
      }),
      outcome('signin.federated', 'skip', undefined, {
        message: 'Not run: signin.exchange failed.',
        advice: 'Fix the exchange first',
      }),
      outcome('signin.projects', 'warn', undefined, {
        message: 'Only /auth/projects worked',
        advice: 'Use the newer path',
      }),
    ];
    const doc = parse(
      renderJunit({
        schema: 'cloudgate.doctor/v1',
        durationMs: 3,
        summary: { ok: 0, warn: 1, fail: 1, skip: 1 },
        checks,
      }),
    );
    const [fail, skip, warn] = doc.suites[0]!.cases;
    expect(fail!.failure!.message).toBe('Broker said 401 <invalid_client> & more');
    expect(fail!.failure!.text).toContain('Check the client "secret" setting');
    expect(skip!.skipped).toContain('Not run: signin.exchange failed.');
    expect(skip!.skipped).toContain('Fix the exchange first');
    expect(warn!.failure).toBeNull();
    expect(warn!.out).toContain('Only /auth/projects worked');
    expect(warn!.out).toContain('Use the newer path');
  });

  it('stays well-formed with control characters and markup in server text', () => {
    const checks = [
      outcome('tls.x', 'fail', undefined, {
        message: 'bad \u0000\u001b[31mred\u001b[0m ]]> <!-- x',
        title: 'a "title" & <b>',
      }),
    ];
    const doc = parse(
      renderJunit({
        schema: 'cloudgate.doctor/v1',
        durationMs: 1,
        summary: { ok: 0, warn: 0, fail: 1, skip: 0 },
        checks,
      }),
    );
    expect(doc.suites[0]!.cases[0]!.failure!.message).toBe('bad \\x00\\x1b[31mred\\x1b[0m ]]> <!-- x');
  });

  it('shows bidi overrides and zero-width characters as their codes, in attributes and text alike', () => {
    const checks = [
      outcome('tls.x', 'fail', undefined, { message: 'issuer evil\u202Egpj.exe\u200B', advice: 'trust \u2066x\u2069' }),
    ];
    const xml = renderJunit({
      schema: 'cloudgate.doctor/v1',
      durationMs: 1,
      summary: { ok: 0, warn: 0, fail: 1, skip: 0 },
      checks,
    });
    expect(xml).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
    const failure = parse(xml).suites[0]!.cases[0]!.failure!;
    expect(failure.message).toBe('issuer evil\\u202egpj.exe\\u200b');
    expect(failure.text).toContain('trust \\u2066x\\u2069');
  });

  it("a skip without advice carries its reason's text; each suite names its group's title as handed in", () => {
    const checks = [
      outcome('discovery.document', 'skip', undefined, {
        message: 'No issuer URL given.',
        reason: { code: 'not-configured', text: 'Give --issuer-url URL.' },
      }),
    ];
    const xml = renderJunit(
      { schema: 'cloudgate.doctor/v1', durationMs: 1, summary: { ok: 0, warn: 0, fail: 0, skip: 1 }, checks },
      { discovery: 'OIDC discovery' },
    );
    expect(parse(xml).suites[0]!.cases[0]!.skipped).toBe('No issuer URL given. → Give --issuer-url URL.');
    expect(xml).toContain('<property name="title" value="OIDC discovery"/>');
  });
});
