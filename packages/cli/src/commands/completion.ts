import { Argument, type Command } from 'commander';
import { withExamples } from '../cli/examples';
import { say } from '../cli/output';

interface Node {
  /** The words that lead here: [] for the program, ['calls'] for `earshot calls`. */
  path: string[];
  subcommands: { name: string; description: string }[];
  options: { flag: string; description: string }[];
}

/** Every command of the tree with what may follow it, read from commander's own definitions, so completion cannot drift from parsing. */
function nodesOf(command: Command, path: string[] = []): Node[] {
  const visible = command.commands.filter((c) => c.name() !== 'help');
  const options = command.options.filter((o) => o.long !== undefined && !o.hidden).map((o) => ({ flag: o.long ?? '', description: o.description }));
  const node: Node = {
    path,
    subcommands: visible.map((c) => ({ name: c.name(), description: c.description() })),
    options: [...options, { flag: '--help', description: 'show help' }],
  };
  return [node, ...visible.flatMap((c) => nodesOf(c, [...path, c.name()]))];
}

/** Global options (--profile, --url, --key) are offered at every level. */
function globalsOf(program: Command): { flag: string; description: string }[] {
  return program.options.filter((o) => o.long && o.long !== '--version').map((o) => ({ flag: o.long ?? '', description: o.description }));
}

function bashScript(program: Command): string {
  const globals = globalsOf(program).map((g) => g.flag);
  const cases = nodesOf(program).map((node) => {
    const words = [...node.subcommands.map((s) => s.name), ...node.options.map((o) => o.flag), ...(node.path.length > 0 ? globals : [])];
    return `    "${node.path.join(' ')}") words="${[...new Set(words)].join(' ')}" ;;`;
  });
  return `# earshot completion for bash: eval "$(earshot completion bash)"
_earshot() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words_path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in -*) continue ;; esac
    case " $(_earshot_words "$words_path") " in *" $word "*) words_path="\${words_path:+$words_path }$word" ;; esac
  done
  COMPREPLY=($(compgen -W "$(_earshot_words "$words_path")" -- "$cur"))
}
_earshot_words() {
  local words=""
  case "$1" in
${cases.join('\n')}
  esac
  echo "$words"
}
complete -F _earshot earshot
`;
}

/** zsh runs the bash function through bashcompinit, the way many CLIs ship one script for both. */
function zshScript(program: Command): string {
  return `#compdef earshot
# earshot completion for zsh: eval "$(earshot completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bashScript(program)}`;
}

const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishScript(program: Command): string {
  const lines = ['# earshot completion for fish: earshot completion fish | source', 'complete -c earshot -f'];
  for (const node of nodesOf(program)) {
    // A node is current when its path was typed and none of its subcommands yet.
    const seen = node.path.length === 0 ? '__fish_use_subcommand' : node.path.map((w) => `__fish_seen_subcommand_from ${w}`).join('; and ');
    const none = node.subcommands.length > 0 ? `; and not __fish_seen_subcommand_from ${node.subcommands.map((s) => s.name).join(' ')}` : '';
    const condition = fishQuote(node.path.length === 0 ? seen : `${seen}${none}`);
    for (const sub of node.subcommands) lines.push(`complete -c earshot -n ${condition} -a ${sub.name} -d ${fishQuote(sub.description.slice(0, 80))}`);
    for (const option of node.options)
      lines.push(`complete -c earshot -n ${condition} -l ${option.flag.slice(2)} -d ${fishQuote(option.description.slice(0, 80))}`);
  }
  for (const global of globalsOf(program)) lines.push(`complete -c earshot -l ${global.flag.slice(2)} -d ${fishQuote(global.description)}`);
  return `${lines.join('\n')}\n`;
}

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export function registerCompletion(program: Command): void {
  const completion = program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SCRIPTS)))
    .action((shell: keyof typeof SCRIPTS) => say(SCRIPTS[shell](program)));
  withExamples(completion, [
    { what: 'bash, for this shell', run: 'earshot completion bash' },
    { what: 'fish, for good', run: 'earshot completion fish' },
  ]);
}
