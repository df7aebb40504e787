import { mkdtempSync, writeFileSync } from 'node:fs';
import { clearSecretsForTests, redact } from '../../../../src/core/secrets.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answersOf, startQuestions, type QuestionsState } from '../../../../src/core/setup/questions.js';
import { askAll, askerFor } from '../../../../src/ui/plain/questions.js';
import { KEY } from '../../../helpers/ink.js';
import { plainIo } from '../../../helpers/plain-io.js';
import { createTestCA } from '../../../helpers/pki.js';

const INVENTORY = {
  certificate_type: 'wildcard-auto',
  openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'ops@example.com',
};

/** The plain questions alone, on in-memory streams, as `regenerate --plain` asks them (no setup session). */
function plainQuestions(start: QuestionsState) {
  const io = plainIo();
  const asker = askerFor({
    input: io.input,
    output: io.output,
    cwd: mkdtempSync(join(tmpdir(), 'cloudgate-plain-q-')),
  });
  const done = askAll(start, asker).finally(() => asker.prompt.close());
  done.catch(() => undefined);
  return { done, send: io.send, seen: io.seen };
}

describe('the plain questions alone', () => {
  it('asks the issuer part from the inventory values, "<" goes back with the answer kept, and ends with the answers', async () => {
    const p = plainQuestions(startQuestions(INVENTORY, { only: 'issuer' }));
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_acme_email', 'ops\r');
    await p.send('is not an email address', 'ops@example.org\r');
    await p.send('cluster_issuer_acme_server', '<\r');
    await p.send('cluster_issuer_acme_email', '\r');
    await p.send('cluster_issuer_acme_server', '\r');
    // 1) HTTP-01, which cannot issue a wildcard: refused, the question is asked again.
    await p.send('cluster_issuer_acme_solver', '1\r');
    await p.send('cannot be issued with the HTTP-01', '<\r');
    await p.send('cluster_issuer_acme_server', '<\r');
    await p.send('cluster_issuer_acme_email', '<\r');
    await p.send('Certificate issuer', '4\r');
    const state = await p.done;
    expect(answersOf(state)).toMatchObject({
      cluster_issuer_type: 'self-signed',
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
    });
    expect(state.answers.cluster_issuer_acme_email).toBe('ops@example.org');
  });
});

describe("the TSIG secret's question", () => {
  const RFC2136 = {
    ...INVENTORY,
    certificate_type: 'individual',
    cloud_helm_ingress_wildcard_domain: undefined,
    cluster_issuer_acme_solver: 'rfc2136',
    cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com:53',
  };

  it('takes the path of a tsig-keygen key file, which stays readable (no secret), and answers the key name and algorithm from it', async () => {
    clearSecretsForTests();
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-tsig-'));
    const keyFile = join(dir, 'certmgr.key');
    writeFileSync(
      keyFile,
      'key "certmgr-key" {\n\talgorithm hmac-sha256;\n\tsecret "c2VjcmV0LXRzaWcta2V5LWZyb20tZmlsZQ==";\n};\n',
    );
    const p = plainQuestions(startQuestions(RFC2136, { only: 'issuer' }));
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_acme_email', '\r');
    await p.send('cluster_issuer_acme_server', '\r');
    await p.send('cluster_issuer_acme_solver', '\r');
    await p.send('cluster_issuer_acme_rfc2136_nameserver', '\r');
    await p.send('the path of the key file', `${keyFile}\r`);
    // Its algorithm and name are the defaults of the next two questions now.
    await p.send('TSIG algorithm', '\r');
    await p.send('cluster_issuer_acme_rfc2136_tsig_key_name', '\r');
    const state = await p.done;
    expect(state.answers).toMatchObject({
      cluster_issuer_acme_rfc2136_tsig_secret_key: `file:${keyFile}`,
      cluster_issuer_acme_rfc2136_tsig_key_name: 'certmgr-key',
    });
    expect(redact(`file:${keyFile}`)).toBe(`file:${keyFile}`);
    expect(redact('c2VjcmV0LXRzaWcta2V5LWZyb20tZmlsZQ==')).toBe('[redacted]');
    // The key's name is no secret: a message that names the key (the review's info) keeps it.
    expect(redact('Read the TSIG key "certmgr-key" (HMACSHA256)')).toBe('Read the TSIG key "certmgr-key" (HMACSHA256)');
    // The hidden answer is echoed as the key file's path; going back, Enter keeps that file, named.
    expect(p.seen()).toContain(`key file ${keyFile}`);
  });

  it('going back to the question names the key file Enter keeps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-tsig-'));
    const keyFile = join(dir, 'certmgr.key');
    writeFileSync(
      keyFile,
      'key "certmgr-key" {\n\talgorithm hmac-sha256;\n\tsecret "c2VjcmV0LXRzaWcta2V5LWZyb20tZmlsZQ==";\n};\n',
    );
    const p = plainQuestions(
      startQuestions(
        { ...RFC2136, cluster_issuer_acme_rfc2136_tsig_secret_key: `file:${keyFile}` },
        { only: 'issuer' },
      ),
    );
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_acme_email', '\r');
    await p.send('cluster_issuer_acme_server', '\r');
    await p.send('cluster_issuer_acme_solver', '\r');
    await p.send('cluster_issuer_acme_rfc2136_nameserver', '\r');
    await p.send(`(Enter keeps the key file ${keyFile})`, '\r');
    await p.send('TSIG algorithm', '\r');
    await p.send('cluster_issuer_acme_rfc2136_tsig_key_name', '\r');
    const state = await p.done;
    expect(state.answers.cluster_issuer_acme_rfc2136_tsig_secret_key).toBe(`file:${keyFile}`);
  });
});

describe("the CA issuer's certificate question", () => {
  it('offers the right order for a chain in the wrong order; accepted, the answer is the chain in order and its key matches it', async () => {
    const ca = createTestCA('plain order root');
    const intermediate = ca.issue([], { cn: 'plain order issuing CA', ca: true });
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-plain-ca-'));
    writeFileSync(join(dir, 'chain.pem'), ca.cert + intermediate.cert);
    writeFileSync(join(dir, 'issuing.key'), intermediate.key, { mode: 0o600 });
    const p = plainQuestions(
      startQuestions(
        {
          ...INVENTORY,
          certificate_type: 'individual',
          cloud_helm_ingress_wildcard_domain: undefined,
          cluster_issuer_type: 'ca',
        },
        { only: 'issuer' },
      ),
    );
    await p.send('Certificate issuer', KEY.enter);
    await p.send('cluster_issuer_ca_certificate', `${join(dir, 'chain.pem')}\r`);
    await p.send('Use the right order?', '\r');
    await p.send('cluster_issuer_ca_private_key', `${join(dir, 'issuing.key')}\r`);
    const state = await p.done;
    const value = String(state.answers.cluster_issuer_ca_certificate);
    expect(value.indexOf('BEGIN CERTIFICATE')).toBeLessThan(value.lastIndexOf('BEGIN CERTIFICATE'));
    expect(value.replace(/\s/g, '')).toBe((intermediate.cert + ca.cert).replace(/\s/g, ''));
  });
});
