/** Ansible's templating of one value (jinja.ts), on the cases that decide what the role passes. */
import { describe, expect, it } from 'vitest';
import { literalConversion, renderTemplate, type LookupResult } from '../../../../src/core/render/jinja.js';

const VARS: Record<string, unknown> = {
  other: 'OTHER',
  acme_host: 'acme.internal.example',
  n: 600,
  flag: true,
  empty: null,
  dict: { a: 1 },
};
const lookup = (name: string): LookupResult => (name in VARS ? { value: VARS[name] } : { undefined: true });
const render = (t: string) => renderTemplate(t, lookup);

describe('renderTemplate', () => {
  it.each<[string, unknown]>([
    ['ab{#x#}cd', 'abcd'],
    ['ab{{ other }}cd', 'abOTHERcd'],
    ['https://{{ acme_host }}/directory', 'https://acme.internal.example/directory'],
    ['ab}}cd', 'ab}}cd'],
    ['ab#}cd', 'ab#}cd'],
    ['{% raw %}a{{b{% endraw %}', 'a{{b'],
    ['{{ nothere | default("x") }}', 'x'],
    ['{{ empty | default("x") }}', null],
    ['{{ empty | default("x", true) }}', 'x'],
    ['{{ other | lower }}-{{ n }}', 'other-600'],
    ['{{ empty }}:{{ n }}', ':600'],
    ['{{ flag }}x', 'Truex'],
    ['{{ dict.a }}', 1],
    ["{{ 'lit' ~ other }}", 'litOTHER'],
  ])('%s → %j', (template, value) => {
    expect(render(template)).toEqual(expect.objectContaining({ value }));
  });

  it('a single {{ name }} keeps a number, a boolean and null, and says which variable it is', () => {
    expect(render('{{ n }}')).toEqual({ value: 600, single: 'n' });
    expect(render('{{ flag }}')).toEqual({ value: true, single: 'flag' });
    expect(render('{{  empty  }}')).toEqual({ value: null, single: 'empty' });
  });

  it.each<[string, string]>([
    ['ab{#cd', 'Missing end of comment tag'],
    ['ab{{cd', "unexpected end of template, expected 'end of print statement'."],
    ['ab{%cd', "Encountered unknown tag 'cd'."],
    ['{{ }}', "Expected an expression, got 'end of print statement'"],
  ])('%s stops the task as Jinja would: %s', (template, message) => {
    expect(render(template)).toEqual({ stop: { kind: 'syntax', message } });
  });

  it('a variable defined nowhere stops the task, naming it; `mandatory` says so in its words', () => {
    expect(render('ab{{ nothere }}cd')).toEqual({
      stop: { kind: 'undefined', name: 'nothere', message: "'nothere' is undefined" },
    });
    expect(render('{{ nothere | mandatory }}')).toEqual({
      stop: { kind: 'undefined', name: 'nothere', message: "Mandatory variable 'nothere' not defined." },
    });
  });

  it('what it does not evaluate is known only at deploy time, never guessed', () => {
    for (const t of [
      "{{ lookup('env', 'X') }}",
      '{% if a %}x{% endif %}',
      '{{ a if b else c }}',
      '{{ other | to_nice_yaml }}',
      '{{ now() }}',
    ]) {
      expect(render(t), t).toHaveProperty('unknown');
    }
  });
});

describe('literalConversion (ansible-core up to 2.18)', () => {
  it.each<[string, unknown]>([
    ['False', false],
    ['True', true],
    ['[1, 2]', [1, 2]],
    ["{'a': 1}", { a: 1 }],
    ['{"a": true, "b": null}', { a: true, b: null }],
  ])('%s becomes %j', (text, value) => {
    expect(literalConversion(text)).toEqual({ value });
  });

  it.each(['false', 'yes', 'None', '600', '[not a list', '{oops}', ' True'])('%j stays text', (text) => {
    expect(literalConversion(text)).toBeUndefined();
  });
});
