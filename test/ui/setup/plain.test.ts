import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/types.js';
import { CancelledError } from '../../../src/core/errors.js';
import { plainSession } from '../../../src/ui/setup/plain.js';
import { setupServices } from '../../../src/ui/setup/services.js';
import { KEY, stripAnsi } from '../../helpers/ink.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the plain walkthrough on in-memory streams; `type` sends one line (or key) once the prompt shows `expect`. */
async function plain(inventory: string) {
  const ctx: CommandContext = {
    flags: { inventory }, positionals: [], interactive: true, env: process.env, cwd: join(inventory, '..'),
    stdout: process.stdout, stderr: process.stderr,
  };
  const { services, initial } = await setupServices(ctx);
  const input = new PassThrough();
  let text = '';
  // Like a terminal, the output outlives each prompt (inquirer ends the streams it is piped into).
  const output = new Writable({ write(chunk: Buffer, _enc, next) { text += chunk.toString(); next(); } });
  output.end = function end(this: Writable) { return this; } as typeof output.end;
  const done = plainSession({ initial, options: {}, services, io: { input, output, cwd: ctx.cwd } });
  done.catch(() => undefined);
  const seen = () => stripAnsi(text);
  return {
    done,
    output: seen,
    async send(waitFor: string, keys: string) {
      const start = Date.now();
      while (!seen().includes(waitFor)) {
        if (Date.now() - start > 5000) throw new Error(`Timed out waiting for "${waitFor}"; output:\n${seen()}`);
        await sleep(10);
      }
      text = text.replace(new RegExp(waitFor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '<seen>');
      input.write(keys);
      await sleep(20);
    },
  };
}

describe('setup --plain', () => {
  it('asks the same questions line by line, reviews, and writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-'));
    const inventory = join(dir, 'certificates.yml');
    const p = await plain(inventory);
    await p.send('Certificate type', KEY.enter);
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_acme_email', 'ops\r');
    await p.send('is not an email address', '@example.com\r');
    await p.send('cluster_issuer_acme_server', '\r');
    await p.send('cluster_issuer_acme_solver', KEY.down.repeat(5) + KEY.enter);
    await p.send('cluster_issuer_acme_dnsd_api_key', 'plain-api-key-1234\r');
    await p.send('cluster_issuer_acme_dnsd_secret_key', 'plain-secret-5678\r');
    await p.send('Add certificate subject annotations?', KEY.enter);
    await p.send('Write these files?', KEY.enter);
    await p.done;
    const out = p.output();
    expect(out).toContain('+cluster_issuer_acme_dnsd_api_key: "********"');
    expect(out).not.toContain('plain-api-key-1234');
    expect(out).not.toContain('plain-secret-5678');
    expect(out).toContain('Written:');
    // No ACME server (a public ACME CA): the private CA question is not asked.
    expect(out).not.toContain('cluster_issuer_acme_private_ca');
    expect(readFileSync(inventory, 'utf8')).toContain('cluster_issuer_acme_dnsd_api_key: plain-api-key-1234');
  });

  it('"<" goes back with the answer kept; Ctrl+C cancels with nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-'));
    const inventory = join(dir, 'certificates.yml');
    const p = await plain(inventory);
    await p.send('Certificate type', KEY.enter);
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_acme_email', 'ops@example.com\r');
    await p.send('cluster_issuer_acme_server', '<\r');
    await p.send('cluster_issuer_acme_email', '\r');
    expect(p.output()).toContain('ops@example.com');
    await p.send('cluster_issuer_acme_server', KEY.ctrlC);
    await expect(p.done).rejects.toBeInstanceOf(CancelledError);
    await expect(p.done).rejects.toThrow('Cancelled. Nothing was written.');
    expect(existsSync(inventory)).toBe(false);
  });
});
