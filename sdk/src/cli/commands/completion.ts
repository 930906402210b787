// `meridian completion bash|zsh`: a completion script made from the command tree itself, so a new
// command or option completes unaided (zsh loads the same function through bashcompinit).
import { Argument, type Command } from 'commander';
import { print } from '../output.js';

interface Node {
  path: string;
  words: string[];
}

function walk(cmd: Command, prefix: string, out: Node[]): void {
  const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  const options = cmd.options.flatMap((o) => [o.long, o.short].filter((x): x is string => !!x));
  const choices = cmd.registeredArguments.flatMap((a) => a.argChoices ?? []);
  out.push({ path: prefix, words: [...subs.map((c) => c.name()), ...choices, ...options, '--help'] });
  for (const s of subs) walk(s, `${prefix} ${s.name()}`.trim(), out);
}

export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  const nodes: Node[] = [];
  walk(program, '', nodes);
  const paths = nodes.filter((n) => n.path).map((n) => `"${n.path}"`);
  const cases = nodes.map((n) => `    "${n.path}") words="${n.words.join(' ')}" ;;`).join('\n');
  const fn = `_meridian() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w next i words=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    next="\${path:+$path }$w"
    case "$next" in
      ${paths.join('|') || '""'}) path="$next" ;;
    esac
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _meridian meridian
`;
  if (shell === 'bash') return `# meridian completion for bash: source <(meridian completion bash)\n${fn}`;
  return `# meridian completion for zsh: source <(meridian completion zsh)
autoload -U +X bashcompinit && bashcompinit
${fn}`;
}

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script: source <(meridian completion bash)')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => print(completionScript(program, shell)));
}
