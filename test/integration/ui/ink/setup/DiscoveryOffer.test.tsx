import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../../../src/core/run-context.js';
import { CancelledError } from '../../../../../src/core/errors.js';
import { CANCELLED_AFTER_WRITE, CANCELLED_NOTHING_WRITTEN, exitCodeOf } from '../../../../../src/core/setup/outcome.js';
import { OFFER, openSession } from '../../../../../src/core/setup/session.js';
import { SetupApp, type SetupResult } from '../../../../../src/ui/ink/setup/SetupApp.js';
import { KEY, renderInk, type InkDriver } from '../../../../helpers/ink.js';
import { createTestCA } from '../../../../helpers/pki.js';
import { startOidcIssuer, type OidcIssuer, type OidcIssuerOptions } from '../../../../servers/oidc-issuer.js';
import { choose, question } from '../../../../helpers/drive.js';
import { waitUntil } from '../../../../helpers/wait.js';
import { setupOptionsOf } from '../../../../../src/commands/setup.js';
import { flagsOf } from '../../../../../src/cli-flags.js';

const KEYLESS = [
  'cluster_issuer_type: acme',
  'cluster_issuer_acme_email: ops@example.com',
  'cluster_issuer_acme_solver: route53',
  'cluster_issuer_acme_route53_auth: kubernetes',
  'cluster_issuer_acme_route53_region: eu-west-1',
  'cluster_issuer_acme_route53_hosted_zone_id: Z0123456789',
  'cluster_issuer_acme_route53_role_arn: arn:aws:iam::123456789012:role/cert-manager-dns01',
  '',
].join('\n');

/** The frame as one line: long check lines wrap at the terminal width. */
const flat = (frame: string) => frame.replace(/\s+/g, ' ');

let ui: InkDriver | undefined;
const issuers: OidcIssuer[] = [];
const savedKubeconfig = process.env.KUBECONFIG;

beforeEach(() => {
  // No cluster here: the kube checks must say so (skip), never reach a real one.
  process.env.KUBECONFIG = join(tmpdir(), 'cloudgate-no-such-kubeconfig');
});

afterEach(async () => {
  ui?.unmount();
  ui = undefined;
  await Promise.all(issuers.splice(0).map((i) => i.stop()));
  if (savedKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = savedKubeconfig;
});

async function issuer(options: OidcIssuerOptions = {}) {
  const i = await startOidcIssuer(options);
  issuers.push(i);
  return i;
}

/** The real services on a keyless inventory; the issuer's private CA trusted as the doctor would (OS_CACERT). */
async function start(caFile?: string, flags: Record<string, string | boolean> = {}, text = KEYLESS) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-offer-'));
  const inventory = join(dir, 'certificates.yml');
  writeFileSync(inventory, text);
  const ctx: CommandContext = {
    interactive: true,
    env: { ...process.env, OS_CACERT: caFile },
    cwd: dir,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const { session, initial } = await openSession(
    ctx,
    setupOptionsOf(flagsOf('setup', { inventory, ...flags }), dir),
    async () => undefined,
  );
  const results: SetupResult[] = [];
  ui = await renderInk(<SetupApp initial={initial} session={session} onExit={(r) => results.push(r)} />);
  return { ui, results, inventory };
}

/** Keeps the inventory's answers, names the service account dns-sa (unless named), writes, and waits for the offer. */
async function writeKeyless(d: InkDriver, nameIt = true) {
  for (let i = 0; i < 20 && !d.frame().includes('Review:'); i++) {
    if (nameIt && question(d) === 'cluster_issuer_acme_route53_service_account_name') await d.answer('dns-sa');
    else await d.press(KEY.enter);
  }
  await d.waitFor('Review:');
  await d.press(KEY.enter);
  await d.waitFor(OFFER);
}

describe('after writing keyless route53, the walkthrough offers the discovery checks', () => {
  it('runs the discovery and kube checks for the issuer URL against the inventory just written', async () => {
    const i = await issuer();
    const { ui, results, inventory } = await start(i.caFile);
    await writeKeyless(ui);
    expect(readFileSync(inventory, 'utf8')).toContain('cluster_issuer_acme_route53_service_account_name: dns-sa');
    expect(ui.frame()).toContain('Written:');
    expect(results).toEqual([]);
    await choose(ui, 'Yes');
    expect(ui.frame()).toContain('Public issuer URL');
    await ui.answer(`${i.url}?x=1`);
    expect(ui.frame()).toContain('query or fragment');
    expect(i.requests).toEqual([]);
    await ui.press(KEY.backspace.repeat(4));
    await ui.press(KEY.enter);
    await ui.waitFor(/No issues found|Found issues in/, 30_000);
    const frame = flat(ui.frame());
    expect(frame).toContain(`Discovery and cluster checks for ${i.url}:`);
    // With the URL given, oidc is a command that carries it.
    await ui.waitFor('Next, with this issuer URL:');
    expect(flat(ui.frame())).toContain(`cloudgate oidc --inventory ${inventory} --issuer-url ${i.url}`);
    expect(frame).toMatch(/✓ OIDC discovery document \(anonymous\): .*openid-configuration is served anonymously/);
    expect(frame).toMatch(/✓ issuer equals the issuer URL/);
    // The private test CA: the thumbprint warning, with its advice.
    expect(frame).toMatch(/! TLS chain and thumbprint of the issuer: .*private CA/);
    expect(frame).toContain('[!] OIDC discovery (route53 auth kubernetes)');
    expect(frame).toContain('[-] Cluster (kubectl)');
    expect(i.requests.every((q) => q.authorization === undefined)).toBe(true);
    expect(results).toHaveLength(1);
    const r = results[0];
    if (r.kind !== 'done') throw new Error(`expected done, got ${r.kind}`);
    expect(r.outcome.discovery?.checks.map((c) => c.group)).toEqual(expect.arrayContaining(['discovery', 'kube']));
    expect(new Set(r.outcome.discovery?.checks.map((c) => c.group))).toEqual(new Set(['discovery', 'kube']));
    // kube: the service account named in the walkthrough, read back from the inventory it wrote; no cluster here.
    expect(r.outcome.discovery?.checks.find((c) => c.title.includes('cert-manager/dns-sa'))).toMatchObject({
      status: 'skip',
    });
    expect(exitCodeOf(r.outcome)).toBe(0);
  });

  it('trusts the issuer through setup --ca-file as the doctor does (OS_CACERT unset)', async () => {
    const i = await issuer();
    const { ui, results } = await start(undefined, { 'ca-file': i.caFile });
    await writeKeyless(ui);
    await choose(ui, 'Yes');
    await ui.answer(i.url);
    await ui.waitFor(/No issues found|Found issues in/, 30_000);
    expect(flat(ui.frame())).toMatch(/✓ OIDC discovery document \(anonymous\)/);
    expect(results).toHaveLength(1);
  });

  it('a failing check ends the walkthrough with exit code 1 (files written, the issuer not ready)', async () => {
    const i = await issuer({ issuer: (url) => `${url}/` });
    const { ui, results } = await start(i.caFile);
    await writeKeyless(ui);
    await choose(ui, 'Yes');
    await ui.answer(i.url);
    await ui.waitFor(/Found issues in/, 30_000);
    expect(flat(ui.frame())).toMatch(/✗ issuer equals the issuer URL: .*trailing slash/i);
    expect(flat(ui.frame())).toMatch(/→ .*--service-account-issuer=/);
    const r = results[0];
    expect(r.kind === 'done' && exitCodeOf(r.outcome)).toBe(1);
  });

  it('No or Esc skips it: the final screen stays, nothing is fetched; Esc at the URL goes back to the offer', async () => {
    const i = await issuer();
    const first = await start(i.caFile);
    await writeKeyless(first.ui);
    await choose(first.ui, 'No');
    expect(first.results).toHaveLength(1);
    const r = first.results[0];
    expect(r.kind === 'done' && r.outcome.discovery).toBeUndefined();
    expect(r.kind === 'done' && exitCodeOf(r.outcome)).toBe(0);
    expect(first.ui.frame()).toContain('Written:');
    // Without the issuer URL, oidc is a note naming the flag it needs, never a command with a placeholder.
    expect(flat(first.ui.frame())).toContain('# cloudgate oidc --inventory');
    expect(first.ui.frame()).not.toContain('<ISSUER_URL>');
    first.ui.unmount();

    const second = await start(i.caFile);
    await writeKeyless(second.ui);
    await choose(second.ui, 'Yes');
    expect(second.ui.frame()).toContain('Public issuer URL');
    await second.ui.press(KEY.escape);
    expect(second.ui.frame()).toContain(OFFER);
    expect(second.results).toEqual([]);
    await second.ui.press(KEY.escape);
    expect(second.results).toHaveLength(1);
    expect(second.results[0].kind).toBe('done');
    expect(i.requests).toEqual([]);
  });

  it('Ctrl+C at the offer exits as cancelled and says the inventory is already written', async () => {
    const { ui, results, inventory } = await start();
    await writeKeyless(ui);
    expect(ui.frame()).toContain('Ctrl+C quit (the inventory is already written)');
    await ui.press(KEY.ctrlC);
    expect(results).toHaveLength(1);
    const r = results[0];
    expect(r.kind === 'error' && r.error instanceof CancelledError && r.error.message).toBe(CANCELLED_AFTER_WRITE);
    expect(CANCELLED_AFTER_WRITE).toMatch(/already written/);
    expect(existsSync(inventory)).toBe(true);
  });

  it('after "Nothing to write" the hints and the cancel say that nothing was written', async () => {
    const same = `${KEYLESS}cluster_issuer_acme_route53_service_account_name: dns-sa\n`;
    const { ui, results, inventory } = await start(undefined, {}, same);
    await writeKeyless(ui, false);
    expect(ui.frame()).toContain('Nothing to write: the files already hold these settings.');
    expect(ui.frame()).toContain('Ctrl+C quit (nothing was written)');
    expect(ui.frame()).not.toContain('already written');
    await choose(ui, 'Yes');
    expect(ui.frame()).toContain('Ctrl+C quit (nothing was written)');
    await ui.press(KEY.ctrlC);
    const r = results[0];
    expect(r.kind === 'error' && r.error instanceof CancelledError && r.error.message).toBe(CANCELLED_NOTHING_WRITTEN);
    expect(readFileSync(inventory, 'utf8')).toBe(same);
  });

  it('Ctrl+C while the checks run cancels them: the pending request is dropped', async () => {
    // An issuer that accepts the connection and never answers.
    const ca = createTestCA('silent issuer CA');
    const leaf = ca.issue(['127.0.0.1']);
    let received = 0;
    let dropped = 0;
    const server = createServer({ cert: leaf.cert, key: leaf.key }, (req) => {
      received++;
      req.socket.on('close', () => dropped++);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const caFile = join(mkdtempSync(join(tmpdir(), 'cloudgate-silent-')), 'ca.pem');
    writeFileSync(caFile, ca.cert);
    try {
      const { ui, results } = await start(caFile);
      await writeKeyless(ui);
      await choose(ui, 'Yes');
      await ui.answer(`https://127.0.0.1:${(server.address() as AddressInfo).port}/cluster1`);
      await ui.waitFor('OIDC discovery document (anonymous)…');
      await waitUntil('the issuer to receive the request', () => received > 0);
      expect(received).toBe(1);
      await ui.press(KEY.ctrlC);
      const r = results[0];
      expect(r.kind === 'error' && r.error.message).toBe(CANCELLED_AFTER_WRITE);
      ui.unmount();
      await waitUntil('the pending request to be dropped', () => dropped > 0);
      expect(dropped).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
