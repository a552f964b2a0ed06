/**
 * Shell completion for bash, zsh and fish: `facturar completion <shell>` prints a script that asks
 * `facturar __complete` for candidates, so commands, flags, profile names and voucher types are
 * always the current ones.
 */

import type { Command } from "commander";
import { loadProfileNames } from "../config/profile.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { VOUCHER_TYPE_NAMES } from "../voucher/codes.js";
import { decimalWords } from "./define.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, string> = {
  bash: `# facturar completion for bash: source <(facturar completion bash)
_facturar() {
  local IFS=$'\\n'
  COMPREPLY=($(facturar __complete --shell bash -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [ \${#COMPREPLY[@]} -eq 0 ]; then
    COMPREPLY=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}"))
  fi
}
complete -o filenames -F _facturar facturar
`,
  zsh: `#compdef facturar
# facturar completion for zsh: source <(facturar completion zsh)
_facturar() {
  local -a reply
  reply=("\${(@f)$(facturar __complete --shell zsh -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if (( \${#reply} )) && [[ -n "\${reply[1]}" ]]; then
    compadd -Q -- "\${reply[@]}"
  else
    _files
  fi
}
compdef _facturar facturar
`,
  fish: `# facturar completion for fish: facturar completion fish | source
complete -c facturar -a '(facturar __complete --shell fish -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
};

export async function completionCommand(ctx: Context, shell: string): Promise<Outcome> {
  if (!(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(
      t("completion takes {shells}, not {value}", { shells: SHELLS.join(", "), value: JSON.stringify(shell) }),
    );
  await ctx.out(SCRIPTS[shell as Shell].trimEnd());
  return "done";
}

/** Values a command's first argument takes, when they come from a set (its name is in the user's language). */
function argumentValues(command: string): readonly string[] | undefined {
  switch (command) {
    case "template":
      return VOUCHER_TYPE_NAMES;
    case "queue":
      return ["delete", "reschedule", "retry"];
    case "completion":
      return SHELLS;
    default:
      return undefined;
  }
}

/** Values a flag takes, when they come from a known set. */
async function valuesFor(name: string): Promise<readonly string[] | undefined> {
  switch (name) {
    case "--profile":
    case "-p":
      return loadProfileNames();
    case "--type":
      return VOUCHER_TYPE_NAMES;
    case "--encoding":
      return ["utf8", "latin1"];
    case "--delimiter":
      return [",", ";"];
    case "--decimal":
      return decimalWords();
    case "--lang":
      return ["es", "en"];
    default:
      return undefined;
  }
}

/**
 * zsh inserts the candidates as given (compadd -Q): they come escaped. bash's script completes
 * with -o filenames, so readline quotes what it inserts (`FACTURA\ B`, or nothing within `"FACTURA B`):
 * escaped candidates would be escaped twice (`FACTURA\\\ B`). fish quotes by itself.
 */
function quoteFor(candidate: string, shell: Shell): string {
  return shell === "zsh" ? candidate.replace(/([\s'"\\$`;&|()<>])/g, "\\$1") : candidate;
}

/**
 * Candidates for the last word of `words` (the words after `facturar`, the last one being typed).
 * An empty answer lets the shell complete file names.
 */
async function candidates(program: Command, words: string[]): Promise<string[]> {
  const current = words[words.length - 1] ?? "";
  const before = words.slice(0, -1);
  const commandName = before.find((w) => program.commands.some((c) => c.name() === w));
  const command = program.commands.find((c) => c.name() === commandName);
  const optionsOf = (cmd: Command) => cmd.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => !!f);
  const previous = before[before.length - 1];
  const takesValue =
    previous === undefined
      ? undefined
      : [...program.options, ...(command?.options ?? [])].find(
          (o) => (o.long === previous || o.short === previous) && (o.required || o.optional),
        );
  if (takesValue) {
    const values = await valuesFor(takesValue.long ?? "");
    return (values ?? []).filter((v) => v.startsWith(current));
  }
  if (current.startsWith("-")) {
    return [...optionsOf(program), ...(command ? optionsOf(command) : [])].filter((f) => f.startsWith(current));
  }
  if (!command) {
    return program.commands.map((c) => c.name()).filter((n) => !n.startsWith("__") && n.startsWith(current));
  }
  // The command's first argument, when it comes from a set (template <tipo>, queue <action>, completion <shell>).
  const positional = before.slice(before.indexOf(commandName as string) + 1).filter((w) => !w.startsWith("-"));
  if (positional.length === 0) {
    const values = argumentValues(command.name());
    if (values) return values.filter((v) => v.startsWith(current));
  }
  return [];
}

/** The word as the shell's user typed it, unquoted: `FACTURA\ B` and `"FACTURA B` are `FACTURA B`. */
function unquote(word: string): string {
  return word.replace(/^["']/, "").replace(/["']$/, "").replace(/\\(.)/g, "$1");
}

export async function completeCommand(
  ctx: Context,
  program: Command,
  words: string[],
  shell: string,
): Promise<Outcome> {
  const target = (SHELLS as readonly string[]).includes(shell) ? (shell as Shell) : "bash";
  const typed = (words.length === 0 ? [""] : words).map(unquote);
  for (const candidate of await candidates(program, typed)) await ctx.out(quoteFor(candidate, target));
  return "done";
}
