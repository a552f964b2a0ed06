/**
 * The commander program: global flags, lazily loaded commands, and the one place where an
 * outcome becomes an exit code. Nothing below this file calls process.exit.
 */

import { Command, CommanderError, Help } from "commander";
import { commandWordAt } from "./command-word.js";
import { badFlag, type Define, either, examples, type Run } from "./commands/define.js";
import {
  type Context,
  createContext,
  type GlobalOptions,
  type Io,
  processIo,
  type StopToken,
  stopToken,
} from "./context.js";
import { EXIT_CODES, FacturarError, type Outcome } from "./errors.js";
import { tuneHeap } from "./heap.js";
import { type Lang, langFromEnv, parseLang, say, t, useLang } from "./i18n/index.js";
import { jsonText } from "./output/json.js";
import { visibleLines } from "./output/visible.js";
import { VERSION } from "./version.js";

tuneHeap();

/**
 * Each command's flags, help and examples, in its own file beside its action, in the order the
 * help lists them. A run imports only the definitions it needs (see definitionsFor).
 */
const COMMANDS: Readonly<Record<string, () => Promise<{ define: Define }>>> = {
  validate: () => import("./commands/validate.command.js"),
  issue: () => import("./commands/issue.command.js"),
  "issue-queued": () => import("./commands/issue-queued.command.js"),
  "credit-note": async () => ({ define: (await import("./commands/note.command.js")).defineCreditNote }),
  "debit-note": async () => ({ define: (await import("./commands/note.command.js")).defineDebitNote }),
  query: () => import("./commands/query.command.js"),
  "vat-book": () => import("./commands/vat-book.command.js"),
  journal: () => import("./commands/journal.command.js"),
  ceiling: () => import("./commands/ceiling.command.js"),
  status: () => import("./commands/status.command.js"),
  init: () => import("./commands/init.command.js"),
  pdf: () => import("./commands/pdf.command.js"),
  "next-number": () => import("./commands/next-number.command.js"),
  "requires-fce": () => import("./commands/requires-fce.command.js"),
  "exchange-rate": () => import("./commands/exchange-rate.command.js"),
  cuit: () => import("./commands/cuit.command.js"),
  resend: () => import("./commands/resend.command.js"),
  pay: () => import("./commands/pay.command.js"),
  "customer-ledger": () => import("./commands/customer-ledger.command.js"),
  products: () => import("./commands/products.command.js"),
  table: () => import("./commands/table.command.js"),
  "delete-purchase": () => import("./commands/delete-purchase.command.js"),
  queue: () => import("./commands/queue.command.js"),
  qr: () => import("./commands/qr.command.js"),
  schema: () => import("./commands/schema.command.js"),
  template: () => import("./commands/template.command.js"),
  completion: () => import("./commands/completion.command.js"),
  sandbox: () => import("./commands/sandbox.command.js"),
};

/**
 * The definitions a command line needs: its command's alone (`help CMD` too); none for
 * `--version`; all of them for the program's help, completion (`__complete`) and a mistyped
 * command (suggestions).
 */
function definitionsFor(argv: string[]): (() => Promise<{ define: Define }>)[] {
  const all = Object.values(COMMANDS);
  const words = argv.slice(2);
  const at = commandWordAt(words);
  if (at >= 0) {
    const word = words[at] as string;
    // `help issue` needs issue's alone, as `issue --help` does.
    const name = word === "help" && at + 1 < words.length ? (words[at + 1] as string) : word;
    const only = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    return only ? [only] : all;
  }
  const version = words.includes("-V") || words.includes("--version");
  return version && !words.includes("-h") && !words.includes("--help") ? [] : all;
}

/**
 * `help isue` is the mistake `isue` is: commander would print the whole program's help on stderr
 * with no word of what was wrong; without `help`, it says "unknown command" and suggests `issue`.
 */
function withoutHelpOfUnknown(argv: string[]): string[] {
  const words = argv.slice(2);
  const at = commandWordAt(words);
  const next = words[at + 1];
  if (at < 0 || words[at] !== "help" || next === undefined || next.startsWith("-") || Object.hasOwn(COMMANDS, next))
    return argv;
  return [...argv.slice(0, 2 + at), ...argv.slice(3 + at)];
}

function buildProgram(
  definitions: readonly Define[],
  io: Io,
  settle: (outcome: Outcome) => void,
  stop: StopToken,
): Command {
  const program = new Command();
  program
    .name("facturar")
    .description(t("Issue and query Argentine fiscal vouchers; validates them before they leave the machine."))
    .version(VERSION, "-V, --version", t("print the version"))
    .option(`-p, --profile ${t("<name>")}`, t("configuration profile (env FACTURAR_PROFILE)"))
    .option(`-c, --config ${t("<file>")}`, t("use exactly this configuration file (env FACTURAR_CONFIG)"))
    .option("--json", t("machine-readable output: one JSON document, or NDJSON for many vouchers"))
    .option("-q, --quiet", t("print only what went wrong"))
    .option("-v, --verbose", t("print more detail, stack traces of internal errors"))
    .option("--no-color", t("no colours (also NO_COLOR)"))
    .option("--no-input", t("never prompt (implied off a terminal and under CI)"))
    .option("-y, --yes", t("answer yes to confirmations"))
    .option(`--lang ${t("<lang>")}`, t("language of messages: es or en (default from LC_ALL, LC_MESSAGES, LANG)"))
    .helpOption("-h, --help", t("display help for command"))
    .helpCommand(t("help [command]"), t("display help for command"))
    .showHelpAfterError(t("(run facturar --help for usage)"))
    .exitOverride()
    .configureHelp(helpInLanguage())
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(commanderError(text)),
    });
  // Bare `facturar` is no mistake: its help goes to stdout, exit 0 (commander writes it to stderr
  // as an error).
  const help = program.help.bind(program);
  program.help = ((context?: { error: boolean }) =>
    help(program.args.length === 0 ? undefined : context)) as typeof program.help;

  /** Commands load their module only when run, so `--version` and `--help` stay cheap. */
  const run: Run =
    (load, options) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      // The command's flags read once, through the schema beside its definition: a bad one is
      // a usage error before anything is read, asked or started.
      const flags = options
        ? await import("./commands/options.js").then((kit) => kit.parseOptions(options(kit), command))
        : args[args.length - 2];
      const ctx = await createContext(io, command.optsWithGlobals<GlobalOptions>(), stop);
      const action = await load();
      settle(
        await (action as (ctx: Context, ...rest: unknown[]) => Promise<Outcome>)(ctx, ...args.slice(0, -2), flags),
      );
    };
  for (const define of definitions) define(program, run);
  // A mistake in a command's flags points to that command's help, where its flags are.
  for (const command of program.commands)
    command.showHelpAfterError(t("(run facturar {command} --help for usage)", { command: command.name() }));
  examples(program, [
    [t("check a voucher, then issue it"), "facturar validate factura.json && facturar issue factura.json"],
    [t("what became of a voucher"), "facturar query --ref PEDIDO-1043"],
    [t("a command's own help and examples"), "facturar help issue"],
  ]);
  return program;
}

/**
 * commander's help in the user's language: its titles, the `[options]` and `[command]` of the
 * usage lines, and the choices and defaults after a description.
 */
function helpInLanguage(): Partial<Help> {
  const titles: Record<string, string> = {
    "Usage:": t("Usage:"),
    "Arguments:": t("Arguments:"),
    "Options:": t("Options:"),
    "Global Options:": t("Global Options:"),
    "Commands:": t("Commands:"),
  };
  const words: Record<string, string> = { "[options]": t("[options]"), "[command]": t("[command]") };
  const usageWords = (text: string) => text.replace(/\[options\]|\[command\]/g, (word) => words[word] ?? word);
  const withExtras = (
    description: string,
    choices: readonly string[] | undefined,
    value: unknown,
    valueDescription: string | undefined,
  ) => {
    const extras = [
      ...(choices ? [t("choices: {list}", { list: choices.map((c) => JSON.stringify(c)).join(", ") })] : []),
      // An empty list (a repeatable flag's start) is no default worth telling.
      ...(value === undefined || (Array.isArray(value) && value.length === 0)
        ? []
        : [t("default: {value}", { value: valueDescription || JSON.stringify(value) })]),
    ];
    return extras.length > 0 ? `${description} (${extras.join(", ")})`.trim() : description;
  };
  return {
    // commander leaves a description unwrapped when less than 40 columns are left beside the
    // terms, and the terminal then breaks it mid-word; Spanish terms (`[opciones] [archivos...]`)
    // are longer than English ones and left 39. Wrap down to a narrower column instead.
    minWidthToWrap: 24,
    styleTitle: (title) => titles[title] ?? title,
    commandUsage(cmd) {
      return usageWords(Help.prototype.commandUsage.call(this, cmd));
    },
    subcommandTerm(cmd) {
      return usageWords(Help.prototype.subcommandTerm.call(this, cmd));
    },
    // As commander's own: a default shown for flags that take a value, and for boolean ones.
    optionDescription: (option) =>
      withExtras(
        option.description,
        option.argChoices,
        option.required || option.optional || (option.isBoolean() && typeof option.defaultValue === "boolean")
          ? option.defaultValue
          : undefined,
        option.defaultValueDescription,
      ),
    argumentDescription: (argument) =>
      withExtras(argument.description, argument.argChoices, argument.defaultValue, argument.defaultValueDescription),
  };
}

/** commander's own error lines, in the user's language (the ones a user meets), suggestions too. */
function commanderError(text: string): string {
  const heads: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^error: unknown option '([^']*)'/, (m) => t("error: unknown option '{flag}'", { flag: m[1] ?? "" })],
    [/^error: unknown command '([^']*)'/, (m) => t("error: unknown command '{name}'", { name: m[1] ?? "" })],
    [
      /^error: missing required argument '([^']*)'/,
      (m) => t("error: missing required argument '{name}'", { name: m[1] ?? "" }),
    ],
    [
      /^error: option '([^']*)' argument missing/,
      (m) => t("error: option '{flag}' needs a value", { flag: m[1] ?? "" }),
    ],
    [
      /^error: option '([^']*)' argument '([^']*)' is invalid\./,
      (m) => t("error: option '{flag}' does not take '{value}'.", { flag: m[1] ?? "", value: m[2] ?? "" }),
    ],
    [/^error: too many arguments[^.]*\./, () => t("error: too many arguments.")],
  ];
  const tails: [RegExp, (m: RegExpExecArray) => string][] = [
    [/\n\(Did you mean one of (.*)\?\)/, (m) => `\n${t("(Did you mean one of {list}?)", { list: m[1] ?? "" })}`],
    [/\n\(Did you mean (.*)\?\)/, (m) => `\n${t("(Did you mean {name}?)", { name: m[1] ?? "" })}`],
    [/ Allowed choices are (.*)\./, (m) => ` ${t("Allowed choices are {list}.", { list: m[1] ?? "" })}`],
    [
      / Expected (\d+) arguments? but got (\d+)\./,
      (m) =>
        ` ${t("Expected {expected} arguments but got {received}.", { expected: m[1] ?? "", received: m[2] ?? "" })}`,
    ],
  ];
  let translated = text;
  for (const [pattern, translate] of heads) {
    const m = pattern.exec(translated);
    if (m) {
      translated = translate(m) + translated.slice(m[0].length);
      break;
    }
  }
  for (const [pattern, translate] of tails) {
    const m = pattern.exec(translated);
    if (m) translated = translated.slice(0, m.index) + translate(m) + translated.slice(m.index + m[0].length);
  }
  return translated;
}

/** `--lang es` or `--lang=es` before commander runs, so that its help is in that language too. */
function langFromArgv(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === "--lang") return argv[i + 1] ?? "";
    if (arg.startsWith("--lang=")) return arg.slice("--lang=".length);
  }
  return undefined;
}

function reportError(io: Io, error: unknown, json: boolean, verbose: boolean): Outcome {
  // Ctrl-C at a prompt (@inquirer/prompts): a clean stop, not a bug.
  if (error instanceof Error && error.name === "ExitPromptError") {
    io.stderr.write(`facturar: ${t("cancelled")}\n`);
    return "interrupted";
  }
  if (error instanceof FacturarError) {
    const message = say(error.text);
    const hint = error.hint === undefined ? undefined : say(error.hint);
    if (json)
      io.stdout.write(
        `${JSON.stringify({ ok: false, error: { code: error.code, message, ...(hint ? { hint } : {}) } })}\n`,
      );
    // On stderr in every mode: a cron job's log (`2>>cron.log`) tells what happened under --json too.
    // A message may quote a file's name or text: shown, not obeyed (the service's are stripped already).
    io.stderr.write(`facturar: ${visibleLines(message)}\n${hint ? `${t("hint:")} ${visibleLines(hint)}\n` : ""}`);
    return error.outcome;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (json) io.stdout.write(`${jsonText({ ok: false, error: { code: "internal", message } })}\n`);
  io.stderr.write(`facturar: ${t("internal error:")} ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write(`${t("(run again with --verbose for details, and please report it)")}\n`);
  return "internal";
}

/** Runs the CLI and returns the exit code; tests call this with their own streams. */
export async function run(argv: string[], io: Io = processIo(), stop: StopToken = stopToken()): Promise<number> {
  const json = argv.includes("--json");
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  const asked = langFromArgv(argv);
  const lang: Lang | undefined = asked === undefined ? langFromEnv(io.env) : parseLang(asked);
  // A --lang it does not know is told in the environment's language.
  await useLang(lang ?? langFromEnv(io.env));
  if (lang === undefined)
    return EXIT_CODES[reportError(io, badFlag("--lang", asked ?? "", either(["es", "en"])), json, verbose)];
  let outcome: Outcome = "done";
  argv = withoutHelpOfUnknown(argv);
  const definitions = await Promise.all(definitionsFor(argv).map(async (load) => (await load()).define));
  const program = buildProgram(
    definitions,
    io,
    (o) => {
      outcome = o;
    },
    stop,
  );
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Help and --version end with exit code 0 (`help issue` too); every other error of commander's is 1: usage.
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT_CODES.done;
      // Told on stderr as commander words it; under --json an error is a JSON object on stdout too.
      if (json)
        io.stdout.write(
          `${jsonText({ ok: false, error: { code: "usage", message: error.message.replace(/^error: /, "") } })}\n`,
        );
      return EXIT_CODES.usage;
    }
    outcome = reportError(io, error, json, verbose);
  }
  return EXIT_CODES[outcome];
}

export async function main(argv: string[]): Promise<void> {
  // The first SIGINT/SIGTERM asks the command to finish what is in flight and stop (exit 130);
  // a second one stops at once: the journal, fsynced before every send, still tells the truth.
  const stop = stopToken();
  // A reader that stops early (`| head`) closes the pipe. A command that sends vouchers takes it
  // as a stop request (what is in flight settles, nothing new is sent, exit 130); others stop
  // quietly, as other tools do.
  // An output that refuses writes (a full disk, a device error) is said so, never a stack trace:
  // the same stop for a command that sends vouchers (it then exits 6), exit 6 for the others.
  let closed = false;
  const json = argv.includes("--json");
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (closed) return;
      closed = true;
      const pipe = error.code === "EPIPE";
      const isStdout = stream === process.stdout;
      const code = error.code ?? error.message;
      const cannot = isStdout
        ? t("standard output cannot be written ({code})", { code })
        : t("standard error cannot be written ({code})", { code });
      // Told on the other stream: stderr for stdout's failure; stdout for stderr's, as a JSON
      // error under --json so that a script reading NDJSON still parses every line.
      const tell = (line: string) => {
        const other = isStdout ? process.stderr : process.stdout;
        if (!other.writable) return;
        other.write(
          !isStdout && json
            ? `${jsonText({ ok: false, error: { code: "output.unwritable", message: line } })}\n`
            : `${line}\n`,
        );
      };
      if (!stop.graceful) {
        if (!pipe) tell(cannot);
        process.exit(pipe ? (process.exitCode ?? 0) : EXIT_CODES.unavailable);
      }
      tell(
        pipe
          ? t("standard output was closed: stopping; the vouchers in flight settle, nothing new is sent")
          : `${cannot}: ${t("stopping; the vouchers in flight settle, nothing new is sent")}`,
      );
      // An output that refuses writes (either one) ends the run with 6, not as an interruption.
      if (!pipe && !stop.outputFailure) {
        stop.outputFailure = error;
        stop.failedOutput = isStdout ? "stdout" : "stderr";
      }
      stop.request();
    });
  }
  const onSignal = () => {
    if (stop.requested || !stop.graceful) process.exit(EXIT_CODES.interrupted);
    stop.request();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.exitCode = await run(argv, processIo(), stop);
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
}
