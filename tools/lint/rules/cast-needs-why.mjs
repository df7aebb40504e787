// cloudgate/cast-needs-why: a type assertion (`x as T`, `<T>x`) tells the compiler to trust the code
// instead of checking it, so each one carries a comment saying why a guard, a typed parse, `satisfies` or a
// generic cannot do the job. `as const` asserts nothing and is always allowed.
//
// The comment counts when it sits on a line the cast spans, or ends on the line directly above the cast or
// above the statement (or class member, or object property) holding it. Lint directives (eslint-*,
// @ts-*) are not reasons.

const STATEMENTS = /(Statement|Declaration|PropertyDefinition|MethodDefinition|TSPropertySignature)$/;
const DIRECTIVE = /^\s*(eslint[-\s]|@ts-|global\s)/;

/** `as const` (or `<const>x`): a literal kept literal, nothing asserted. */
function isConst(node) {
  const type = node.typeAnnotation;
  return type?.type === 'TSTypeReference' && type.typeName?.type === 'Identifier' && type.typeName.name === 'const';
}

/**
 * The first lines of what holds `node`: the object properties on the way up, the nearest statement (or
 * class member) and the ancestors that start on its line (`export const`, a one-line `if`).
 */
function holderLines(node) {
  const lines = new Set();
  let holder = node.parent;
  while (holder && !STATEMENTS.test(holder.type)) {
    if (holder.type === 'Property') lines.add(holder.loc.start.line);
    holder = holder.parent;
  }
  while (holder) {
    lines.add(holder.loc.start.line);
    const up = holder.parent;
    if (!up || up.type === 'Program' || up.loc.start.line !== holder.loc.start.line) break;
    holder = up;
  }
  return lines;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'Require a comment saying why next to every type assertion except `as const`' },
    schema: [],
    messages: {
      why: 'Type assertion `{{text}}` without a comment saying why: replace it with a type guard (core/records.ts), a typed parse, `satisfies` or a generic, or write on this line or the one above why the compiler cannot see it.',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const reasons = source.getAllComments().filter((c) => c.value.trim() !== '' && !DIRECTIVE.test(c.value));
    const onLine = new Set();
    const endsOn = new Set();
    for (const c of reasons) {
      for (let line = c.loc.start.line; line <= c.loc.end.line; line += 1) onLine.add(line);
      const before = source.getTokenBefore(c, { includeComments: false });
      if (!before || before.loc.end.line < c.loc.start.line) endsOn.add(c.loc.end.line);
    }
    /** Whether a comment of its own (no code before it on its line) ends on `line - 1`. */
    const commentAbove = (line) => endsOn.has(line - 1);
    function check(node) {
      if (isConst(node)) return;
      const { start, end } = node.loc;
      for (let line = start.line; line <= end.line; line += 1) if (onLine.has(line)) return;
      if (commentAbove(start.line)) return;
      for (const line of holderLines(node)) if (commentAbove(line)) return;
      const text = source.getText(node.typeAnnotation);
      context.report({ node, messageId: 'why', data: { text: `as ${text.length > 40 ? `${text.slice(0, 40)}…` : text}` } });
    }
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};
