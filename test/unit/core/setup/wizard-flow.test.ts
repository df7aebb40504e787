import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  answersFromInventory,
  checkFileInput,
  currentStep,
  defaultChoiceIndex,
  initialState,
  isReview,
  reduce,
  isOptional,
  issuerUrlError,
  stepError,
  stepsFor,
  toPlanAnswers,
  validateField,
  type WizardAnswers,
  type WizardState,
} from '../../../../src/core/setup/wizard-flow.js';
import { createTestCA } from '../../../helpers/pki.js';

const ids = (answers: WizardAnswers, only?: 'issuer') => stepsFor(answers, only ? { only } : {}).map((s) => s.id);

function answerAll(values: (string | boolean)[], state: WizardState = initialState()): WizardState {
  return values.reduce<WizardState>((s, value) => reduce(s, { type: 'answer', value }), state);
}

describe('the questions for each branch', () => {
  it('individual + ACME + HTTP-01 asks the email, server, solver, then annotations', () => {
    expect(ids({ certificate_type: 'individual', cluster_issuer_type: 'acme' })).toEqual([
      'certificate_type',
      'cluster_issuer_type',
      'cluster_issuer_acme_email',
      'cluster_issuer_acme_server',
      'cluster_issuer_acme_solver',
      'add_subject_annotations',
    ]);
  });

  it('asks whether the ACME server uses a private CA only when a server is given', () => {
    const acme = { certificate_type: 'individual', cluster_issuer_type: 'acme' };
    const server = 'https://acme.internal.example.com/directory';
    expect(ids({ ...acme, cluster_issuer_acme_server: server })).toEqual([
      'certificate_type',
      'cluster_issuer_type',
      'cluster_issuer_acme_email',
      'cluster_issuer_acme_server',
      'cluster_issuer_acme_private_ca',
      'cluster_issuer_acme_solver',
      'add_subject_annotations',
    ]);
    expect(ids({ ...acme, cluster_issuer_acme_server: '   ' })).not.toContain('cluster_issuer_acme_private_ca');
    // Answering the server question decides the next one.
    const afterServer = (value: string) => currentStep(answerAll(['individual', 'acme', 'ops@example.com', value]))!.id;
    expect(afterServer(server)).toBe('cluster_issuer_acme_private_ca');
    expect(afterServer('')).toBe('cluster_issuer_acme_solver');
  });

  it('a public ACME CA (no server) drops a private CA setting left in the inventory', () => {
    const fromInventory = answersFromInventory({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_private_ca: true,
    });
    expect(toPlanAnswers({ ...fromInventory, add_subject_annotations: 'false' })).toMatchObject({
      cluster_issuer_acme_private_ca: null,
    });
    // Clearing the server at its question drops it too; with a server the answer is kept.
    const withServer = { ...fromInventory, cluster_issuer_acme_server: 'https://acme.internal.example.com/directory' };
    expect(toPlanAnswers({ ...withServer, cluster_issuer_acme_server: '' })).toMatchObject({
      cluster_issuer_acme_server: null,
      cluster_issuer_acme_private_ca: null,
    });
    expect(toPlanAnswers(withServer)).toMatchObject({ cluster_issuer_acme_private_ca: true });
    // Another issuer: planSetup drops every ACME value already, nothing to add.
    expect(toPlanAnswers({ ...fromInventory, cluster_issuer_type: 'self-signed' })).not.toHaveProperty(
      'cluster_issuer_acme_private_ca',
    );
  });

  it('never offers none; a supplied wildcard is not asked its issuer (none is the only one) and gets none', () => {
    const issuer = (t: string) => stepsFor({ certificate_type: t }).find((s) => s.id === 'cluster_issuer_type');
    expect(issuer('individual')!.choices!.map((c) => c.value)).toEqual(['acme', 'venafi', 'ca', 'self-signed']);
    expect(issuer('wildcard-auto')!.choices!.map((c) => c.value)).not.toContain('none');
    expect(issuer('wildcard-supplied')).toBeUndefined();
    expect(
      toPlanAnswers({ certificate_type: 'wildcard-supplied', openstack_helm_ingress_secret_name: 'w' })
        .cluster_issuer_type,
    ).toBe('none');
  });

  it('every choice carries its one-line explanation from the table', () => {
    const solver = stepsFor({ cluster_issuer_type: 'acme' }).find((s) => s.id === 'cluster_issuer_acme_solver')!;
    expect(solver.choices).toHaveLength(7);
    for (const c of solver.choices!) expect(c.help).toMatch(/\w/);
    expect(solver.choices!.find((c) => c.value === 'azuredns')!.help).toMatch(/cannot reach the APIs/);
  });

  it('wildcard issued automatically asks for the domain', () => {
    expect(ids({ certificate_type: 'wildcard-auto' }).slice(0, 3)).toEqual([
      'certificate_type',
      'openstack_helm_ingress_wildcard_domain',
      'cluster_issuer_type',
    ]);
  });

  it('wildcard supplied asks the secret name, certificate and key files, and no issuer details', () => {
    expect(ids({ certificate_type: 'wildcard-supplied', cluster_issuer_type: 'none' })).toEqual([
      'certificate_type',
      'openstack_helm_ingress_secret_name',
      'wildcard_certificate_file',
      'wildcard_key_file',
      'namespace',
    ]);
  });

  it.each([
    [
      'azuredns',
      ['client_id', 'client_secret', 'subscription_id', 'tenant_id', 'resourcegroup_name', 'hostedzone_name'],
    ],
    // The secret before the name and algorithm: a key file given there answers them.
    ['rfc2136', ['nameserver', 'tsig_secret_key', 'tsig_algorithm', 'tsig_key_name']],
    ['cloudflare', ['api_token', 'email']],
    ['godaddy', ['api_key', 'secret_key']],
    ['infoblox', ['view', 'host', 'username', 'password']],
  ])('DNS-01 provider %s asks its own fields', (solver, fields) => {
    const asked = ids({ cluster_issuer_type: 'acme', cluster_issuer_acme_solver: solver });
    const after = asked.slice(asked.indexOf('cluster_issuer_acme_solver') + 1, -1);
    expect(after).toEqual(fields.map((f) => `cluster_issuer_acme_${solver}_${f}`));
  });

  it.each([
    ['static', ['access_key_id', 'secret_access_key', 'secret_name', 'role_arn']],
    ['ambient', ['role_arn']],
    ['kubernetes', ['role_arn', 'service_account_name']],
  ])('route53 with auth %s asks the fields of that mode', (auth, fields) => {
    const asked = ids({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: auth,
    });
    const p = 'cluster_issuer_acme_route53_';
    expect(asked.slice(asked.indexOf(`${p}auth`), -1)).toEqual([
      `${p}auth`,
      `${p}region`,
      `${p}hosted_zone_id`,
      ...fields.map((f) => p + f),
    ]);
  });

  it('Venafi asks an access token (recommended) or username and password (legacy)', () => {
    const base = [
      'cluster_issuer_venafi_ca',
      'cluster_issuer_venafi_zone',
      'cluster_issuer_venafi_tpp_url',
      'cluster_issuer_venafi_tpp_ca_bundle',
      'venafi_auth',
    ];
    const token = stepsFor({ cluster_issuer_type: 'venafi', venafi_auth: 'token' });
    expect(token.map((s) => s.id).slice(2, -1)).toEqual([...base, 'cluster_issuer_venafi_access_token']);
    expect(token.find((s) => s.id === 'cluster_issuer_venafi_access_token')).toMatchObject({
      kind: 'secret',
      required: true,
    });
    const auth = token.find((s) => s.id === 'venafi_auth')!;
    expect(auth.choices!.map((c) => c.label)).toEqual(['Access token (recommended)', 'Username and password (legacy)']);
    expect(ids({ cluster_issuer_type: 'venafi', venafi_auth: 'password' }).slice(-3, -1)).toEqual([
      'cluster_issuer_venafi_username',
      'cluster_issuer_venafi_password',
    ]);
  });

  it('the CA issuer asks for the certificate and key files; self-signed asks nothing more', () => {
    const ca = stepsFor({ cluster_issuer_type: 'ca' });
    expect(ca.slice(2, -1).map((s) => [s.id, s.kind])).toEqual([
      ['cluster_issuer_ca_certificate', 'file'],
      ['cluster_issuer_ca_private_key', 'file'],
    ]);
    expect(ids({ cluster_issuer_type: 'self-signed' })).toEqual([
      'certificate_type',
      'cluster_issuer_type',
      'add_subject_annotations',
    ]);
  });

  it('subject annotations are five optional questions once asked for', () => {
    const asked = ids({ cluster_issuer_type: 'self-signed', add_subject_annotations: 'true' });
    expect(asked.slice(3)).toEqual([
      'annotation:subject-organizations',
      'annotation:subject-organizationalunits',
      'annotation:subject-localities',
      'annotation:subject-provinces',
      'annotation:subject-countries',
    ]);
  });

  it('the issuer part alone skips the certificate type and annotations', () => {
    expect(ids({ cluster_issuer_type: 'ca' }, 'issuer')).toEqual([
      'cluster_issuer_type',
      'cluster_issuer_ca_certificate',
      'cluster_issuer_ca_private_key',
    ]);
  });
});

describe('navigation', () => {
  it('walks to the review and back, keeping every answer', () => {
    let s = answerAll(['individual', 'acme', 'ops@example.com', '', 'http01', 'false']);
    expect(isReview(s)).toBe(true);
    s = reduce(s, { type: 'back' });
    s = reduce(s, { type: 'back' });
    expect(currentStep(s)!.id).toBe('cluster_issuer_acme_solver');
    s = reduce(s, { type: 'back' });
    s = reduce(s, { type: 'back' });
    expect(currentStep(s)!.id).toBe('cluster_issuer_acme_email');
    expect(s.answers.cluster_issuer_acme_email).toBe('ops@example.com');
  });

  it('changing an earlier choice changes the questions after it but keeps the other answers', () => {
    let s = answerAll(['individual', 'acme', 'ops@example.com', '', 'cloudflare', 'tok-123456']);
    for (let i = 0; i < 5; i++) s = reduce(s, { type: 'back' });
    expect(currentStep(s)!.id).toBe('cluster_issuer_type');
    s = reduce(s, { type: 'answer', value: 'self-signed' });
    expect(currentStep(s)!.id).toBe('add_subject_annotations');
    expect(s.answers.cluster_issuer_acme_cloudflare_api_token).toBe('tok-123456');
    expect(toPlanAnswers(s.answers)).toEqual({
      cluster_issuer_type: 'self-signed',
      openstack_helm_ingress_wildcard_domain: null,
      openstack_helm_ingress_secret_name: null,
    });
  });

  it('back at the first question stays there (the screen cancels)', () => {
    expect(reduce(initialState(), { type: 'back' }).index).toBe(0);
  });

  it('highlights the inventory value, else the table default', () => {
    const solver = stepsFor({ cluster_issuer_type: 'acme' }).find((s) => s.id === 'cluster_issuer_acme_solver')!;
    expect(defaultChoiceIndex(solver, {})).toBe(0);
    expect(defaultChoiceIndex(solver, { cluster_issuer_acme_solver: 'godaddy' })).toBe(5);
  });
});

describe('issuerUrlError (the public issuer URL the discovery checks fetch)', () => {
  it('accepts an https URL, with a path or a port', () => {
    expect(issuerUrlError(' https://oidc.example.com/cluster1 ')).toBeUndefined();
    expect(issuerUrlError('https://127.0.0.1:8443/cluster1')).toBeUndefined();
  });

  it.each([
    ['', /Give the public issuer URL/],
    ['oidc.example.com', /not a URL/],
    ['http://oidc.example.com', /only accepts https/],
    ['https://oidc.example.com/c?x=1', /query or fragment/],
    ['https://oidc.example.com/c#top', /query or fragment/],
  ])('refuses %j', (raw, message) => {
    expect(issuerUrlError(raw)).toMatch(message);
  });
});

describe('validateField', () => {
  const step = (id: string, answers: WizardAnswers = {}) => stepsFor(answers).find((s) => s.id === id)!;
  const acme = { cluster_issuer_type: 'acme' };

  it('requires required fields and accepts empty optional ones', () => {
    expect(validateField(step('cluster_issuer_acme_email', acme), '  ')).toMatch(/required/);
    expect(validateField(step('cluster_issuer_acme_server', acme), '')).toBeUndefined();
  });

  it('the wildcard domain of "wildcard, issued automatically" is asked as required, not as "unset: individual"', () => {
    const domain = step('openstack_helm_ingress_wildcard_domain', { certificate_type: 'wildcard-auto' });
    expect(domain.required).toBe(true);
    expect(domain.title).not.toMatch(/unset/);
    expect(domain.title).toContain('*.<domain>');
    const error = validateField(domain, '');
    expect(error).toMatch(/required for a wildcard certificate/);
    expect(error).not.toMatch(/unset/);
    expect(isOptional(domain, { certificate_type: 'wildcard-auto' })).toBe(false);
  });

  it('checks emails, URLs, domains and host:port as typed', () => {
    expect(validateField(step('cluster_issuer_acme_email', acme), 'ops')).toMatch(/not an email address/);
    expect(validateField(step('cluster_issuer_acme_email', acme), 'ops@example.com')).toBeUndefined();
    expect(validateField(step('cluster_issuer_acme_server', acme), 'acme.example.com')).toMatch(/not a URL/);
    expect(validateField(step('cluster_issuer_acme_server', acme), 'ftp://acme.example.com')).toMatch(/https/);
    // The same rule as the answers file: plain http:// is refused here too.
    expect(validateField(step('cluster_issuer_acme_server', acme), 'http://acme.example.com/directory')).toMatch(
      /must be an https:\/\/ URL/,
    );
    const domain = step('openstack_helm_ingress_wildcard_domain', { certificate_type: 'wildcard-auto' });
    expect(validateField(domain, '*.cloud.example.com')).toMatch(/without "\*\."/);
    expect(validateField(domain, 'cloud example')).toMatch(/not a valid domain name/);
    expect(validateField(domain, 'cloud.example.com')).toBeUndefined();
    const ns = step('cluster_issuer_acme_rfc2136_nameserver', { ...acme, cluster_issuer_acme_solver: 'rfc2136' });
    // As cert-manager: a host alone is port 53.
    expect(validateField(ns, 'ns1.example.com')).toBeUndefined();
    expect(validateField(ns, '2001:db8::1:53')).toMatch(/brackets/);
    expect(validateField(ns, '[2001:db8::1]:53')).toBeUndefined();
    expect(validateField(ns, 'ns1.example.com:70000')).toMatch(/between 1 and 65535/);
    const namespaces = step('namespace', { certificate_type: 'wildcard-supplied' });
    expect(validateField(namespaces, 'openstack, auth-system')).toBeUndefined();
    expect(validateField(namespaces, 'openstack, Auth_System')).toMatch(/"Auth_System" is not a Kubernetes namespace/);
  });
});

describe('answers for planSetup', () => {
  it('keeps only the chosen branch, turns booleans and annotations into their types', () => {
    const answers: WizardAnswers = {
      certificate_type: 'wildcard-auto',
      openstack_helm_ingress_wildcard_domain: ' cloud.example.com ',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_server: 'https://acme.internal.example.com/directory',
      cluster_issuer_acme_private_ca: 'true',
      cluster_issuer_acme_solver: 'http01',
      cluster_issuer_ca_certificate: 'file:/stale.pem',
      add_subject_annotations: 'true',
      'annotation:subject-countries': 'CH',
      'annotation:subject-localities': '',
    };
    expect(toPlanAnswers(answers)).toEqual({
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_server: 'https://acme.internal.example.com/directory',
      cluster_issuer_acme_private_ca: true,
      cluster_issuer_acme_solver: 'http01',
      atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'CH' },
      openstack_helm_ingress_secret_name: null,
    });
  });

  it('sends null for what was left empty or dropped, so planSetup removes the old value', () => {
    expect(
      toPlanAnswers({
        certificate_type: 'individual',
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_server: '',
        add_subject_annotations: 'false',
      }),
    ).toMatchObject({
      openstack_helm_ingress_wildcard_domain: null,
      openstack_helm_ingress_secret_name: null,
      cluster_issuer_acme_server: null,
      atmosphere_ingress_annotations: null,
    });
  });

  it('fills unanswered choices with their defaults', () => {
    expect(toPlanAnswers({})).toMatchObject({ cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'http01' });
  });

  it('reads the walkthrough choices back from an inventory', () => {
    expect(
      answersFromInventory({ openstack_helm_ingress_secret_name: 'wild', cluster_issuer_type: 'none' }),
    ).toMatchObject({ certificate_type: 'wildcard-supplied' });
    expect(answersFromInventory({ openstack_helm_ingress_wildcard_domain: 'c.example.com' })).toMatchObject({
      certificate_type: 'wildcard-auto',
    });
    expect(answersFromInventory({ cluster_issuer_venafi_username: 'u' })).toMatchObject({ venafi_auth: 'password' });
    expect(
      answersFromInventory({ atmosphere_ingress_annotations: { 'cert-manager.io/subject-organizations': 'Org' } }),
    ).toMatchObject({
      add_subject_annotations: 'true',
      'annotation:subject-organizations': 'Org',
    });
  });
});

describe('checkFileInput', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-wizard-'));
  const ca = createTestCA();
  writeFileSync(join(dir, 'ca.pem'), ca.cert);
  writeFileSync(join(dir, 'notes.txt'), 'hello');
  const caStep = stepsFor({ cluster_issuer_type: 'ca' }).find((s) => s.id === 'cluster_issuer_ca_certificate')!;

  it('names a missing file and says why', () => {
    const r = checkFileInput(caStep, 'missing.pem', {}, dir);
    expect(r.value).toBeUndefined();
    expect(r.findings[0]).toMatchObject({ severity: 'error', variable: 'cluster_issuer_ca_certificate' });
    expect(r.findings[0].message).toBe(`${join(dir, 'missing.pem')} does not exist.`);
  });

  it('refuses a file without a PEM certificate', () => {
    expect(checkFileInput(caStep, 'notes.txt', {}, dir).findings[0].message).toMatch(/holds no PEM certificate/);
  });

  it('stores a PEM variable as file:ABSOLUTE_PATH', () => {
    expect(checkFileInput(caStep, 'ca.pem', {}, dir)).toMatchObject({ value: `file:${join(dir, 'ca.pem')}` });
  });

  it('checks a supplied wildcard key against its certificate, and the domain the inventory names', () => {
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(dir, 'wild.crt'), leaf.cert + ca.cert);
    writeFileSync(join(dir, 'wild.key'), leaf.key);
    chmodSync(join(dir, 'wild.key'), 0o600);
    const answers = { certificate_type: 'wildcard-supplied', wildcard_certificate_file: join(dir, 'wild.crt') };
    const keyStep = stepsFor(answers).find((s) => s.id === 'wildcard_key_file')!;
    expect(checkFileInput(keyStep, 'wild.key', answers, dir)).toEqual({ value: join(dir, 'wild.key'), findings: [] });
    // The certificate's own findings (the domain it covers) show on the certificate question, not the key's.
    const certificateStep = stepsFor(answers).find((s) => s.id === 'wildcard_certificate_file')!;
    const other = { ...answers, openstack_helm_ingress_wildcard_domain: 'other.example.com' };
    const elsewhere = checkFileInput(certificateStep, 'wild.crt', other, dir);
    expect(elsewhere.findings.some((f) => f.severity === 'error' && f.message.includes('other.example.com'))).toBe(
      true,
    );
    expect(checkFileInput(keyStep, 'wild.key', other, dir).findings).toEqual([]);
  });

  it('a supplied chain in the wrong order: a warning on the certificate question that offers the right order', () => {
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(dir, 'reversed.crt'), ca.cert + leaf.cert);
    const answers = { certificate_type: 'wildcard-supplied' };
    const certificateStep = stepsFor(answers).find((s) => s.id === 'wildcard_certificate_file')!;
    const check = checkFileInput(certificateStep, 'file:reversed.crt', answers, dir);
    expect(check.value).toBe(join(dir, 'reversed.crt'));
    expect(check.findings.find((f) => f.rule === 'wildcard-chain-order')?.severity).toBe('warning');
    expect(check.offer).toEqual({ question: 'Use the right order?', also: { wildcard_fix_order: 'true' } });
  });

  it("the CA issuer's chain in the wrong order: the same offer; accepted, the inventory gets the chain in order", () => {
    const intermediate = ca.issue([], { cn: 'Issuing CA', ca: true });
    writeFileSync(join(dir, 'ca-reversed.pem'), ca.cert + intermediate.cert);
    const answers = { certificate_type: 'individual', cluster_issuer_type: 'ca' };
    const step = stepsFor(answers).find((s) => s.id === 'cluster_issuer_ca_certificate')!;
    const check = checkFileInput(step, 'ca-reversed.pem', answers, dir);
    expect(check.value).toBe(`file:${join(dir, 'ca-reversed.pem')}`);
    expect(check.findings.find((f) => f.rule === 'ca-certificate-chain-order')?.severity).toBe('warning');
    expect(check.offer?.question).toBe('Use the right order?');
    const blocks = check.offer?.value?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
    expect(blocks?.map((b) => b.replace(/\s/g, ''))).toEqual(
      [intermediate.cert, ca.cert].map((c) => c.trim().replace(/\s/g, '')),
    );
    // In order already: no offer.
    writeFileSync(join(dir, 'ca-ordered.pem'), intermediate.cert + ca.cert);
    expect(checkFileInput(step, 'ca-ordered.pem', answers, dir).offer).toBeUndefined();
  });
});

describe('stepError', () => {
  const find = (answers: WizardAnswers, id: string) => stepsFor(answers).find((s) => s.id === id)!;

  it('names the wildcard once in the HTTP-01 refusal, whether the domain was given with "*." or not', () => {
    for (const domain of ['cloud.example.com', '*.cloud.example.com']) {
      const answers = {
        certificate_type: 'wildcard-auto',
        openstack_helm_ingress_wildcard_domain: domain,
        cluster_issuer_type: 'acme',
      };
      const error = stepError(find(answers, 'cluster_issuer_acme_solver'), 'http01', answers);
      expect(error).toContain('(*.cloud.example.com)');
      expect(error).not.toContain('*.*.');
    }
  });

  it('refuses HTTP-01 for a wildcard issued automatically, with the reason', () => {
    const answers = {
      certificate_type: 'wildcard-auto',
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      cluster_issuer_type: 'acme',
    };
    const solver = find(answers, 'cluster_issuer_acme_solver');
    expect(stepError(solver, 'http01', answers)).toMatch(/cannot be issued with the HTTP-01 challenge/);
    expect(stepError(solver, 'rfc2136', answers)).toBeUndefined();
  });

  it('requires the role for keyless route53, not for ambient', () => {
    const keyless = {
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'kubernetes',
    };
    const role = find(keyless, 'cluster_issuer_acme_route53_role_arn');
    expect(stepError(role, '', keyless)).toMatch(/role/i);
    expect(isOptional(role, keyless)).toBe(false);
    const ambient = { ...keyless, cluster_issuer_acme_route53_auth: 'ambient' };
    expect(isOptional(find(ambient, 'cluster_issuer_acme_route53_role_arn'), ambient)).toBe(true);
  });

  it('accepts a supplied wildcard secret name: the issuer is then none', () => {
    const answers = { certificate_type: 'wildcard-supplied' };
    expect(stepError(find(answers, 'openstack_helm_ingress_secret_name'), 'wildcard-certs', answers)).toBeUndefined();
    expect(stepError(find(answers, 'openstack_helm_ingress_secret_name'), 'Wildcard_Certs', answers)).toMatch(
      /not a valid Kubernetes secret name/,
    );
  });
});

describe('questions name their variable as the inventory spells it', () => {
  it('asks in plain words, with the variable below; the platform names and values for such an inventory', () => {
    const answers = {
      certificate_type: 'individual',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
    };
    const neutral = stepsFor(answers).find((s) => s.id === 'cluster_issuer_acme_route53_region')!;
    expect(neutral.help).toBe('cluster_issuer_acme_route53_region');
    expect(neutral.title).not.toContain('cluster_issuer');
    const platform = stepsFor(answers, { names: 'platform' });
    expect(platform.find((s) => s.id === 'cluster_issuer_acme_route53_region')!.help).toBe(
      'cluster_issuer_acme_route53_region',
    );
    expect(platform.find((s) => s.id === 'cluster_issuer_acme_solver')!.choices!.map((c) => c.label)).toContain(
      'route53',
    );
    expect(platform.find((s) => s.id === 'cluster_issuer_acme_solver')!.choices!.map((c) => c.value)).toContain(
      'route53',
    );
  });
});

describe('flags answer their question', () => {
  it('--namespace given: the TLS secret namespaces are not asked again', () => {
    const answers = { certificate_type: 'wildcard-supplied' };
    expect(stepsFor(answers).map((s) => s.id)).toContain('namespace');
    expect(stepsFor(answers, { namespacesGiven: true }).map((s) => s.id)).not.toContain('namespace');
  });
});

describe('file questions', () => {
  it('a DER certificate gets the conversion command, as in the answers mode', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-der-'));
    const ca = createTestCA('der test CA');
    const der = Buffer.from(ca.cert.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    writeFileSync(join(dir, 'ca.der'), der);
    const step = stepsFor({ cluster_issuer_type: 'ca' }).find((s) => s.id === 'cluster_issuer_ca_certificate')!;
    const result = checkFileInput(step, 'ca.der', {}, dir);
    expect(result.findings[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('binary DER') });
    expect(result.findings[0].advice).toContain('openssl x509 -inform der');
  });
});

describe("the walkthrough speaks the platform's words", () => {
  const ALIAS =
    /(?<![A-Za-z0-9_])(clouddnsa|clouddnsb|dnsc|dnsd|dnse|commercialca|clusteroidc|certmgr|cloud_helm_ingress_\w*|platform_ingress_\w*)(?![A-Za-z0-9_])/i;
  const texts = (answers: WizardAnswers, names?: 'spec') =>
    stepsFor(answers, names ? { names } : {}).flatMap((s) => [
      s.title,
      s.help,
      s.section,
      ...(s.choices ?? []).flatMap((c) => [c.label, c.help ?? '']),
    ]);
  const BRANCHES: WizardAnswers[] = [
    {
      certificate_type: 'wildcard-auto',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'kubernetes',
      add_subject_annotations: 'true',
    },
    { certificate_type: 'individual', cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'azuredns' },
    { certificate_type: 'individual', cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'cloudflare' },
    { certificate_type: 'individual', cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'godaddy' },
    { certificate_type: 'individual', cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'infoblox' },
    { certificate_type: 'individual', cluster_issuer_type: 'venafi', venafi_auth: 'token' },
    { certificate_type: 'wildcard-supplied' },
  ];

  it("asks every question in the platform's words, choices and their help included, and asks no naming question", () => {
    for (const answers of BRANCHES) {
      const spoken = texts(answers);
      expect(spoken.filter((t) => ALIAS.test(t))).toEqual([]);
      expect(stepsFor(answers).map((s) => s.id)).not.toContain('names');
    }
    expect(texts(BRANCHES[0]).join('\n')).toMatch(/cluster_issuer_acme_route53_role_arn/);
    expect(
      stepsFor({ certificate_type: 'individual', cluster_issuer_type: 'acme' }).flatMap((s) =>
        (s.choices ?? []).map((c) => c.label),
      ),
    ).toEqual(expect.arrayContaining(['route53', 'azuredns', 'cloudflare', 'godaddy', 'infoblox', 'venafi']));
  });

  it("with --names spec names each variable and choice by its alias (the choice keeps the platform's value inside)", () => {
    const steps = stepsFor(BRANCHES[0], { names: 'spec' });
    const solver = steps.find((s) => s.id === 'cluster_issuer_acme_solver')!;
    expect(solver.help).toBe('cluster_issuer_acme_solver');
    expect(solver.choices!.map((c) => [c.value, c.label])).toContainEqual(['route53', 'clouddnsb']);
    expect(steps.find((s) => s.id === 'cluster_issuer_acme_route53_role_arn')!.help).toBe(
      'cluster_issuer_acme_clouddnsb_role_arn',
    );
    expect(texts(BRANCHES[0], 'spec').join('\n')).not.toMatch(/cluster_issuer_acme_route53_/);
  });

  it("says its errors in the platform's words", () => {
    const answers = BRANCHES[0];
    const role = stepsFor(answers).find((s) => s.id === 'cluster_issuer_acme_route53_role_arn')!;
    const error = stepError(role, '', answers);
    expect(error).toMatch(/cluster_issuer_acme_route53_role_arn/);
    expect(error).not.toMatch(ALIAS);
  });
});

describe('questions the platform needs answered are required', () => {
  it('the walkthrough question is required in that branch, not optional', () => {
    let state = initialState({});
    state = reduce(state, { type: 'answer', value: 'wildcard-auto' });
    const step = stepsFor(state.answers)[state.index]!;
    expect(step.id).toBe('openstack_helm_ingress_wildcard_domain');
    expect(isOptional(step, state.answers)).toBe(false);
    expect(stepError(step, '', state.answers)).toBeDefined();
  });

  it('the walkthrough asks the region as a required question', () => {
    const answers = {
      certificate_type: 'individual',
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'ambient',
    };
    const step = stepsFor(answers).find((s) => s.id === 'cluster_issuer_acme_route53_region')!;
    expect(isOptional(step, answers)).toBe(false);
  });
});
