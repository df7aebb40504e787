/**
 * Shell completion scripts, generated from the options table: commands, each command's flags, and the
 * values a flag takes (choices, `--only` groups, file and folder names). Nothing here is typed twice.
 */
import { COMMAND_OPTIONS, type Flag } from './cli-options.js';
import { GROUPS } from './core/areas/index.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

type ValueKind = { choices: string[]; list?: boolean } | 'file' | 'dir' | 'none';

/** What a flag's value is, read from its placeholder: `a|b` choices, FILE/PATH/PEM files, DIR folders. */
export function valueKind(flag: Flag): ValueKind {
  if (!flag.value) return 'none';
  if (flag.name === 'only') return { choices: GROUPS, list: true };
  if (flag.value.includes('|')) return { choices: flag.value.split('|') };
  if (flag.value === 'DIR') return 'dir';
  if (/FILE|PATH|PEM/.test(flag.value)) return 'file';
  return 'none';
}

const commands = () => [...Object.keys(COMMAND_OPTIONS), 'completion', 'help'];
const words = (list: string[]) => list.join(' ');

export function completionScript(shell: Shell): string {
  if (shell === 'fish') return fish();
  const body = bash();
  if (shell === 'bash') return `# cloudgate completion for bash: source <(cloudgate completion bash)\n${body}`;
  return `#compdef cloudgate\n# cloudgate completion for zsh: source <(cloudgate completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${body}`;
}

function bash(): string {
  const flagLists = Object.entries(COMMAND_OPTIONS)
    .map(([name, c]) => `    ${name}) flags="${words([...c.flags.map((f) => `--${f.name}`), '--help'])}" ;;`);
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
    return word ? [`    ${name}) if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=( $(compgen -W "${word}" -- "$cur") ); return; fi ;;`] : [];
  });
  return `_cloudgate_list() {
  # A comma-separated list: complete the item after the last comma, keep the ones before it.
  local head="" item="$cur"
  if [[ "$cur" == *,* ]]; then head="\${cur%,*},"; item="\${cur##*,}"; fi
  compopt -o nospace 2>/dev/null
  COMPREPLY=( $(compgen -P "$head" -W "$1" -- "$item") )
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
    help) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=( $(compgen -W "${words(Object.keys(COMMAND_OPTIONS))}" -- "$cur") ); return ;;
    completion) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=( $(compgen -W "${words([...SHELLS])}" -- "$cur") ); return ;;
${wordCases.join('\n')}
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
  return kind.list ? `_cloudgate_list "${words(kind.choices)}"; return` : `COMPREPLY=( $(compgen -W "${words(kind.choices)}" -- "$cur") ); return`;
}

const fishQuote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function fish(): string {
  const lines = ['# cloudgate completion for fish: cloudgate completion fish | source', 'complete -c cloudgate -f'];
  for (const [name, c] of Object.entries(COMMAND_OPTIONS)) {
    lines.push(`complete -c cloudgate -n __fish_use_subcommand -a ${name} -d ${fishQuote(c.summary)}`);
  }
  lines.push(`complete -c cloudgate -n __fish_use_subcommand -a completion -d 'Print a shell completion script'`);
  lines.push(`complete -c cloudgate -n '__fish_seen_subcommand_from completion' -a ${fishQuote(SHELLS.join(' '))}`);
  lines.push(`complete -c cloudgate -n '__fish_seen_subcommand_from help' -a ${fishQuote(Object.keys(COMMAND_OPTIONS).join(' '))}`);
  for (const [name, c] of Object.entries(COMMAND_OPTIONS)) {
    const first = c.operands?.[0];
    if (first?.word) lines.push(`complete -c cloudgate -n '__fish_seen_subcommand_from ${name}; and not __fish_seen_subcommand_from ${first.name}' -a ${first.name} -d ${fishQuote(first.description)}`);
    for (const flag of c.flags) {
      const kind = valueKind(flag);
      const values = kind === 'file' || kind === 'dir' ? '-r -F' : kind === 'none' ? (flag.value ? '-x' : '') : `-x -a ${fishQuote(kind.choices.join(' '))}`;
      lines.push(`complete -c cloudgate -n '__fish_seen_subcommand_from ${name}' -l ${flag.name} ${values} -d ${fishQuote(flag.description)}`.replace(/ {2,}/g, ' '));
    }
  }
  return `${lines.join('\n')}\n`;
}
