import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../../../../src/core/errors.js';
import type { WizardAnswers } from '../../../../../src/core/setup/wizard-flow.js';
import { SetupApp, type SetupResult } from '../../../../../src/ui/ink/setup/SetupApp.js';
import type { Outcome } from '../../../../../src/core/setup/outcome.js';
import type { Review } from '../../../../../src/core/setup/review.js';
import type { SetupSession } from '../../../../../src/core/setup/session.js';
import { KEY, renderInk, type InkDriver } from '../../../../helpers/ink.js';
import { createTestCA } from '../../../../helpers/pki.js';
import { choose, question } from '../../../../helpers/drive.js';

const dir = mkdtempSync(join(tmpdir(), 'cloudgate-ui-'));
const ca = createTestCA();
writeFileSync(join(dir, 'ca.pem'), ca.cert);
writeFileSync(join(dir, 'ca.key'), ca.key);
chmodSync(join(dir, 'ca.key'), 0o600);
writeFileSync(join(dir, 'notes.txt'), 'not a certificate');

const withoutNulls = (answers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== null));

/**
 * Records what the walkthrough hands to planning (without the nulls that clear old inventory values,
 * covered by the flow's unit tests) and writing; the review it shows is a fixed one.
 */
function recording() {
  const prepared: Record<string, unknown>[] = [];
  let writes = 0;
  const session: SetupSession = {
    cwd: dir,
    dryRun: false,
    async prepare(answers) {
      prepared.push(withoutNulls(answers));
      const review: Review = {
        inventoryPath: 'inventory.yml',
        inventoryExists: false,
        heading: 'Review: inventory.yml (new file)',
        issuer: 'Issuer: x',
        set: ['cluster_issuer_type'],
        removed: [],
        renamed: [],
        translated: [],
        findings: [],
        blocked: false,
        dryRun: false,
        diff: '+cluster_issuer_type: x\n',
        files: [{ path: 'inventory.yml', description: 'inventory', mode: 0o600, holdsSecret: false }],
        cluster: { lines: [], diff: '' },
      };
      return review;
    },
    async write() {
      writes++;
      const outcome: Outcome = {
        dryRun: false,
        written: ['inventory.yml (mode 0600)'],
        headline: 'Written:',
        next: ['cloudgate doctor'],
        offerDiscovery: false,
        standing: 'the inventory is already written',
        cancelled: 'Cancelled. The inventory was already written.',
        inventoryPath: 'inventory.yml',
      };
      return outcome;
    },
  };
  return { session, prepared, writes: () => writes };
}

let ui: InkDriver | undefined;
afterEach(() => ui?.unmount());

async function start(initial: WizardAnswers = {}) {
  const rec = recording();
  const results: SetupResult[] = [];
  ui = await renderInk(<SetupApp initial={initial} session={rec.session} onExit={(r) => results.push(r)} />);
  return { ui, rec, results };
}

async function toReview(d: InkDriver) {
  await d.waitFor('Review: inventory.yml (new file)');
}

describe('the question counter', () => {
  it('follows the highlighted choice, so it changes while choosing and not after Enter', async () => {
    const { ui } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    await ui.answer('');
    expect(question(ui)).toBe('cluster_issuer_acme_solver');
    expect(ui.frame()).toMatch(/question 5 of 6/);
    // cloudflare asks two more questions: the total says so as soon as it is highlighted.
    await ui.press('5');
    expect(ui.frame()).toMatch(/question 5 of 8/);
    await ui.press(KEY.enter);
    expect(ui.frame()).toMatch(/question 6 of 8/);
  });
});

describe('keys faster than the screen', () => {
  it("a second Enter before the next question is drawn answers nothing: no question takes the previous one's answer", async () => {
    const { ui, rec } = await start();
    // Individual (Enter); then at the issuer question two Enters, the second before the email question is drawn.
    await ui.press(KEY.enter);
    expect(question(ui)).toBe('cluster_issuer_type');
    await ui.burst(KEY.enter, KEY.enter);
    // The second Enter came to the issuer question (acme, its default) or to nothing: never the email.
    expect(question(ui)).toMatch(/cluster_issuer_type|cluster_issuer_acme_email/);
    if (question(ui) === 'cluster_issuer_type') await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    await ui.answer('');
    await choose(ui, 'http01');
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared.at(-1)).toMatchObject({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
    });
  });

  it('Enter twice at the review writes once', async () => {
    const { ui, rec, results } = await start({ cluster_issuer_type: 'self-signed', add_subject_annotations: 'false' });
    for (let i = 0; i < 3; i++) await ui.press(KEY.enter);
    await toReview(ui);
    await ui.burst(KEY.enter, KEY.enter);
    await ui.waitFor('Written:');
    expect(rec.writes()).toBe(1);
    expect(results.map((r) => r.kind)).toEqual(['done']);
  });
});

describe('the walkthrough, one branch at a time', () => {
  it('individual + ACME + HTTP-01 needs only the email', async () => {
    const { ui, rec } = await start();
    expect(question(ui)).toBe('Certificate type');
    expect(ui.frame()).toContain('One certificate per API endpoint');
    await choose(ui, 'Individual');
    expect(question(ui)).toBe('cluster_issuer_type');
    expect(ui.frame()).not.toMatch(/^> none|^ {2}none/m);
    await choose(ui, 'acme');
    expect(question(ui)).toBe('cluster_issuer_acme_email');
    await ui.answer('ops@example.com');
    await ui.answer('');
    // A public ACME CA (no server): the private CA question makes no sense and is not asked.
    expect(question(ui)).toBe('cluster_issuer_acme_solver');
    expect(ui.frame()).toContain('works when the ACME server can reach the API endpoints');
    await choose(ui, 'http01');
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared).toEqual([
      {
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_email: 'ops@example.com',
        cluster_issuer_acme_solver: 'http01',
      },
    ]);
  });

  it('wildcard issued automatically + ACME + rfc2136 explains why DNS-01 and asks its fields', async () => {
    const { ui, rec } = await start();
    await choose(ui, 'Wildcard, issued automatically');
    await ui.answer('cloud.example.com');
    await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    await ui.answer('https://acme.internal.example.com/directory');
    await choose(ui, 'Yes');
    await ui.press(KEY.down);
    expect(ui.frame()).toContain('use when the ACME server cannot reach the APIs');
    await ui.press(KEY.up);
    await ui.press(KEY.enter);
    expect(ui.frame()).toContain('cannot be issued with the HTTP-01 challenge');
    await choose(ui, 'rfc2136');
    await ui.answer('ns1.example.com:53');
    // The secret first: it may be the key file, whose name and algorithm then answer the next two.
    await ui.answer('c2VjcmV0LXRzaWcta2V5');
    await choose(ui, 'HMACSHA256');
    await ui.answer('cert-manager-key');
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared[0]).toEqual({
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_server: 'https://acme.internal.example.com/directory',
      cluster_issuer_acme_private_ca: true,
      cluster_issuer_acme_solver: 'rfc2136',
      cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com:53',
      cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA256',
      cluster_issuer_acme_rfc2136_tsig_key_name: 'cert-manager-key',
      cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0LXRzaWcta2V5',
    });
  });

  it.each([
    [
      'azuredns',
      [
        'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
        'client-secret-value',
        '99999999-8888-7777-6666-555555555555',
        'tenant.onmicrosoft.com',
        'rg',
        'example.com',
      ],
    ],
    ['cloudflare', ['cloudflare-token-value', '']],
    ['godaddy', ['godaddy-key-value', 'godaddy-secret-value']],
    ['infoblox', ['default', 'dns.example.com', 'api', 'infoblox-password-value']],
  ])('ACME + %s asks the provider fields', async (solver, values) => {
    const { ui, rec } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    await ui.answer('');
    await choose(ui, solver);
    for (const v of values) await ui.answer(v);
    await choose(ui, 'No');
    await toReview(ui);
    const given = Object.entries(rec.prepared[0]).filter(([k]) => k.startsWith(`cluster_issuer_acme_${solver}_`));
    expect(given.map(([, v]) => v)).toEqual(values.filter(Boolean));
  });

  it.each([
    // Static keys, their Secret's name (the default) and the optional role to assume after them.
    [
      'static',
      ['AKIAEXAMPLE', 'secret-access-key-value', '', 'arn:aws:iam::123456789012:role/dns-admin'],
      {
        cluster_issuer_acme_route53_access_key_id: 'AKIAEXAMPLE',
        cluster_issuer_acme_route53_secret_access_key: 'secret-access-key-value',
        cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/dns-admin',
      },
    ],
    ['ambient', [''], {}],
    [
      'kubernetes',
      ['arn:aws:iam::123456789012:role/cert-manager-dns01', ''],
      { cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/cert-manager-dns01' },
    ],
  ])('ACME + route53 with auth %s', async (auth, values, expected) => {
    const { ui, rec } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    await ui.answer('');
    await choose(ui, 'route53');
    await choose(ui, auth);
    await ui.answer('eu-west-1');
    await ui.answer('Z0123456789');
    for (const v of values) await ui.answer(v);
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared[0]).toMatchObject({
      cluster_issuer_acme_route53_auth: auth,
      cluster_issuer_acme_route53_region: 'eu-west-1',
      ...expected,
    });
  });

  it('Venafi with an access token (recommended) or username and password (legacy)', async () => {
    for (const method of ['Access token', 'Username and password'] as const) {
      const { ui, rec } = await start();
      await choose(ui, 'Individual');
      await choose(ui, 'venafi');
      await ui.answer('ca.pem');
      await ui.answer('Certificates\\Cloud');
      await ui.answer('https://tpp.example.com/vedsdk');
      await ui.answer('ca.pem'); // the TPP bundle: the platform needs it
      expect(ui.frame()).toContain('(recommended)');
      expect(ui.frame()).toContain('(legacy)');
      await choose(ui, method);
      if (method === 'Access token') await ui.answer('tpp-access-token');
      else {
        await ui.answer('svc-user');
        await ui.answer('svc-password');
      }
      await choose(ui, 'No');
      await toReview(ui);
      const credentials =
        method === 'Access token'
          ? { cluster_issuer_venafi_access_token: 'tpp-access-token' }
          : { cluster_issuer_venafi_username: 'svc-user', cluster_issuer_venafi_password: 'svc-password' };
      expect(rec.prepared[0]).toEqual({
        cluster_issuer_type: 'venafi',
        cluster_issuer_venafi_ca: `file:${join(dir, 'ca.pem')}`,
        cluster_issuer_venafi_zone: 'Certificates\\Cloud',
        cluster_issuer_venafi_tpp_url: 'https://tpp.example.com/vedsdk',
        cluster_issuer_venafi_tpp_ca_bundle: `file:${join(dir, 'ca.pem')}`,
        ...credentials,
      });
      ui.unmount();
    }
  });

  it('CA issuer: certificate and key files, checked before moving on', async () => {
    const { ui, rec } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'ca');
    expect(question(ui)).toBe('cluster_issuer_ca_certificate');
    await ui.answer('notes.txt');
    expect(ui.frame()).toContain(`${join(dir, 'notes.txt')} holds no PEM certificate.`);
    expect(question(ui)).toBe('cluster_issuer_ca_certificate');
    await ui.press(KEY.backspace.repeat('notes.txt'.length));
    await ui.answer('ca.pem');
    expect(question(ui)).toBe('cluster_issuer_ca_private_key');
    await ui.answer('missing.key');
    expect(ui.frame()).toContain('missing.key does not exist.');
    await ui.press(KEY.backspace.repeat('missing.key'.length));
    await ui.answer('ca.key');
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared[0]).toEqual({
      cluster_issuer_type: 'ca',
      cluster_issuer_ca_certificate: `file:${join(dir, 'ca.pem')}`,
      cluster_issuer_ca_private_key: `file:${join(dir, 'ca.key')}`,
    });
  });

  it('self-signed, with subject annotations', async () => {
    const { ui, rec } = await start();
    await choose(ui, 'Individual');
    for (let i = 0; i < 3; i++) await ui.press(KEY.down);
    expect(ui.frame()).toContain('> self-signed');
    expect(ui.frame()).toContain('for development and testing only');
    await ui.press(KEY.enter);
    await choose(ui, 'Yes');
    await ui.answer('Example Org');
    await ui.answer('');
    await ui.answer('Zurich');
    await ui.answer('');
    await ui.answer('CH');
    await toReview(ui);
    expect(rec.prepared[0]).toEqual({
      cluster_issuer_type: 'self-signed',
      atmosphere_ingress_annotations: {
        'cert-manager.io/subject-organizations': 'Example Org',
        'cert-manager.io/subject-localities': 'Zurich',
        'cert-manager.io/subject-countries': 'CH',
      },
    });
  });

  it('supplied wildcard: secret name, the two files, the namespaces; issuer none without a question, no annotations', async () => {
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(dir, 'wild.crt'), leaf.cert + ca.cert);
    // Readable by others: a warning, accepted with a second Enter.
    writeFileSync(join(dir, 'wild.key'), leaf.key);
    chmodSync(join(dir, 'wild.key'), 0o644);
    const { ui, rec } = await start();
    await choose(ui, 'Wildcard, supplied by you');
    await ui.answer('wildcard-certs');
    await ui.answer('wild.crt');
    expect(question(ui)).toBe('Wildcard private key file');
    await ui.answer('wild.key');
    expect(question(ui)).toBe('Wildcard private key file');
    expect(ui.frame()).toContain('Press Enter again to accept these warnings.');
    expect(ui.frame()).toMatch(/! .*wild\.key/);
    await ui.press(KEY.enter);
    expect(question(ui)).toBe('Namespaces of the TLS secret');
    expect(ui.frame()).toContain('> openstack');
    await ui.answer(', auth-system');
    await toReview(ui);
    expect(rec.prepared[0]).toEqual({
      openstack_helm_ingress_secret_name: 'wildcard-certs',
      wildcard_certificate_file: join(dir, 'wild.crt'),
      wildcard_key_file: join(dir, 'wild.key'),
      namespace: 'openstack, auth-system',
      cluster_issuer_type: 'none',
    });
  });
});

describe('file inputs run the certificate checks before moving on', () => {
  it('a wildcard key that belongs to another certificate keeps the operator on the key question', async () => {
    const leaf = ca.issue(['*.cloud.example.com']);
    const other = ca.issue(['*.other.example.com']);
    writeFileSync(join(dir, 'mine.crt'), leaf.cert + ca.cert);
    writeFileSync(join(dir, 'other.key'), other.key);
    const { ui } = await start();
    await choose(ui, 'Wildcard, supplied by you');
    await ui.answer('wildcard-certs');
    await ui.answer('mine.crt');
    await ui.answer('other.key');
    expect(question(ui)).toBe('Wildcard private key file');
    expect(ui.frame()).toMatch(/x .*key/i);
    expect(ui.frame()).toContain('Fix the file (or give another path) to continue.');
    expect(ui.frame()).not.toContain('BEGIN');
  });

  it('a CA key that does not match the CA certificate is refused', async () => {
    const stranger = createTestCA('another CA');
    writeFileSync(join(dir, 'stranger.key'), stranger.key);
    const { ui } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'ca');
    await ui.answer('ca.pem');
    await ui.answer('stranger.key');
    expect(question(ui)).toBe('cluster_issuer_ca_private_key');
    expect(ui.frame()).toMatch(/x .*(match|belong)/is);
  });
});

describe('the issuer part alone (cloudgate regenerate)', () => {
  it('asks only the issuer questions, from the inventory values, and hands back the answers', async () => {
    const rec = recording();
    const results: SetupResult[] = [];
    const initial = {
      certificate_type: 'wildcard-auto',
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
    };
    ui = await renderInk(
      <SetupApp
        initial={initial}
        options={{ only: 'issuer' }}
        session={rec.session}
        answersOnly
        onExit={(r) => results.push(r)}
      />,
    );
    expect(question(ui)).toBe('cluster_issuer_type');
    expect(ui.frame()).toContain('> acme (default)');
    await choose(ui, 'ca');
    await ui.answer('ca.pem');
    await ui.answer('ca.key');
    expect(results).toEqual([
      {
        kind: 'answers',
        answers: {
          openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
          openstack_helm_ingress_secret_name: null,
          cluster_issuer_type: 'ca',
          cluster_issuer_ca_certificate: `file:${join(dir, 'ca.pem')}`,
          cluster_issuer_ca_private_key: `file:${join(dir, 'ca.key')}`,
        },
      },
    ]);
    expect(rec.prepared).toEqual([]);
  });
});

describe('keys', () => {
  it('Esc goes back with the answer kept, and a changed answer is used', async () => {
    const { ui, rec } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    expect(question(ui)).toBe('cluster_issuer_acme_server');
    await ui.press(KEY.escape);
    expect(question(ui)).toBe('cluster_issuer_acme_email');
    expect(ui.frame()).toContain('> ops@example.com');
    await ui.press(KEY.escape);
    await ui.press(KEY.escape);
    expect(question(ui)).toBe('Certificate type');
    await choose(ui, 'Individual');
    await choose(ui, 'self-signed');
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared[0]).toEqual({ cluster_issuer_type: 'self-signed' });
  });

  it('shows an inline error on Enter and clears it as the value is fixed', async () => {
    const { ui } = await start();
    await choose(ui, 'Individual');
    await choose(ui, 'acme');
    await ui.answer('ops');
    expect(question(ui)).toBe('cluster_issuer_acme_email');
    expect(ui.frame()).toContain('which is not an email address');
    await ui.press('@example.com');
    expect(ui.frame()).not.toContain('is not an email address');
    await ui.press(KEY.enter);
    expect(question(ui)).toBe('cluster_issuer_acme_server');
  });

  it('masks secrets as they are typed', async () => {
    const { ui } = await start({
      certificate_type: 'individual',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'cloudflare',
    });
    await ui.press(KEY.enter);
    await ui.press(KEY.enter);
    await ui.answer('ops@example.com');
    await ui.answer('');
    await choose(ui, 'cloudflare');
    await ui.press('tok-very-secret');
    expect(ui.frame()).toContain('***************');
    expect(ui.frame()).not.toContain('tok-very-secret');
  });

  it('values already in the inventory are the defaults; a secret is kept with an empty Enter', async () => {
    const { ui, rec } = await start({
      certificate_type: 'individual',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'old@example.com',
      cluster_issuer_acme_solver: 'godaddy',
      cluster_issuer_acme_godaddy_api_key: 'kept-api-key',
      cluster_issuer_acme_godaddy_secret_key: 'kept-secret',
    });
    await ui.press(KEY.enter);
    await ui.press(KEY.enter);
    expect(ui.frame()).toContain('> old@example.com');
    await ui.press(KEY.enter);
    await ui.press(KEY.enter);
    expect(ui.frame()).toContain('> godaddy');
    await ui.press(KEY.enter);
    expect(ui.frame()).toContain('(Enter keeps the current value)');
    expect(ui.frame()).not.toContain('kept-api-key');
    await ui.press(KEY.enter);
    await ui.press(KEY.enter);
    await choose(ui, 'No');
    await toReview(ui);
    expect(rec.prepared[0]).toMatchObject({
      cluster_issuer_acme_email: 'old@example.com',
      cluster_issuer_acme_godaddy_api_key: 'kept-api-key',
      cluster_issuer_acme_godaddy_secret_key: 'kept-secret',
    });
  });

  it('Ctrl+C cancels at any question: nothing is planned or written', async () => {
    const { ui, rec, results } = await start();
    await choose(ui, 'Individual');
    await ui.press(KEY.ctrlC);
    expect(results).toHaveLength(1);
    const r = results[0];
    expect(r.kind === 'error' && r.error instanceof CancelledError && r.error.message).toBe(
      'Cancelled. Nothing was written.',
    );
    expect(rec.prepared).toEqual([]);
    expect(rec.writes()).toBe(0);
  });

  it('Ctrl+C at the review writes nothing; Enter writes and shows the final screen', async () => {
    const first = await start({ cluster_issuer_type: 'self-signed', add_subject_annotations: 'false' });
    for (let i = 0; i < 3; i++) await first.ui.press(KEY.enter);
    await toReview(first.ui);
    await first.ui.press(KEY.ctrlC);
    expect(first.results[0].kind).toBe('error');
    expect(first.rec.writes()).toBe(0);
    first.ui.unmount();

    const second = await start({ cluster_issuer_type: 'self-signed', add_subject_annotations: 'false' });
    for (let i = 0; i < 3; i++) await second.ui.press(KEY.enter);
    await toReview(second.ui);
    await second.ui.press(KEY.enter);
    await second.ui.waitFor('Written:');
    expect(second.ui.frame()).toContain('cloudgate doctor');
    expect(second.rec.writes()).toBe(1);
    expect(second.results[0].kind).toBe('done');
  });
});
