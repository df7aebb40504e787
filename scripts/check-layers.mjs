// The rules of the house, checked on every import in src/ (run by `npm test`):
//   core imports no ui/, commands/, serve/ and no UI library; ui/ and serve/ import no commands/;
//   an area (core/areas/<group>/) imports no other area; core/doctor knows no area; core/areas/index.ts
//   is the registry that assembles them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');
const UI_LIBRARIES = /^(ink|ink-[\w-]+|react|react-dom)(\/|$)/;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;
const layer = (path) => relative(src, path).split('/');

function violation(file, spec) {
  const parts = layer(file);
  const [top, second, third] = parts;
  const inArea = top === 'core' && second === 'areas' && parts.length > 3;
  const isPackage = !spec.startsWith('.');
  if (isPackage) return top === 'core' && UI_LIBRARIES.test(spec) ? `core must not use the UI library ${spec}` : undefined;
  const [targetTop, targetSecond, targetThird] = layer(resolve(dirname(file), spec));
  if (top === 'core' && ['ui', 'commands', 'serve'].includes(targetTop)) return `core must not import ${targetTop}/`;
  if ((top === 'ui' || top === 'serve') && targetTop === 'commands') return `${top}/ must not import commands/`;
  if (inArea && targetTop === 'core' && targetSecond === 'areas' && third !== targetThird) {
    return `area ${third} must not import area ${targetThird}`;
  }
  if (top === 'core' && second === 'doctor' && targetSecond === 'areas') return 'core/doctor must not import an area';
  return undefined;
}

const problems = [];
for (const file of sourceFiles(src)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const why = violation(file, match[2]);
    if (why) problems.push(`${relative(root, file)}: imports ${match[2]}: ${why}`);
  }
}
if (problems.length > 0) {
  console.error(`Layering rules broken (${problems.length}):\n` + problems.map((p) => `  ${p}`).join('\n'));
  process.exit(1);
}
console.log('Layering rules hold.');
