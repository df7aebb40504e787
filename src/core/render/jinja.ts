/**
 * Ansible's templating of one string, for what inventories hold: `{{ name }}`, attribute and index
 * access, string and number literals, `~` and `+`, the filters operators use on values (`default`,
 * `lower`, `upper`, `trim`, `string`, `int`, `bool`, `b64encode`, `b64decode`, `replace`, `join`,
 * `mandatory`), `{# comments #}` (removed) and `{% raw %}...{% endraw %}`. Anything else (a statement,
 * a test, a lookup) is `unknown`: known only when Ansible runs. A template Jinja cannot parse (an
 * unclosed `{{`, `{%` or `{#`, an unknown tag) is a `syntax` stop; a variable defined nowhere is an
 * `undefined` stop, as the role's task would fail on it.
 */

/** What looking a variable up gives: its value, or why it has none. */
export type Lookup = (name: string) => LookupResult;
export type LookupResult = { value: unknown } | { undefined: true } | { unknown: string } | { stop: TemplateStop };

export interface TemplateStop {
  kind: 'undefined' | 'syntax' | 'loop';
  /** The variable that is undefined (for `undefined`). */
  name?: string;
  /** Jinja's own words, as Ansible prints them. */
  message: string;
}

export type TemplateResult =
  | {
      value: unknown;
      /** The whole template was one `{{ name }}` (Ansible keeps a number or boolean's type). */ single?: string;
    }
  | { unknown: string }
  | { stop: TemplateStop };

/** The start strings that make Ansible template a string (`is_possibly_template`). */
export function isPossiblyTemplate(text: string): boolean {
  return text.includes('{{') || text.includes('{%') || text.includes('{#');
}

/** Thrown inside an evaluation: the value is known only when Ansible runs. */
class Unknown extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
/** Thrown inside an evaluation: the template fails, as the role's task would. */
class Stop extends Error {
  constructor(readonly stop: TemplateStop) {
    super(stop.message);
  }
}

type Part = { text: string } | { expr: string } | { stmt: string };

/** Splits a template into text, `{{ }}` and `{% %}` parts; comments dropped, raw blocks as text. */
function lex(template: string): Part[] | TemplateStop {
  const parts: Part[] = [];
  let i = 0;
  let text = '';
  while (i < template.length) {
    const open = template.slice(i, i + 2);
    if (open === '{#') {
      const end = template.indexOf('#}', i + 2);
      if (end < 0) return { kind: 'syntax', message: 'Missing end of comment tag' };
      i = end + 2;
      continue;
    }
    if (open === '{{' || open === '{%') {
      const close = open === '{{' ? '}}' : '%}';
      const end = closing(template, i + 2, close);
      if (end < 0 && open === '{%') {
        // Jinja reads the tag's name first: an unknown one is said before the missing end.
        const tag = /^\s*-?\s*(\w+)/.exec(template.slice(i + 2))?.[1];
        if (!tag || !KNOWN_TAGS.has(tag)) return { kind: 'syntax', message: `Encountered unknown tag '${tag ?? ''}'.` };
      }
      if (end < 0)
        return {
          kind: 'syntax',
          message:
            open === '{{'
              ? "unexpected end of template, expected 'end of print statement'."
              : "unexpected end of template, expected 'end of statement block'.",
        };
      const inner = template
        .slice(i + 2, end)
        .replace(/^[-+]/, '')
        .replace(/[-+]$/, '')
        .trim();
      if (open === '{%') {
        const tag = /^(\w+)/.exec(inner)?.[1];
        if (tag === 'raw') {
          const endRaw = /\{%-?\s*endraw\s*-?%\}/.exec(template.slice(end + 2));
          if (!endRaw)
            return {
              kind: 'syntax',
              message: "Unexpected end of template. Jinja was looking for the following tags: 'endraw'.",
            };
          text += template.slice(end + 2, end + 2 + endRaw.index);
          i = end + 2 + endRaw.index + endRaw[0].length;
          continue;
        }
        if (!tag || !KNOWN_TAGS.has(tag))
          return { kind: 'syntax', message: `Encountered unknown tag '${tag ?? inner}'.` };
        if (text) parts.push({ text });
        text = '';
        parts.push({ stmt: inner });
      } else {
        if (inner === '') return { kind: 'syntax', message: "Expected an expression, got 'end of print statement'" };
        if (text) parts.push({ text });
        text = '';
        parts.push({ expr: inner });
      }
      i = end + 2;
      continue;
    }
    text += template[i];
    i++;
  }
  if (text) parts.push({ text });
  return parts;
}

const KNOWN_TAGS = new Set([
  'raw',
  'if',
  'elif',
  'else',
  'endif',
  'for',
  'endfor',
  'set',
  'endset',
  'macro',
  'endmacro',
  'call',
  'endcall',
  'filter',
  'endfilter',
  'block',
  'endblock',
  'extends',
  'include',
  'import',
  'from',
  'with',
  'endwith',
  'autoescape',
  'endautoescape',
  'do',
  'break',
  'continue',
  'trans',
  'endtrans',
  'pluralize',
  'endraw',
]);

/** Where `close` ends the tag opened before `from`, skipping quoted strings. */
function closing(text: string, from: number, close: string): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (text.startsWith(close, i)) return i;
  }
  return -1;
}

const SINGLE_VAR = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/** Templates `template` as Ansible would, looking variables up with `lookup`. */
export function renderTemplate(template: string, lookup: Lookup): TemplateResult {
  const parts = lex(template);
  if (!Array.isArray(parts)) return { stop: parts };
  const single = SINGLE_VAR.exec(template);
  try {
    if (parts.some((p) => 'stmt' in p)) return { unknown: 'a Jinja statement ({% %})' };
    const values = parts.map((p) => ('text' in p ? p.text : evaluate('expr' in p ? p.expr : '', lookup)));
    const value = values.length === 1 && !('text' in parts[0]) ? values[0] : values.map(asText).join('');
    return single ? { value, single: single[1] } : { value };
  } catch (error) {
    if (error instanceof Unknown) return { unknown: error.reason };
    if (error instanceof Stop) return { stop: error.stop };
    throw error;
  }
}

/** A value inside a longer string: Ansible's finalize renders null as "", booleans as True/False. */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return pythonRepr(value);
}

/** How Python prints a list or dict (what `{{ a_dict }}` inside a longer string gives). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  return String(value);
}

// ---- expressions -------------------------------------------------------------------------------

type Token = { kind: 'name' | 'string' | 'number' | 'op'; text: string; value?: unknown };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expr.slice(i))!;
      tokens.push({ kind: 'name', text: m[0] });
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^\d+(\.\d+)?/.exec(expr.slice(i))!;
      tokens.push({ kind: 'number', text: m[0], value: Number(m[0]) });
      i += m[0].length;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let s = '';
      while (j < expr.length && expr[j] !== c) {
        if (expr[j] === '\\' && j + 1 < expr.length) {
          const n = expr[++j];
          s += n === 'n' ? '\n' : n === 't' ? '\t' : n;
        } else s += expr[j];
        j++;
      }
      if (j >= expr.length) throw new Stop({ kind: 'syntax', message: 'unexpected end of string' });
      tokens.push({ kind: 'string', text: expr.slice(i, j + 1), value: s });
      i = j + 1;
    } else if ('|.[](),~+-*/%<>=!:'.includes(c)) {
      const two = expr.slice(i, i + 2);
      const op = ['==', '!=', '<=', '>=', '//', '**'].includes(two) ? two : c;
      tokens.push({ kind: 'op', text: op });
      i += op.length;
    } else {
      throw new Stop({ kind: 'syntax', message: `unexpected char '${c}'` });
    }
  }
  return tokens;
}

class Parser {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly lookup: Lookup,
  ) {}

  parse(): unknown {
    const value = this.concat();
    if (this.at < this.tokens.length) throw new Unknown(`the expression "${this.tokens.map((t) => t.text).join(' ')}"`);
    return value;
  }

  private peek(text?: string): Token | undefined {
    const t = this.tokens[this.at];
    return text === undefined || t?.text === text ? t : undefined;
  }

  private take(text: string): void {
    if (!this.peek(text)) throw new Unknown(`an expression cloudgate does not evaluate (expected "${text}")`);
    this.at++;
  }

  private concat(): unknown {
    let left = this.filtered();
    while (this.peek('~') || this.peek('+')) {
      const op = this.tokens[this.at++].text;
      const right = this.filtered();
      for (const side of [left, right]) if (side instanceof UndefinedName) throw undefinedStop(side.name);
      if (op === '~') left = asText(left) + asText(right);
      else if (typeof left === 'number' && typeof right === 'number') left = left + right;
      else if (typeof left === 'string' && typeof right === 'string') left = left + right;
      else throw new Unknown('an addition of values of different types');
    }
    if (this.peek() && ['if', 'and', 'or', 'is', 'in', 'not'].includes(this.peek()!.text))
      throw new Unknown('a Jinja test or condition');
    return left;
  }

  private filtered(): unknown {
    let value = this.postfix();
    while (this.peek('|')) {
      this.at++;
      const name = this.tokens[this.at++];
      if (name?.kind !== 'name') throw new Unknown('a filter cloudgate does not know');
      const args: unknown[] = [];
      if (this.peek('(')) {
        this.at++;
        while (!this.peek(')')) {
          if (this.at >= this.tokens.length)
            throw new Stop({ kind: 'syntax', message: "unexpected end of template, expected ')'." });
          args.push(this.concat());
          if (this.peek(',')) this.at++;
        }
        this.at++;
      }
      value = applyFilter(name.text, value, args);
    }
    return value;
  }

  private postfix(): unknown {
    let value = this.primary();
    for (;;) {
      if (this.peek('.')) {
        this.at++;
        const key = this.tokens[this.at++];
        if (key?.kind !== 'name' && key?.kind !== 'number') throw new Unknown('an attribute cloudgate does not read');
        value = member(value, key.text);
      } else if (this.peek('[')) {
        this.at++;
        const key = this.concat();
        this.take(']');
        value = member(value, key);
      } else if (this.peek('(')) {
        throw new Unknown('a function call');
      } else return value;
    }
  }

  private primary(): unknown {
    const t = this.tokens[this.at++];
    if (!t)
      throw new Stop({ kind: 'syntax', message: "unexpected end of template, expected 'end of print statement'." });
    if (t.kind === 'string' || t.kind === 'number') return t.value;
    if (t.kind === 'op' && t.text === '(') {
      const value = this.concat();
      this.take(')');
      return value;
    }
    if (t.kind === 'op' && t.text === '-' && this.peek()?.kind === 'number')
      return -Number(this.tokens[this.at++].value);
    if (t.kind === 'op') throw new Unknown(`an expression cloudgate does not evaluate ("${t.text}")`);
    if (['true', 'True'].includes(t.text)) return true;
    if (['false', 'False'].includes(t.text)) return false;
    if (['none', 'None'].includes(t.text)) return null;
    if (this.peek('(')) throw new Unknown(`${t.text}(), known only when Ansible runs`);
    const found = this.lookup(t.text);
    if ('value' in found) return found.value;
    if ('unknown' in found) throw new Unknown(found.unknown);
    if ('stop' in found) throw new Stop(found.stop);
    return new UndefinedName(t.text);
  }
}

/** A variable defined nowhere: an error when rendered, unless a `default` filter replaces it. */
class UndefinedName {
  constructor(readonly name: string) {}
}

function member(value: unknown, key: unknown): unknown {
  if (value instanceof UndefinedName) return value;
  if (value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, String(key))) {
    return Reflect.get(value, String(key));
  }
  if (Array.isArray(value) && typeof key === 'number') return value[key] ?? new UndefinedName(`${String(key)}`);
  throw new Unknown(`an attribute or index (${String(key)}) cloudgate does not read`);
}

function applyFilter(name: string, value: unknown, args: unknown[]): unknown {
  if (name === 'default' || name === 'd') {
    const replaceFalsy = args[1] === true;
    if (value instanceof UndefinedName || (replaceFalsy && !truthy(value))) return args[0] ?? '';
    return value;
  }
  if (name === 'mandatory' && value instanceof UndefinedName)
    throw new Stop({ kind: 'undefined', name: value.name, message: `Mandatory variable '${value.name}' not defined.` });
  if (value instanceof UndefinedName) throw undefinedStop(value.name);
  switch (name) {
    case 'mandatory':
      return value;
    case 'lower':
      return asText(value).toLowerCase();
    case 'upper':
      return asText(value).toUpperCase();
    case 'trim':
      return asText(value).trim();
    case 'string':
      return value === null ? 'None' : asText(value);
    case 'int': {
      const n = parseInt(asText(value), 10);
      return Number.isNaN(n) ? 0 : n;
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      return value === 1 || (typeof value === 'string' && ['yes', 'on', '1', 'true'].includes(value.toLowerCase()));
    }
    case 'b64encode':
      return Buffer.from(asText(value), 'utf8').toString('base64');
    case 'b64decode':
      return Buffer.from(asText(value), 'base64').toString('utf8');
    case 'replace':
      return asText(value).split(asText(args[0])).join(asText(args[1]));
    case 'join':
      return Array.isArray(value) ? value.map(asText).join(asText(args[0] ?? '')) : asText(value);
    default:
      throw new Unknown(`the filter "${name}", known only when Ansible runs`);
  }
}

function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function evaluate(expr: string, lookup: Lookup): unknown {
  const value = new Parser(tokenize(expr), lookup).parse();
  if (value instanceof UndefinedName) throw undefinedStop(value.name);
  return value;
}

const undefinedStop = (name: string) => new Stop({ kind: 'undefined', name, message: `'${name}' is undefined` });

// ---- Ansible's conversion of a templated string ------------------------------------------------

/**
 * ansible-core up to 2.18 turns a templated string that reads `True` or `False`, or starts with `{` or
 * `[`, into a boolean, dict or list (Python's literal_eval); 2.19 and later keep the string.
 */
export function literalConversion(text: string): { value: unknown } | undefined {
  const t = text.trim();
  if (text === 'True') return { value: true };
  if (text === 'False') return { value: false };
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    const p = new LiteralParser(t);
    const value = p.value();
    p.end();
    return { value };
  } catch {
    return undefined;
  }
}

/** Python literals (and JSON's true, false and null), as literal_eval reads them. */
class LiteralParser {
  private i = 0;
  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  end(): void {
    this.ws();
    if (this.i !== this.s.length) throw new Error('trailing text');
  }

  value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')');
    if (c === '{') return this.dict();
    if (c === "'" || c === '"') return this.str(c);
    const m = /^(?:[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|True|False|None|true|false|null)/.exec(this.s.slice(this.i));
    if (!m) throw new Error('not a literal');
    this.i += m[0].length;
    if (['True', 'true'].includes(m[0])) return true;
    if (['False', 'false'].includes(m[0])) return false;
    if (['None', 'null'].includes(m[0])) return null;
    return Number(m[0]);
  }

  private list(close: string): unknown[] {
    this.i++;
    const out: unknown[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== close) throw new Error('bad list');
    }
  }

  private dict(): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      const key = this.value();
      this.ws();
      if (this.s[this.i] !== ':') throw new Error('bad dict');
      this.i++;
      out[String(key)] = this.value();
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new Error('bad dict');
    }
  }

  private str(q: string): string {
    let out = '';
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== q) {
      if (this.s[this.i] === '\\') {
        this.i++;
        const n = this.s[this.i];
        out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      } else out += this.s[this.i];
      this.i++;
    }
    if (this.s[this.i] !== q) throw new Error('unterminated');
    this.i++;
    return out;
  }
}
