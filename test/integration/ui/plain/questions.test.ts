import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answersOf, startQuestions, type QuestionsState } from '../../../../src/core/setup/questions.js';
import { askAll, askerFor } from '../../../../src/ui/plain/questions.js';
import { KEY } from '../../../helpers/ink.js';
import { plainIo } from '../../../helpers/plain-io.js';

const INVENTORY = { certificate_type: 'wildcard-auto', openstack_helm_ingress_wildcard_domain: 'cloud.example.com', cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };

/** The plain questions alone, on in-memory streams, as `regenerate --plain` asks them (no setup session). */
function plainQuestions(start: QuestionsState) {
  const io = plainIo();
  const asker = askerFor({ input: io.input, output: io.output, cwd: mkdtempSync(join(tmpdir(), 'cloudgate-plain-q-')) });
  const done = askAll(start, asker).finally(() => asker.prompt.close());
  done.catch(() => undefined);
  return { done, send: io.send };
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
    expect(answersOf(state)).toMatchObject({ cluster_issuer_type: 'self-signed', openstack_helm_ingress_wildcard_domain: 'cloud.example.com' });
    expect(state.answers.cluster_issuer_acme_email).toBe('ops@example.org');
  });
});
