/**
 * A broker that reflects the client secret and the subject token in its error body (as JSON, which
 * escapes the secret's `"` and `\`, or as the raw form it received), with the secret just where a
 * preview cuts the body: no part of either reaches any output, in every format and with --verbose.
 * The body is redacted first and cut second, in every encoding the server may use.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestCA, type TestCA } from '../helpers/pki.js';

const SECRET = `cl"ient\\secret+with space-${randomBytes(12).toString('hex')}`;
const TOKEN = `idp-token-${randomBytes(24).toString('hex')}`;

let ca: TestCA;
let server: Server;
let origin: string;
let mode: 'json' | 'form' = 'json';
beforeAll(async () => {
  ca = createTestCA('reflecting broker CA');
  const leaf = ca.issue(['127.0.0.1'], { cn: '127.0.0.1' });
  server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      // Echoed again and again from character 150 on: wherever a preview or a message is cut, one copy straddles the cut.
      const echo = (text: string) =>
        `${'x'.repeat(150)}${Array.from({ length: 8 }, (_, i) => `${'y'.repeat(i * 3)} ${text}`).join('')}`;
      if (mode === 'json') {
        res.writeHead(401, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: 'unauthorized_client',
            error_description: echo(
              `client_secret=${form.get('client_secret')} subject_token=${form.get('subject_token')}`,
            ),
          }),
        );
      } else {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`you sent: ${echo(body)}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every run of 10 characters of the secret and the token, as they are and as JSON or a form spells them. */
function fragments(): string[] {
  const forms = [
    SECRET,
    TOKEN,
    JSON.stringify(SECRET).slice(1, -1),
    new URLSearchParams({ v: SECRET }).toString().slice(2),
    encodeURIComponent(SECRET),
  ];
  return [...new Set(forms.flatMap((f) => Array.from({ length: f.length - 9 }, (_, i) => f.slice(i, i + 10))))];
}

const doctor = (args: string[]) =>
  runCli(['doctor', '--only', 'signin', ...args], {
    env: {
      CLOUDGATE_BROKER_URL: origin,
      CLOUDGATE_REALM: 'cloud',
      CLOUDGATE_CLIENT_ID: 'cloud',
      CLOUDGATE_CLIENT_SECRET: SECRET,
      CLOUDGATE_SUBJECT_TOKEN: TOKEN,
      OS_AUTH_URL: `${origin}/v3`,
      OS_IDENTITY_PROVIDER: 'idp',
      OS_PROTOCOL: 'openid',
      OS_PROJECT_NAME: 'demo',
      OS_CACERT: ca.file,
    },
  });

describe.each(['json', 'form'] as const)('a broker that reflects the secrets in its %s error body', (reflected) => {
  it.each([
    [[]],
    [['--verbose']],
    [['--json', '--verbose']],
    [['--format', 'junit', '--verbose']],
    [['--format', 'prometheus']],
  ])('%j prints no part of them', async (args) => {
    mode = reflected;
    const r = await doctor(args);
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    if (!args.includes('prometheus')) expect(out).toMatch(/unauthorized_client|you sent|401|400/);
    const leaked = fragments().filter((f) => out.includes(f));
    expect(leaked).toEqual([]);
  });
});
