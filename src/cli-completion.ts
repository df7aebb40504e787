/**
 * Shell completion scripts, generated from the options table: commands, each command's flags, and the
 * values a flag takes (choices, `--only` groups as a comma list, file and folder names, `~/` included).
 * Values that live in files (the clouds of clouds.yaml, the kubeconfig's contexts) are asked of the
 * program itself through its hidden `__complete` entry, so they are read as a run reads them. One
 * native script per shell: bash, zsh (with or without compinit, or from $fpath) and fish.
 */
import { COMMAND_OPTIONS, type Flag } from './cli-options.js';
import { SAVED_SETTINGS } from './core/config/setting-specs/index.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Values `cloudgate __complete KIND` prints, one a line. */
type Dynamic = 'cloud' | 'context' | 'only';

/** A fixed set of choices, one of the values the program is asked for, a comma list of those, files, folders, or free text. */
type ValueKind = { choices: string[] } | { dynamic: Dynamic; list?: boolean } | 'file' | 'dir' | 'none';

/** What a flag's value is, read from its name and placeholder: `a|b` choices, FILE/PATH/PEM files, DIR folders. */
export function valueKind(flag: Flag): ValueKind {
  if (!flag.value) return 'none';
  if (flag.name === 'only') return { dynamic: 'only', list: true };
  if (flag.name === 'cloud' || flag.name === 'context') return { dynamic: flag.name };
  if (flag.value.includes('|')) return { choices: flag.value.split('|') };
  if (flag.value === 'DIR') return 'dir';
  if (/FILE|PATH|PEM/.test(flag.value)) return 'file';
  return 'none';
}

const CONFIG_ACTIONS = ['set', 'get', 'unset', 'list'];
const CONFIG_KEYS = SAVED_SETTINGS.map((s) => s.name);
/** What the value of each saved setting is, for `cloudgate config set KEY <Tab>`. */
const CONFIG_VALUE: Record<string, ValueKind> = {
  inventory: 'file',
  ca_file: 'file',
  cloud: { dynamic: 'cloud' },
  context: { dynamic: 'context' },
};

const EXTRA: [name: string, summary: string][] = [
  ['config', 'Keep the inventory, cloud, kube context and CA file every run starts from'],
  ['completion', 'Print a shell completion script'],
  ['help', 'Show the help of a command'],
];
const commands = () => [...Object.keys(COMMAND_OPTIONS), ...EXTRA.map(([name]) => name)];
const helpTopics = () => [...Object.keys(COMMAND_OPTIONS), 'config'];
const words = (list: readonly string[]) => list.join(' ');

export function completionScript(shell: Shell): string {
  if (shell === 'fish') return fish();
  if (shell === 'zsh') return zsh();
  return bash();
}

function bash(): string {
  const flagLists = Object.entries(COMMAND_OPTIONS).map(
    ([name, c]) => `    ${name}) flags="${words([...c.flags.map((f) => `--${f.name}`), '--help'])}" ;;`,
  );
  // One case per kind of value, listing every command:flag pair that takes it.
  const cases = new Map<string, string[]>();
  for (const [name, c] of Object.entries(COMMAND_OPTIONS)) {
    for (const flag of c.flags.filter((f) => f.value)) {
      const body = bashValues(valueKind(flag));
      cases.set(body, [...(cases.get(body) ?? []), `${name}:--${flag.name}`]);
    }
  }
  const valueCases = [...cases].map(([body, keys]) => `    ${keys.join('|')})\n      ${body} ;;`);
  // A command whose first argument is a fixed word (`status certificate`): offered right after the command.
  const wordCases = Object.entries(COMMAND_OPTIONS).flatMap(([name, c]) => {
    const word = c.operands?.[0]?.word ? c.operands[0].name : undefined;
    return word
      ? [`    ${name}) if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=( $(compgen -W "${word}" -- "$cur") ); return; fi ;;`]
      : [];
  });
  const configValues = Object.entries(CONFIG_VALUE).map(([key, kind]) => `        ${key}) ${bashValues(kind)} ;;`);
  return `# cloudgate completion for bash: source <(cloudgate completion bash)
_cloudgate_list() {
  # A comma-separated list of the values the program gives: complete the item after the last comma, keep the ones before it, no space after.
  local head="" item="$cur" values
  if [[ "$cur" == *,* ]]; then head="\${cur%,*},"; item="\${cur##*,}"; fi
  values="$("\${COMP_WORDS[0]}" __complete "$1" 2>/dev/null)"
  compopt -o nospace 2>/dev/null
  COMPREPLY=( $(compgen -P "$head" -W "$values" -- "$item") )
}

_cloudgate_values() {
  # Values that live in files (clouds.yaml, the kubeconfig), asked of the program being completed.
  local IFS=$'\\n'
  COMPREPLY=( $(compgen -W "$("\${COMP_WORDS[0]}" __complete "$1" 2>/dev/null)" -- "$cur") )
}

_cloudgate() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" flags=""
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${words(commands())}" -- "$cur") ); return
  fi
  local cmd="\${COMP_WORDS[1]}"
  # --flag=value: bash splits at "=", so the flag is two words back.
  if [[ "$cur" == "=" ]]; then prev="\${COMP_WORDS[COMP_CWORD-1]}"; cur=""; fi
  if [[ "$prev" == "=" ]]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  case "$cmd" in
    help) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=( $(compgen -W "${words(helpTopics())}" -- "$cur") ); return ;;
    completion) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=( $(compgen -W "${words([...SHELLS])}" -- "$cur") ); return ;;
${wordCases.join('\n')}
    config)
      case $COMP_CWORD in
        2) COMPREPLY=( $(compgen -W "${words(CONFIG_ACTIONS)}" -- "$cur") ) ;;
        3) [[ "$prev" == set || "$prev" == get || "$prev" == unset ]] && COMPREPLY=( $(compgen -W "${words(CONFIG_KEYS)}" -- "$cur") ) ;;
        4) [[ "\${COMP_WORDS[2]}" == set ]] && case "$prev" in
${configValues.join('\n')}
          esac ;;
      esac
      return ;;
  esac
  case "$cmd:$prev" in
${valueCases.join('\n')}
  esac
  case "$cmd" in
${flagLists.join('\n')}
    *) return ;;
  esac
  COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
}
complete -F _cloudgate cloudgate
`;
}

function bashValues(kind: ValueKind): string {
  if (kind === 'file') return 'compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return';
  if (kind === 'dir') return 'compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return';
  if (kind === 'none') return 'return';
  if ('dynamic' in kind)
    return kind.list ? `_cloudgate_list ${kind.dynamic}; return` : `_cloudgate_values ${kind.dynamic}; return`;
  return `COMPREPLY=( $(compgen -W "${words(kind.choices)}" -- "$cur") ); return`;
}

/** Text inside a zsh `_arguments` description: its brackets and colons escaped. */
const zshText = (text: string) => text.replace(/[[\]:\\]/g, (c) => `\\${c}`).replaceAll("'", "'\\''");

function zshAction(kind: ValueKind): string {
  if (kind === 'file') return '_files';
  if (kind === 'dir') return '_files -/';
  if (kind === 'none') return ' ';
  if ('dynamic' in kind) return kind.list ? `_cloudgate_list_of ${kind.dynamic}` : `_cloudgate_${kind.dynamic}s`;
  return `(${words(kind.choices)})`;
}

function zsh(): string {
  const describe = (list: [string, string][]) => list.map(([n, d]) => `'${n}:${zshText(d)}'`).join(' ');
  const commandList = describe([
    ...Object.entries(COMMAND_OPTIONS).map(([n, c]): [string, string] => [n, c.summary]),
    ...EXTRA,
  ]);
  const perCommand = Object.entries(COMMAND_OPTIONS).map(([name, c]) => {
    const specs = c.flags.map((f) => {
      const repeat = f.multiple ? '*' : '';
      if (!f.value) return `'${repeat}--${f.name}[${zshText(f.description)}]'`;
      return `'${repeat}--${f.name}=[${zshText(f.description)}]:${zshText(f.value)}:${zshAction(valueKind(f))}'`;
    });
    // A command whose first argument is a fixed word (`status certificate`): the first positional argument.
    const first = c.operands?.[0];
    const positional = first?.word ? [`'1:${zshText(first.description)}:(${first.name})'`] : [];
    return `    ${name}) _arguments -S \\\n        ${[...specs, ...positional, "'--help[show the help]'"].join(' \\\n        ')} ;;`;
  });
  const configValues = Object.entries(CONFIG_VALUE).map(([key, kind]) => `          ${key}) ${zshAction(kind)} ;;`);
  return `#compdef cloudgate
# cloudgate completion for zsh. In ~/.zshrc: source <(cloudgate completion zsh) (it loads compinit if
# nothing did: compinit -i, which skips insecure folders of $fpath and writes ~/.zcompdump), or save it as
# _cloudgate in a folder of $fpath.
(( $+functions[compdef] )) || { autoload -Uz compinit && compinit -i }

# Values that live in files (clouds.yaml, the kubeconfig), asked of the program being completed.
# _arguments calls an action with compadd's options first (-J ...): they are passed on, the kind is the last word.
_cloudgate_clouds() { local -a v; v=(\${(f)"$(\${_cloudgate_prog:-cloudgate} __complete cloud 2>/dev/null)"}); compadd "$@" -a v }
_cloudgate_contexts() { local -a v; v=(\${(f)"$(\${_cloudgate_prog:-cloudgate} __complete context 2>/dev/null)"}); compadd "$@" -a v }
# A comma list: after an item, a comma (removed again by a space or Enter) and the next one.
_cloudgate_list_of() { local kind=\${@[-1]}; local -a v; v=(\${(f)"$(\${_cloudgate_prog:-cloudgate} __complete $kind 2>/dev/null)"}); (( $#v )) && _values -s , "$kind" $v }

_cloudgate() {
  local -a commands
  commands=(${commandList})
  if (( CURRENT == 2 )); then _describe -t commands 'cloudgate command' commands; return; fi
  local cmd=$words[2] _cloudgate_prog=$words[1]
  # _arguments must see the command's own words: the command name becomes word 0.
  shift words; (( CURRENT-- ))
  case $cmd in
${perCommand.join('\n')}
    help) (( CURRENT == 2 )) && _values 'command' ${words(helpTopics())} ;;
    completion) (( CURRENT == 2 )) && _values 'shell' ${words([...SHELLS])} ;;
    config)
      case $CURRENT in
        2) _values 'action' ${words(CONFIG_ACTIONS)} ;;
        3) [[ $words[2] == (set|get|unset) ]] && _values 'setting' ${words(CONFIG_KEYS)} ;;
        4) [[ $words[2] == set ]] && case $words[3] in
${configValues.join('\n')}
        esac ;;
      esac ;;
  esac
}

if [ "$funcstack[1]" = "_cloudgate" ]; then _cloudgate "$@"; else compdef _cloudgate cloudgate; fi
`;
}

const fishQuote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function fishValues(kind: ValueKind): string {
  if (kind === 'file') return '-r -F';
  if (kind === 'dir') return "-x -a '(__fish_complete_directories (commandline -ct))'";
  if (kind === 'none') return '-x';
  if ('dynamic' in kind)
    return kind.list
      ? `-x -a '(__cloudgate_list (__cloudgate_values ${kind.dynamic}))'`
      : `-x -a '(__cloudgate_values ${kind.dynamic})'`;
  return `-x -a ${fishQuote(words(kind.choices))}`;
}

function fish(): string {
  const lines = [
    '# cloudgate completion for fish: cloudgate completion fish > ~/.config/fish/completions/cloudgate.fish',
    'complete -c cloudgate -e',
    'complete -c cloudgate -f',
    // Each item is offered with its comma: fish adds no space after a comma, so the list goes on (a last comma is ignored).
    "function __cloudgate_list --description 'complete the item after the last comma of a list'",
    "    set -l token (string replace -r -- '^--[^=]*=' '' (commandline -ct))",
    "    set -l head (string replace -r -- '[^,]*$' '' $token)",
    '    for item in $argv',
    "        printf '%s%s,\\n' $head $item",
    '    end',
    'end',
    "function __cloudgate_values --description 'values that live in files, asked of the program being completed'",
    '    set -l program (commandline -opc)[1]',
    '    command $program __complete $argv 2>/dev/null',
    'end',
    "function __cloudgate_config_at --description 'the config action and key typed so far'",
    '    set -l words (commandline -opc)',
    '    test (count $words) -eq (math 1 + (count $argv)); or return 1',
    '    for i in (seq (count $argv))',
    '        string match -q -- $argv[$i] $words[(math $i + 1)]; or return 1',
    '    end',
    'end',
  ];
  for (const [name, summary] of [
    ...Object.entries(COMMAND_OPTIONS).map(([n, c]): [string, string] => [n, c.summary]),
    ...EXTRA,
  ]) {
    lines.push(`complete -c cloudgate -n __fish_use_subcommand -a ${name} -d ${fishQuote(summary)}`);
  }
  lines.push(`complete -c cloudgate -n '__fish_seen_subcommand_from completion' -a ${fishQuote(SHELLS.join(' '))}`);
  lines.push(`complete -c cloudgate -n '__fish_seen_subcommand_from help' -a ${fishQuote(helpTopics().join(' '))}`);
  lines.push(`complete -c cloudgate -n '__cloudgate_config_at config' -a ${fishQuote(CONFIG_ACTIONS.join(' '))}`);
  for (const action of ['set', 'get', 'unset'])
    lines.push(
      `complete -c cloudgate -n '__cloudgate_config_at config ${action}' -a ${fishQuote(CONFIG_KEYS.join(' '))}`,
    );
  for (const [key, kind] of Object.entries(CONFIG_VALUE)) {
    lines.push(
      `complete -c cloudgate -n '__cloudgate_config_at config set ${key}' ${kind === 'file' ? '-F' : fishValues(kind).replace(/^-x /, '')}`,
    );
  }
  for (const [name, c] of Object.entries(COMMAND_OPTIONS)) {
    const first = c.operands?.[0];
    if (first?.word)
      lines.push(
        `complete -c cloudgate -n '__fish_seen_subcommand_from ${name}; and not __fish_seen_subcommand_from ${first.name}' -a ${first.name} -d ${fishQuote(first.description)}`,
      );
    for (const flag of c.flags) {
      const values = flag.value ? fishValues(valueKind(flag)) : '';
      lines.push(
        `complete -c cloudgate -n '__fish_seen_subcommand_from ${name}' -l ${flag.name} ${values} -d ${fishQuote(flag.description)}`.replace(
          / {2,}/g,
          ' ',
        ),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
