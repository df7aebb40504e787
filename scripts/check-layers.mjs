// The rules of the house, checked on every import in src/ (run by `npm test`):
//   core imports no ui/, commands/, serve/ and no UI library (ink, react, inquirer);
//   ui/ and serve/ import no commands/;
//   an area (core/areas/<group>/) imports no other area;
//   core outside core/areas/ imports no area: shared facts go down into config/, kube/, net/, tls/...
//   core/areas/index.ts is the registry that assembles the areas, for the commands.
// Usage: node scripts/check-layers.mjs [ROOT]  (ROOT holds src/; default: this repository)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const UI_LIBRARIES = /^(ink|ink-[\w-]+|react|react-dom|inquirer|@inquirer\/[\w-]+)(\/|$)/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(m|c)?[jt]sx?$/.test(entry.name)) yield path;
  }
}

/** Why `file` may not import `spec`, or undefined when it may. */
function violation(src, file, spec) {
  const layer = (path) => relative(src, path).split('/');
  const parts = layer(file);
  const [top, second, third] = parts;
  if (!spec.startsWith('.')) return top === 'core' && UI_LIBRARIES.test(spec) ? `core must not use the UI library ${spec}` : undefined;
  const target = layer(resolve(dirname(file), spec));
  const [targetTop, targetSecond, targetThird] = target;
  if (top === 'core' && ['ui', 'commands', 'serve'].includes(targetTop)) return `core must not import ${targetTop}/`;
  if ((top === 'ui' || top === 'serve') && targetTop === 'commands') return `${top}/ must not import commands/`;
  const inArea = (p) => p[0] === 'core' && p[1] === 'areas' && p.length > 3;
  if (!inArea(target)) return undefined;
  if (inArea(parts) && third !== targetThird) return `area ${third} must not import area ${targetThird}`;
  if (top === 'core' && second !== 'areas') return `core/${parts.length > 2 ? `${second}/` : parts[1]} is below the areas and must not import area ${targetThird}`;
  return undefined;
}

/** Every broken rule under ROOT/src, as "path: imports spec: why". */
export function layerProblems(root) {
  const src = join(root, 'src');
  const problems = [];
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const why = violation(src, file, match[2]);
      if (why) problems.push(`${relative(root, file)}: imports ${match[2]}: ${why}`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = layerProblems(root);
  if (problems.length > 0) {
    console.error(`Layering rules broken (${problems.length}):\n` + problems.map((p) => `  ${p}`).join('\n'));
    process.exit(1);
  }
  console.log('Layering rules hold.');
}
