/**
 * Nothing that servers and files say reaches the terminal as control characters: an error body, a
 * discovery document's `issuer`, `--verbose` body previews, inventory values and answer keys are shown
 * with `ESC`, `BEL` and the C1 `CSI` escaped, in text and in --json. And secrets are never taken from
 * flags. Run `npm run build` first.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestCA, type TestCA } from '../helpers/pki.js';
import { startOidcIssuer, type OidcIssuer } from '../servers/oidc-issuer.js';

// Clear the screen, set the window title, and a lone C1 CSI (its UTF-8 carries the byte 0x9b).
const HOSTILE = '\x1b[2J\x1b]0;owned\x07\u009b31m';
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

function expectNoControls(r: CliResult): void {
  for (const [name, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    const at = text.search(CONTROL);
    expect(
      at,
      `${name} holds a control character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 20))}`,
    ).toBe(-1);
    const bytes = Buffer.from(text);
    for (const b of [0x1b, 0x07, 0x9b]) expect(bytes.includes(b), `${name} holds byte 0x${b.toString(16)}`).toBe(false);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'cg-terminal-'));
let files = 0;
function file(text: string): string {
  const path = join(dir, `file-${++files}.yml`);
  writeFileSync(path, text);
  return path;
}

describe('a discovery document whose issuer carries escape sequences', () => {
  let issuer: OidcIssuer;
  beforeAll(async () => {
    issuer = await startOidcIssuer({ issuer: (url) => `${url}${HOSTILE}` });
  });
  afterAll(() => issuer.stop());

  it('is shown escaped in the text report, with --verbose', async () => {
    const r = await runCli([
      'doctor',
      '--only',
      'discovery',
      '--issuer-url',
      issuer.url,
      '--ca-file',
      issuer.caFile,
      '--verbose',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\\x1b[2J');
    expectNoControls(r);
  });

  it('is escaped in --json, which still parses to the same text', async () => {
    const r = await runCli([
      'doctor',
      '--only',
      'discovery',
      '--issuer-url',
      issuer.url,
      '--ca-file',
      issuer.caFile,
      '--json',
    ]);
    expectNoControls(r);
    const report = JSON.parse(r.stdout) as { checks: { id: string; status: string; message: string }[] };
    const check = report.checks.find((c) => c.id === 'discovery.issuer')!;
    expect(check.status).toBe('fail');
    expect(JSON.stringify(report)).toContain('\\u001b[2J');
  });
});

describe('a server answering an error body with escape sequences', () => {
  let ca: TestCA;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    ca = createTestCA('terminal safety CA');
    const leaf = ca.issue(['127.0.0.1']);
    server = createServer({ cert: leaf.cert, key: leaf.key }, (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error${HOSTILE} try later`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/directory`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const inventory = () =>
    file(
      [
        'cluster_issuer_type: acme',
        'cluster_issuer_acme_email: ops@example.com',
        `cluster_issuer_acme_server: ${url}`,
        'cluster_issuer_acme_private_ca: true',
        '',
      ].join('\n'),
    );

  it('is escaped in the report and in the --verbose body preview on stderr', async () => {
    const r = await runCli([
      'doctor',
      '--only',
      'acme',
      '--inventory',
      inventory(),
      '--ca-file',
      ca.file,
      '--verbose',
      '--timeout',
      '5',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('\\x1b');
    expectNoControls(r);
  });

  it('is escaped in --json', async () => {
    const r = await runCli([
      'doctor',
      '--only',
      'acme',
      '--inventory',
      inventory(),
      '--ca-file',
      ca.file,
      '--json',
      '--verbose',
      '--timeout',
      '5',
    ]);
    expect(r.code).toBe(1);
    expectNoControls(r);
    expect(JSON.parse(r.stdout)).toMatchObject({ schema: 'cloudgate.doctor/v1' });
  });
});

describe('files with escape sequences', () => {
  it('an inventory value is escaped in the doctor report', async () => {
    const inv = file(
      'cluster_issuer_type: "acme\\e]0;owned\\a"\ncluster_issuer_acme_email: "ops\\e[2J\\x9b31m@example.com"\n',
    );
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', inv, '--verbose']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\\x1b');
    expectNoControls(r);
  });

  it('an answers key and value are escaped in the setup review, the diff and the error', async () => {
    const value = file('cluster_issuer_type: acme\ncluster_issuer_acme_email: "ops\\e]0;owned\\a@example.com"\n');
    const shown = await runCli(['setup', '--answers', value, '--inventory', join(dir, 'inv-1.yml'), '--dry-run']);
    expect(shown.stdout + shown.stderr).toContain(']0;owned');
    expectNoControls(shown);

    const key = file('cluster_issuer_type: acme\n"cluster_issuer_\\e[2Jkey\\x9b": x\n');
    const refused = await runCli(['setup', '--answers', key, '--inventory', join(dir, 'inv-2.yml'), '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('\\x1b[2J');
    expectNoControls(refused);
  });

  it('an argument quoted in a usage error is escaped', async () => {
    const r = await runCli(['doctor', '--only', `kube${HOSTILE}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not one of: inventory');
    expectNoControls(r);
  });
});

describe('secrets given as flags', () => {
  for (const [command, flag, where] of [
    ['token', '--client-secret', /CLOUDGATE_CLIENT_SECRET\b.*client_secret_file/],
    ['doctor', '--password', /CLOUDGATE_<NAME>/],
    ['doctor', '--api-token', /--config/],
    ['token', '--token', /CLOUDGATE_<NAME>/],
    ['setup', '--secret-access-key', /--answers/],
    ['setup', '--cluster-issuer-acme-rfc2136-tsig-secret-key', /cluster_issuer_acme_rfc2136_tsig_secret_key/],
    ['regenerate', '--cluster-issuer-acme-azuredns-client-secret', /--answers/],
  ] as const) {
    it(`${command} ${flag}=VALUE is refused naming where secrets go, without echoing the value`, async () => {
      const r = await runCli([command, `${flag}=hunter2-value`, '--dry-run']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('secrets are never taken from flags');
      expect(r.stderr).toMatch(where);
      expect(r.stderr).not.toContain('Unknown option');
      expect(r.stderr + r.stdout).not.toContain('hunter2');
    });
  }

  it('an unknown option that is no secret is still an unknown option', async () => {
    const r = await runCli(['doctor', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown option');
  });

  it('options that name files are not refused as secrets', async () => {
    const r = await runCli(['doctor', '--only', 'discovery', '--token-file', join(dir, 'none'), '--list-checks']);
    expect(r.code).toBe(0);
  });
});
