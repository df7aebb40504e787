/** Credentials inside URLs (userinfo, credential-named query values) never reach the output, whatever prints them. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that answers every request with a redirect to a URL carrying credentials. */
async function redirecting(location: string): Promise<string> {
  server = createServer((_, res) => {
    res.writeHead(302, { location });
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('credentials in URLs', () => {
  it("a redirect's Location is shown without its userinfo or token, in text, --verbose and --json", async () => {
    const url = await redirecting('https://admin:hunter2secret@evil.example/next?access_token=tok-0123456789&x=1');
    const inventory = join(mkdtempSync(join(tmpdir(), 'cloudgate-url-')), 'certificates.yml');
    writeFileSync(
      inventory,
      `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_server: ${url}/directory?token=issuer-tok-42\n`,
    );
    for (const format of [['--verbose'], ['--json']]) {
      const r = await runCli(['doctor', '--only', 'acme', '--inventory', inventory, '--allow-http', ...format]);
      const out = r.stdout + r.stderr;
      expect(out).toContain('evil.example');
      expect(out).not.toContain('hunter2secret');
      expect(out).not.toContain('tok-0123456789');
      expect(out).not.toContain('issuer-tok-42');
    }
  });
});
