/**
 * A value Ansible reads with one of its own YAML tags. cloudgate keeps it exactly as written and never
 * evaluates it: `!unsafe` text stays unsafe (Ansible does not template it), `!vault` text stays the
 * encrypted `$ANSIBLE_VAULT;...` envelope (decrypted only with the operator's vault password).
 */
import { Scalar, type ScalarTag } from 'yaml';
import { stringifyString } from 'yaml/util';

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

/**
 * The `yaml` library's definitions of Ansible's tags: parsing gives `AnsibleTagged`, writing gives
 * the same tag back (a vault envelope as a `|` block, as ansible-vault writes it). Pass as
 * `customTags` wherever Ansible YAML is read or written.
 */
export const ANSIBLE_YAML_TAGS: ScalarTag[] = (['!vault', '!unsafe'] as const).map((tag) => ({
  tag,
  identify: (value: unknown) => value instanceof AnsibleTagged && value.tag === tag,
  resolve: (text: string) => new AnsibleTagged(tag, text),
  stringify(item, ctx, onComment, onChompKeep) {
    const value = item.value as AnsibleTagged; // identify() lets only AnsibleTagged values reach stringify
    const type = tag === '!vault' ? Scalar.BLOCK_LITERAL : undefined;
    return stringifyString({ value: value.text, type }, ctx, onComment, onChompKeep);
  },
}));
