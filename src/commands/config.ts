/**
 * `cloudgate config set|get|unset|list`: the saved settings, as `gh config` keeps its own. Each key is
 * a setting an area declares as one to keep (setting-specs/); a value is checked before it is kept, so a
 * typo does not break every later run.
 */
import { existsSync } from 'node:fs';
import { notOneOf } from '../core/closest.js';
import { cloudNames, expandHome } from '../core/config/clouds-yaml.js';
import { kubeContexts } from '../core/config/kubeconfig.js';
import { readSavedSettings, settingsFile, writeSavedSettings } from '../core/config/saved-settings.js';
import { SAVED_SETTINGS } from '../core/config/setting-specs/index.js';
import { EXIT, UsageError } from '../core/errors.js';
import { escapeLine } from '../core/escape.js';
import type { CommandContext } from '../core/run-context.js';

const ACTIONS = ['set', 'get', 'unset', 'list'] as const;
export const CONFIG_KEYS = SAVED_SETTINGS.map((s) => s.name);

export function configHelp(): string {
  const width = Math.max(...CONFIG_KEYS.map((k) => k.length));
  return `Keep the settings every run starts from (in ~/.config/cloudgate/config.yml).

Usage: cloudgate config set KEY VALUE | get KEY | unset KEY | list

Keys:
${SAVED_SETTINGS.map((s) => `  ${s.name.padEnd(width)}  ${s.doc}`).join('\n')}

A flag, the environment, clouds.yaml and --config each win over a saved value.

Environment:
  CLOUDGATE_CONFIG_DIR  the folder of config.yml (default $XDG_CONFIG_HOME/cloudgate, ~/.config/cloudgate)

Examples:
  cloudgate config set inventory ~/cloud/inventory
  cloudgate config set cloud mycloud
  cloudgate config list
`;
}

function keyOf(given: string | undefined, action: string): string {
  if (given === undefined)
    throw new UsageError(
      `cloudgate config ${action} needs a key: ${CONFIG_KEYS.join(', ')}.`,
      `E.g. cloudgate config ${action} inventory${action === 'set' ? ' ~/cloud/inventory' : ''}`,
    );
  const normal = given.replaceAll('-', '_');
  if (CONFIG_KEYS.includes(normal)) return normal;
  throw notOneOf('The saved setting', given, CONFIG_KEYS, {
    ignoreCase: true,
    typed: (g) => `"cloudgate config ${action} ${g}"`,
    otherwise: 'Run "cloudgate config --help".',
  });
}

/** The value to keep: a path made absolute (from where the command ran, `~` expanded), a name checked against what exists. */
async function checkedValue(
  key: string,
  value: string,
  ctx: Pick<CommandContext, 'env' | 'cwd' | 'stderr'>,
): Promise<string> {
  const warn = (text: string) => ctx.stderr.write(`warning: ${escapeLine(text)}\n`);
  if (key === 'inventory' || key === 'ca_file') {
    const path = expandHome(value, ctx.env, ctx.cwd);
    if (!existsSync(path)) warn(`${path} does not exist (yet); runs will say so until it does.`);
    else if (key === 'ca_file') {
      const { CaFileError, readCaBundle } = await import('../core/net/trust.js');
      try {
        readCaBundle(path, 'cloudgate config set ca_file');
      } catch (error) {
        if (error instanceof CaFileError) throw new UsageError(error.message, error.advice);
        throw error;
      }
    }
    return path;
  }
  if (key === 'cloud') return checkedName(value, await cloudNames(ctx.env, ctx.cwd), 'clouds.yaml', 'cloud', warn);
  if (key === 'context')
    return checkedName(value, (await kubeContexts(ctx.env)).names, 'the kubeconfig', 'context', warn);
  return value;
}

/** A name the files it lives in do not know is refused (a typo would break every run); with no such file, kept with a warning. */
function checkedName(value: string, known: string[], where: string, key: string, warn: (text: string) => void): string {
  if (known.includes(value)) return value;
  if (known.length === 0) {
    warn(`no ${where} here names ${key} "${value}" yet; runs will say so until one does.`);
    return value;
  }
  throw notOneOf(`The ${key} of ${where}`, value, known, {
    typed: (g) => `"cloudgate config set ${key} ${g}"`,
    otherwise: 'Give one of them.',
  });
}

export async function runConfig(args: string[], ctx: CommandContext): Promise<number> {
  const [action, key, ...rest] = args;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
    ctx.stdout.write(configHelp());
    return action === undefined ? EXIT.usage : EXIT.ok;
  }
  if (!ACTIONS.some((a) => a === action)) {
    throw notOneOf('The action of cloudgate config', action, ACTIONS, {
      typed: (g) => `"cloudgate config ${g}"`,
      otherwise: 'Run "cloudgate config --help".',
    });
  }
  const saved = await readSavedSettings(ctx.env);
  const values = { ...saved?.values };
  if (action === 'list') {
    if (key !== undefined)
      throw new UsageError('cloudgate config list takes no argument.', 'Run "cloudgate config get KEY" for one value.');
    for (const name of CONFIG_KEYS) ctx.stdout.write(`${name}=${values[name] ?? ''}\n`);
    ctx.stderr.write(saved ? `# ${settingsFile(ctx.env)}\n` : `# nothing saved yet (${settingsFile(ctx.env)})\n`);
    for (const unknown of saved?.unknown ?? [])
      ctx.stderr.write(
        `warning: ${escapeLine(`${saved!.file} holds "${unknown}", which cloudgate does not keep; it is ignored.`)}\n`,
      );
    return EXIT.ok;
  }
  const name = keyOf(key, action);
  if (action === 'get') {
    if (rest.length) throw new UsageError(`cloudgate config get takes one key, not "${args.slice(1).join(' ')}".`);
    if (values[name] !== undefined) ctx.stdout.write(`${values[name]}\n`);
    return EXIT.ok;
  }
  if (action === 'unset') {
    if (rest.length) throw new UsageError(`cloudgate config unset takes one key, not "${args.slice(1).join(' ')}".`);
    if (values[name] === undefined) return EXIT.ok;
    delete values[name];
    const file = await writeSavedSettings(ctx.env, values);
    ctx.stderr.write(`Removed ${name} from ${file}.\n`);
    return EXIT.ok;
  }
  if (rest.length !== 1 || rest[0].trim() === '') {
    throw new UsageError(
      rest.length === 0 || rest[0].trim() === ''
        ? `cloudgate config set ${name} needs a value.`
        : `cloudgate config set takes one value, not "${rest.join(' ')}" (quote a value with spaces).`,
      `E.g. cloudgate config set ${name} ${name === 'inventory' ? '~/cloud/inventory' : 'VALUE'}; "cloudgate config unset ${name}" removes it.`,
    );
  }
  values[name] = await checkedValue(name, rest[0], ctx);
  const file = await writeSavedSettings(ctx.env, values);
  ctx.stderr.write(`${escapeLine(`Saved ${name}=${values[name]} in ${file}.`)}\n`);
  return EXIT.ok;
}
