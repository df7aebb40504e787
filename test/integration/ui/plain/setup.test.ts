import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { vaultCandidates } from '../../../../src/core/setup/vault-choice.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../../src/core/run-context.js';
import { CancelledError } from '../../../../src/core/errors.js';
import { CANCELLED_AFTER_WRITE, CANCELLED_NOTHING_WRITTEN } from '../../../../src/core/setup/outcome.js';
import { OFFER, openSession } from '../../../../src/core/setup/session.js';
import { plainSession } from '../../../../src/ui/plain/setup.js';
import { KEY } from '../../../helpers/ink.js';
import { plainIo } from '../../../helpers/plain-io.js';
import { createTestCA } from '../../../helpers/pki.js';
import { waitUntil } from '../../../helpers/wait.js';
import { startOidcIssuer, type OidcIssuer } from '../../../servers/oidc-issuer.js';
import { setupOptionsOf } from '../../../../src/commands/setup.js';
import { flagsOf } from '../../../../src/cli-flags.js';

/** Runs the plain walkthrough on in-memory streams; `type` sends one line (or key) once the prompt shows `expect`. */
async function plain(inventory: string, env: NodeJS.ProcessEnv = process.env) {
  const ctx: CommandContext = {
    interactive: true,
    env,
    cwd: join(inventory, '..'),
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const { session, initial } = await openSession(
    ctx,
    setupOptionsOf(flagsOf('setup', { inventory }), ctx.cwd),
    async () => undefined,
  );
  const io = plainIo();
  const done = plainSession({
    initial,
    options: {},
    session,
    io: { input: io.input, output: io.output, cwd: ctx.cwd },
  });
  done.catch(() => undefined);
  return { done, output: io.seen, send: io.send };
}

describe('setup --plain', () => {
  it('asks the same questions line by line, reviews, and writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-'));
    const inventory = join(dir, 'certificates.yml');
    const p = await plain(inventory);
    await p.send('Certificate type', KEY.enter);
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_acme_email', 'ops\r');
    await p.send('is not an email address', 'ops@example.com\r');
    await p.send('cluster_issuer_acme_server', '\r');
    // Choices are numbered: 6) godaddy.
    await p.send('cluster_issuer_acme_solver', '6\r');
    await p.send('cluster_issuer_acme_godaddy_api_key', 'plain-api-key-1234\r');
    await p.send('cluster_issuer_acme_godaddy_secret_key', 'plain-secret-5678\r');
    await p.send('Add certificate subject annotations?', KEY.enter);
    // The secrets would go in plain text: the vault is offered first; the last choice declines it.
    const plainChoice = vaultCandidates(process.env, dir, inventory).length + 2;
    await p.send('Write the secrets with Ansible Vault?', `${plainChoice}\r`);
    await p.send('Write these files?', KEY.enter);
    await p.done;
    const out = p.output();
    expect(out).toContain('Secrets written in plain text');
    expect(out).toContain('+cluster_issuer_acme_godaddy_api_key: ********');
    expect(out).not.toContain('plain-api-key-1234');
    expect(out).not.toContain('plain-secret-5678');
    expect(out).toContain('Written:');
    // After the inventory diff, what changes in the cluster and the objects' diff (not only with --dry-run).
    expect(out.indexOf('+ ClusterIssuer atmosphere (new)')).toBeGreaterThan(
      out.indexOf('+cluster_issuer_acme_godaddy_api_key: ********'),
    );
    expect(out.indexOf('+++ ClusterIssuer atmosphere (after)')).toBeGreaterThan(
      out.indexOf('+ ClusterIssuer atmosphere (new)'),
    );
    // No ACME server (a public ACME CA): the private CA question is not asked.
    expect(out).not.toContain('cluster_issuer_acme_private_ca');
    expect(readFileSync(inventory, 'utf8')).toContain('cluster_issuer_acme_godaddy_api_key: plain-api-key-1234');
  });

  it('refuses a wildcard domain with a final dot, naming the domain to type, and takes it without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-'));
    const inventory = join(dir, 'certificates.yml');
    const p = await plain(inventory);
    await p.send('Certificate type', '2\r');
    await p.send('openstack_helm_ingress_wildcard_domain', 'cloud.example.com.\r');
    await p.send('openstack_helm_ingress_wildcard_domain: cloud.example.com\n', 'cloud.example.com\r');
    await p.send('Certificate issuer', KEY.ctrlC);
    await expect(p.done).rejects.toBeInstanceOf(CancelledError);
    expect(p.output()).toContain('"cloud.example.com.", which ends in a dot');
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

  describe('keyless route53: the discovery checks are offered after the write', () => {
    let issuer: OidcIssuer;
    const kubeconfig = process.env.KUBECONFIG;
    beforeEach(async () => {
      issuer = await startOidcIssuer();
      // No cluster here: the kube checks must say so, never reach a real one.
      process.env.KUBECONFIG = join(tmpdir(), 'cloudgate-no-such-kubeconfig');
    });
    afterEach(async () => {
      if (kubeconfig === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = kubeconfig;
      await issuer.stop();
    });

    /** Keeps the inventory's keyless answers, names the service account, writes, and waits for the offer. */
    async function writeKeyless(namedBefore = false, caFile = issuer.caFile) {
      const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-'));
      const inventory = join(dir, 'certificates.yml');
      writeFileSync(
        inventory,
        [
          'cluster_issuer_type: acme',
          'cluster_issuer_acme_email: ops@example.com',
          'cluster_issuer_acme_solver: route53',
          'cluster_issuer_acme_route53_auth: kubernetes',
          'cluster_issuer_acme_route53_region: eu-west-1',
          'cluster_issuer_acme_route53_hosted_zone_id: Z0123456789',
          'cluster_issuer_acme_route53_role_arn: arn:aws:iam::123456789012:role/cert-manager-dns01',
          ...(namedBefore ? ['cluster_issuer_acme_route53_service_account_name: dns-sa'] : []),
          '',
        ].join('\n'),
      );
      const p = await plain(inventory, { ...process.env, OS_CACERT: caFile });
      for (const title of [
        'Certificate type',
        'Certificate issuer',
        'cluster_issuer_acme_email',
        'cluster_issuer_acme_server',
        'cluster_issuer_acme_solver',
      ]) {
        await p.send(title, '\r');
      }
      const b = 'cluster_issuer_acme_route53_';
      for (const field of ['auth', 'region', 'hosted_zone_id', 'role_arn']) await p.send(`${b}${field}`, '\r');
      await p.send(`${b}service_account_name`, namedBefore ? '\r' : 'dns-sa\r');
      await p.send('Add certificate subject annotations?', KEY.enter);
      await p.send('Write these files?', KEY.enter);
      return { p, inventory };
    }

    it('yes: asks the issuer URL and prints the doctor report', async () => {
      const { p } = await writeKeyless();
      await p.send(OFFER, KEY.enter);
      await p.send('Public issuer URL', `${issuer.url}\r`);
      const code = await p.done;
      const out = p.output();
      expect(out).toContain('Written:');
      expect(out).toContain('[!] OIDC discovery (route53 auth kubernetes)');
      expect(out).toMatch(/! TLS chain and thumbprint of the issuer: .*private CA/);
      expect(out).toContain('[-] Cluster (kubectl)');
      expect(out).toContain('! Found issues in 1 group.');
      // Warnings only: the setup succeeded.
      expect(code).toBe(0);
      expect(issuer.requests.some((q) => q.path.endsWith('/.well-known/openid-configuration'))).toBe(true);
    });

    it('Ctrl+C at the offer after "Nothing to write": cancelled, saying nothing was written', async () => {
      const { p, inventory } = await writeKeyless(true);
      const before = readFileSync(inventory, 'utf8');
      await p.send(OFFER, KEY.ctrlC);
      await expect(p.done).rejects.toThrow(CANCELLED_NOTHING_WRITTEN);
      expect(p.output()).toContain('Nothing to write: the files already hold these settings.');
      expect(readFileSync(inventory, 'utf8')).toBe(before);
    });

    it('Ctrl+C (SIGINT) while the checks run stops them at once: cancelled, the inventory written', async () => {
      // An issuer that accepts the request and never answers.
      const ca = createTestCA('silent issuer CA');
      const leaf = ca.issue(['127.0.0.1']);
      let received = 0;
      let abandoned = 0;
      const server = createServer({ cert: leaf.cert, key: leaf.key }, (req) => {
        received++;
        req.on('close', () => abandoned++);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const dir = mkdtempSync(join(tmpdir(), 'cloudgate-silent-'));
        writeFileSync(join(dir, 'ca.pem'), ca.cert);
        const { p, inventory } = await writeKeyless(false, join(dir, 'ca.pem'));
        await p.send(OFFER, KEY.enter);
        await p.send('Public issuer URL', `https://127.0.0.1:${(server.address() as AddressInfo).port}/cluster1\r`);
        await waitUntil('the issuer to receive the request', () => received > 0);
        expect(received).toBe(1);
        expect(p.output()).toContain('Ctrl+C stops, the inventory is already written');
        process.emit('SIGINT', 'SIGINT');
        await expect(p.done).rejects.toThrow(CANCELLED_AFTER_WRITE);
        // Stopped, not timed out (each check may take 10 s): the client let go of the request the issuer never answers.
        await waitUntil('the check to let go of its request', () => abandoned > 0);
        expect(readFileSync(inventory, 'utf8')).toContain('service_account_name: dns-sa');
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it('Ctrl+C at the offer: exit as cancelled, saying the inventory is already written', async () => {
      const { p, inventory } = await writeKeyless();
      await p.send(OFFER, KEY.ctrlC);
      await expect(p.done).rejects.toThrow(CANCELLED_AFTER_WRITE);
      expect(readFileSync(inventory, 'utf8')).toContain('service_account_name: dns-sa');
      expect(issuer.requests).toEqual([]);
    });
  });
});

describe('setup --plain is plain', () => {
  it('writes lines only: no escape sequence, and only ASCII for TERM=dumb', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-'));
    const inventory = join(dir, 'certificates.yml');
    const ctx: CommandContext = {
      interactive: true,
      env: process.env,
      cwd: dir,
      stdout: process.stdout,
      stderr: process.stderr,
    };
    const { session, initial } = await openSession(
      ctx,
      setupOptionsOf(flagsOf('setup', { inventory }), ctx.cwd),
      async () => undefined,
    );
    const input = new PassThrough();
    let text = '';
    const output = new Writable({
      write(chunk: Buffer, _enc, next) {
        text += chunk.toString();
        next();
      },
    });
    const done = plainSession({ initial, options: {}, session, io: { input, output, cwd: dir, ascii: true } });
    done.catch(() => undefined);
    // Every answer at once, as a paste: each line answers one question.
    input.write('1\n1\nops@example.com\n\n1\n1\n');
    await waitUntil('"Write these files?"', () => text.includes('Write these files?'), {
      timeoutMs: 5000,
      lastSeen: () => text,
    });
    input.write('3\n');
    await expect(done).rejects.toBeInstanceOf(CancelledError);
    expect(text).toContain('Write these files?');
    expect(text).not.toMatch(/\u001b/);
    expect(text).toMatch(/^[\x00-\x7e]*$/);
    expect(existsSync(inventory)).toBe(false);
  });
});
