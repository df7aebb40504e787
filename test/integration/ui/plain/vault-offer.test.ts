/**
 * The walkthrough's vault offer runs the password script the operator names only where the ownership
 * rule allows: a script another real user (nobody) owns is refused, naming it and its owner, and never
 * runs as root; the offer asks again.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { offerVault } from '../../../../src/ui/plain/vault-offer.js';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { encryptVault } from '../../../../src/core/inventory/vault.js';
import { asNobody, NOBODY, sharedFixture, type SharedFixture } from '../../../helpers/other-user.js';
import { waitUntil } from '../../../helpers/wait.js';

let fx: SharedFixture;
beforeEach(() => {
  fx = sharedFixture('cloudgate-vault-offer-');
});
afterEach(() => fx.cleanup());

describe('the vault offer', () => {
  it("refuses another user's password script, which never runs, and asks again", async () => {
    const marker = join(fx.dir, 'ran');
    const script = join(fx.shared, 'vault-pass.sh');
    asNobody(`printf '#!/bin/sh\\ntouch ${marker}\\necho hunter2\\n' > ${script} && chmod 755 ${script}`);
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const values = { cluster_issuer_acme_dnsc_api_token: new AnsibleTagged('!vault', encryptVault('tok', 'hunter2')) };
    const offered = offerVault(values, { input, output, cwd: fx.dir, env: {} });
    input.write(`${script}\n`);
    // The offer answers the script's path with the refusal and asks again; an empty answer goes on without the vault.
    await waitUntil('the refusal', () => shown.includes('Refused to run'), { lastSeen: () => shown });
    input.write('\n');
    expect(await offered).toBeUndefined();
    expect(shown).toContain(`the file ${script} belongs to uid ${NOBODY} (nobody)`);
    expect(existsSync(marker)).toBe(false);
  });

  it.each(['~/vault/pass', 'prod@~/vault/pass'])(
    'takes "%s": ~ is the home folder (no shell expands the answer), with a label too',
    async (typed) => {
      mkdirSync(join(fx.dir, 'vault'));
      writeFileSync(join(fx.dir, 'vault', 'pass'), 'hunter2\n', { mode: 0o600 });
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = '';
      output.on('data', (d: Buffer) => (shown += d.toString()));
      const values = {
        cluster_issuer_acme_dnsc_api_token: new AnsibleTagged('!vault', encryptVault('tok', 'hunter2')),
      };
      // The working folder is elsewhere: only ~ finds the file.
      const offered = offerVault(values, { input, output, cwd: fx.shared, env: { HOME: fx.dir } });
      input.write(`${typed}\n`);
      const keyring = await offered;
      expect(keyring, shown).toBeDefined();
      expect(keyring!.open(values.cluster_issuer_acme_dnsc_api_token.text)).toBe('tok');
    },
  );
});
