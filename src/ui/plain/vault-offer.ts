/**
 * The walkthrough's offer to use the vault: when the inventory already keeps values in Ansible Vault
 * and no vault password was given, ask for the password file before the first question, so that the
 * vaulted values are checked (and kept) and every secret is written vaulted like them.
 */
import { LinePrompt, PromptCancelled } from './line-prompt.js';
import { isVaulted, type AnsibleTagged } from '../../core/inventory/ansible-tagged.js';
import { CancelledError, messageOf } from '../../core/errors.js';
import { CANCELLED } from '../../core/setup/outcome.js';
import { escapeLine } from '../../core/escape.js';
import type { VaultKeyring } from '../../core/inventory/vault-options.js';
import { keyringOf } from '../../core/setup/vault-choice.js';
import type { CommandContext } from '../../core/run-context.js';

export interface VaultOfferIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The keyring of the password file the operator names, or undefined (no vaulted values, or declined). */
export async function offerVault(values: Record<string, unknown>, io: VaultOfferIO): Promise<VaultKeyring | undefined> {
  const vaulted = Object.entries(values).filter((entry): entry is [string, AnsibleTagged] => isVaulted(entry[1]));
  if (vaulted.length === 0) return undefined;
  let keyring: VaultKeyring | undefined;
  const names = escapeLine(vaulted.map(([name]) => name).join(', '));
  const prompt = new LinePrompt({ input: io.input, output: io.output, ascii: io.env.TERM === 'dumb' });
  try {
    for (;;) {
      const answer = (
        await prompt.input({
          message: `The inventory keeps ${names} in Ansible Vault. Vault password file (to check them and write every secret vaulted; empty: continue without)`,
        })
      ).trim();
      if (answer === '') return undefined;
      try {
        // A file or LABEL@FILE, `~/` expanded (no shell reads the answer), as the vault question takes it.
        keyring = await keyringOf(answer, io.env, io.cwd);
        keyring.open(vaulted[0][1].text);
        return keyring;
      } catch (error) {
        keyring = undefined;
        prompt.write(`x ${escapeLine(messageOf(error))}\n`);
      }
    }
  } catch (error) {
    if (error instanceof PromptCancelled) throw new CancelledError(CANCELLED);
    throw error;
  } finally {
    prompt.close();
  }
}

/** The offer on the command's terminal, as openSession takes it. */
export function vaultOfferOn(
  ctx: CommandContext,
): (values: Record<string, unknown>) => Promise<VaultKeyring | undefined> {
  return (values) => offerVault(values, { input: process.stdin, output: ctx.stdout, cwd: ctx.cwd, env: ctx.env });
}
