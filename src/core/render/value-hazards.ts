/**
 * Values Jinja would misread. Ansible templates every string that holds `{{`, `{%` or `{#` (unless it
 * is `!unsafe` or vaulted): a password such as `ab{#cd#}ef` silently loses `{#cd#}`, `ab{{ x }}cd` is
 * silently substituted, and an unclosed `{#`, `{{` or `{%` stops the task (that stop is said where
 * the role reads the value, values.ts). Only the variables the role's tasks read count.
 */
import { isTagged } from '../inventory/ansible-tagged.js';
import { variable } from '../config/variables.js';
import { isPossiblyTemplate } from './jinja.js';
import type { RenderFinding } from './types.js';

/** A template meant as one: the whole value is one `{{ ... }}` (the usual `"{{ vault_token }}"`). */
const WHOLE_EXPRESSION = /^\s*\{\{[^{}]*\}\}\s*$/;

export function valueHazards(values: Record<string, unknown>, read: ReadonlySet<string>): RenderFinding[] {
  const out: RenderFinding[] = [];
  for (const name of read) {
    const value = values[name];
    if (typeof value !== 'string' || isTagged(value) || !isPossiblyTemplate(value) || WHOLE_EXPRESSION.test(value))
      continue;
    const secret = variable(name)?.secret === true;
    const fix = `If the braces are part of the value, mark it literal: ${name}: !unsafe '...' (or vault it: Ansible never templates a vaulted value).`;
    const comment = /\{#[\s\S]*?#\}/.test(value);
    if (comment) {
      out.push({
        variable: name,
        severity: secret ? 'error' : 'warning',
        rule: 'template-comment',
        message: `${name} holds "{#...#}", which Jinja reads as a comment: Ansible removes it, so the role passes ${secret ? 'a different secret' : 'a shorter value'} than the inventory holds${secret ? ', and the provider refuses it' : ''}.`,
        advice: fix,
      });
    } else if (/\{\{[\s\S]*\}\}|\{%[\s\S]*%\}/.test(value)) {
      out.push({
        variable: name,
        severity: secret ? 'warning' : 'info',
        rule: 'template-substituted',
        message: `${name} holds a Jinja expression inside its text: Ansible replaces it when the deployment runs${secret ? ', so the secret deployed is not the text the inventory holds' : ''}.`,
        advice: secret ? fix : 'Nothing to do if the expression is meant; otherwise mark the value !unsafe.',
      });
    }
  }
  return out;
}
