import { Scalar, type ScalarTag } from 'yaml';
import { stringifyString } from 'yaml/util';
import { AnsibleTagged } from './ansible-tagged.js';

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
