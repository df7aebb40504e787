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

type SchemaTags = Extract<NonNullable<import('yaml').SchemaOptions['customTags']>, unknown[]>;

/**
 * The YAML 1.1 scalars as PyYAML (Ansible's parser) resolves them, where the `yaml` library's 1.1
 * schema differs: only `yes/no/true/false/on/off` (in three spellings) are booleans, never `y` or `n`;
 * a float needs a dot (`1e3` is text, `1.0e+3` a number); a timestamp stays the text written, which
 * is what Ansible's templates make of the date PyYAML reads (`2024-01-02`).
 */
export function pyYamlScalars(tags: SchemaTags): SchemaTags {
  return tags.map((t) => {
    if (typeof t !== 'object' || ('collection' in t && t.collection)) return t;
    const scalar = t;
    if (scalar.tag === 'tag:yaml.org,2002:bool') {
      const yes = String(scalar.test).includes('[Yy]es');
      return {
        ...scalar,
        test: yes ? /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/ : /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/,
      };
    }
    if (scalar.tag === 'tag:yaml.org,2002:float' && scalar.format === 'EXP')
      return { ...scalar, test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*[eE][-+][0-9]+$/ };
    if (scalar.tag === 'tag:yaml.org,2002:timestamp')
      return { ...scalar, resolve: (text: string) => text, identify: () => false };
    return t;
  });
}
