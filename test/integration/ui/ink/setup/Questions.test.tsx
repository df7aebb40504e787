import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../../../../src/core/errors.js';
import { CANCELLED } from '../../../../../src/core/setup/outcome.js';
import { QuestionsApp, type QuestionsResult } from '../../../../../src/ui/ink/setup/Questions.js';
import { KEY, renderInk, type InkDriver } from '../../../../helpers/ink.js';
import { createTestCA } from '../../../../helpers/pki.js';
import { choose, question } from '../../../../helpers/drive.js';

const dir = mkdtempSync(join(tmpdir(), 'cloudgate-questions-'));
const ca = createTestCA();
writeFileSync(join(dir, 'ca.pem'), ca.cert);
writeFileSync(join(dir, 'ca.key'), ca.key);
chmodSync(join(dir, 'ca.key'), 0o600);

const INVENTORY = {
  certificate_type: 'wildcard-auto',
  openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'ops@example.com',
};

let ui: InkDriver | undefined;
afterEach(() => ui?.unmount());

/** The questions-only app as regenerate runs it: the issuer part, from the inventory's values, and no setup session. */
async function issuerQuestions() {
  const results: QuestionsResult[] = [];
  ui = await renderInk(
    <QuestionsApp initial={INVENTORY} options={{ only: 'issuer' }} cwd={dir} onExit={(r) => results.push(r)} />,
  );
  return { ui, results };
}

describe('the questions alone (cloudgate regenerate)', () => {
  it("asks the issuer questions under the command's title and hands back the answers for planSetup", async () => {
    const { ui, results } = await issuerQuestions();
    expect(ui.frame()).toContain('cloudgate regenerate');
    expect(question(ui)).toBe('cluster_issuer_type');
    expect(ui.frame()).toMatch(/question 1 of \d+/);
    await choose(ui, 'ca');
    await ui.answer('ca.pem');
    await ui.answer('ca.key');
    expect(results).toEqual([
      {
        kind: 'answers',
        answers: expect.objectContaining({
          cluster_issuer_type: 'ca',
          openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
          cluster_issuer_ca_certificate: `file:${join(dir, 'ca.pem')}`,
          cluster_issuer_ca_private_key: `file:${join(dir, 'ca.key')}`,
        }),
      },
    ]);
  });

  it('Esc goes back with the answer kept; Esc at the first question cancels with nothing written', async () => {
    const { ui, results } = await issuerQuestions();
    await choose(ui, 'acme');
    expect(question(ui)).toBe('cluster_issuer_acme_email');
    await ui.press(KEY.escape);
    expect(question(ui)).toBe('cluster_issuer_type');
    expect(ui.frame()).toContain('> acme');
    expect(results).toEqual([]);
    await ui.press(KEY.escape);
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.error).toBeInstanceOf(CancelledError);
    expect(result.kind === 'error' && result.error.message).toBe(CANCELLED);
  });

  it('Ctrl+C cancels at any question; a refused value keeps the question with its reason', async () => {
    const { ui, results } = await issuerQuestions();
    await choose(ui, 'acme');
    // The inventory's address is offered: cleared first.
    await ui.press(KEY.ctrlU);
    await ui.answer('not-an-email');
    expect(question(ui)).toBe('cluster_issuer_acme_email');
    expect(ui.frame()).toMatch(/not an email address/);
    await ui.press(KEY.ctrlC);
    expect(results.map((r) => r.kind)).toEqual(['error']);
  });

  it('takes no setup session: there is nothing to plan or write', () => {
    // @ts-expect-error QuestionsApp has no session to plan or write with.
    const element = <QuestionsApp initial={{}} cwd={dir} onExit={() => undefined} session={{}} />;
    expect(element.props.cwd).toBe(dir);
  });
});
