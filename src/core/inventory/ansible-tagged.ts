/**
 * A value Ansible reads with one of its own YAML tags. cloudgate keeps it exactly as written and never
 * evaluates it: `!unsafe` text stays unsafe (Ansible does not template it), `!vault` text stays the
 * encrypted `$ANSIBLE_VAULT;...` envelope (decrypted only with the operator's vault password).
 */

export type AnsibleTag = '!vault' | '!unsafe';

export class AnsibleTagged {
  constructor(
    readonly tag: AnsibleTag,
    /** The text under the tag: the envelope for `!vault`, the literal string for `!unsafe`. */
    readonly text: string,
  ) {}

  toJSON(): string {
    return this.tag === '!vault' ? '(vaulted)' : this.text;
  }
}

export function isTagged(value: unknown): value is AnsibleTagged {
  return value instanceof AnsibleTagged;
}

export function isVaulted(value: unknown): value is AnsibleTagged {
  return value instanceof AnsibleTagged && value.tag === '!vault';
}

/** A Jinja expression (`"{{ vault_acme_email }}"`): its value is known only when Ansible runs. */
export function isJinja(value: unknown): boolean {
  return typeof value === 'string' && /\{\{.*\}\}|\{%.*%\}/s.test(value);
}
