import { afterEach, describe, expect, it } from 'vitest';
import { ReviewScreen } from '../../../../../src/ui/ink/setup/ReviewScreen.js';
import type { Review } from '../../../../../src/core/setup/review.js';
import { KEY, renderInk, type InkDriver } from '../../../../helpers/ink.js';

let ui: InkDriver | undefined;
afterEach(() => ui?.unmount());

const review = (over: Partial<Review> = {}): Review => ({
  inventoryPath: '/inv/certificates.yml',
  inventoryExists: true,
  heading: 'Review: /inv/certificates.yml (exists)',
  issuer: 'Issuer: ca (was acme)',
  set: ['cluster_issuer_type'],
  removed: [],
  renamed: [],
  translated: [],
  diff: '--- a\n+++ b\n@@ -1,1 +1,1 @@\n-cluster_issuer_type: acme\n+cluster_issuer_type: ca\n',
  files: [{ path: '/inv/certificates.yml', description: 'inventory (updated)', mode: 0o600, holdsSecret: true }],
  findings: [],
  blocked: false,
  dryRun: false,
  cluster: { lines: [], diff: '' },
  ...over,
});

describe('ReviewScreen', () => {
  it('two Enters that arrive as one chunk (a slow link) confirm, as one Enter does', async () => {
    let confirmed = 0;
    ui = await renderInk(<ReviewScreen review={review()} onConfirm={() => confirmed++} />);
    await ui.press(`${KEY.enter}${KEY.enter}`);
    expect(confirmed).toBe(1);
  });

  it('an error refuses Enter and says to go back; nothing is confirmed', async () => {
    let confirmed = 0;
    ui = await renderInk(
      <ReviewScreen
        review={review({
          blocked: true,
          findings: [
            {
              rule: 'x',
              severity: 'error',
              variable: 'openstack_helm_ingress_wildcard_domain',
              message: 'The certificate does not cover *.cloud.example.com.',
              advice: 'Supply a certificate for *.cloud.example.com.',
            },
          ],
        })}
        onConfirm={() => confirmed++}
      />,
    );
    expect(ui.frame()).toContain('x The certificate does not cover *.cloud.example.com.');
    expect(ui.frame()).toContain('-> Supply a certificate for *.cloud.example.com.');
    expect(ui.frame()).toContain('Esc back to fix the errors');
    await ui.press(KEY.enter);
    expect(confirmed).toBe(0);
  });

  it('without errors Enter confirms; the patch header is left out, the files show mode and secrecy', async () => {
    let confirmed = 0;
    ui = await renderInk(<ReviewScreen review={review()} onConfirm={() => confirmed++} />);
    expect(ui.frame()).not.toContain('+++ b');
    expect(ui.frame()).toContain('+cluster_issuer_type: ca');
    expect(ui.frame()).toContain('/inv/certificates.yml - inventory (updated) (mode 0600, holds secrets)');
    await ui.press(KEY.enter);
    expect(confirmed).toBe(1);
  });

  it('a long diff scrolls within the terminal height', async () => {
    const diff = `@@ -0,0 +1,60 @@\n${Array.from({ length: 60 }, (_, i) => `+line_${i}: value`).join('\n')}\n`;
    ui = await renderInk(<ReviewScreen review={review({ diff })} onConfirm={() => undefined} />);
    expect(ui.frame().split('\n').length).toBeLessThanOrEqual(24);
    expect(ui.frame()).not.toContain('+line_59');
    // Page down until the end shows (a key that changes nothing costs the driver's quiet wait).
    for (let i = 0; i < 8 && !ui.frame().includes('+line_59'); i++) await ui.press(' ');
    expect(ui.frame()).toContain('+line_59: value');
    expect(ui.frame()).toMatch(/lines \d+-61 of 61/);
  });
});
