/**
 * The commander program: global flags, lazily loaded commands, and the one place where an
 * outcome becomes an exit code. Nothing below this file calls process.exit.
 */
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import type { Command as CommandType } from "commander";
import {
  type Context,
  createContext,
  type GlobalOptions,
  type Io,
  processIo,
  type StopToken,
  stopToken,
} from "./context.js";
import { EXIT_CODES, FacturarError, type Outcome, UsageError } from "./errors.js";
import { type Lang, langFromEnv, parseLang, t, useLang } from "./i18n/index.js";
import { VERSION } from "./version.js";

// commander is CommonJS: required directly it loads in about half the time its ESM wrapper
// takes, which is most of what `--version` and `--help` cost (bench/startup.mjs).
const { Command, CommanderError, Option } = createRequire(import.meta.url)("commander") as typeof import("commander");
type Command = CommandType;

// Between full collections V8 lets the heap grow to as much as four times what is alive. A big
// batch makes garbage fast (a voucher read, checked, sent and journaled), so a run that keeps
// 100 MB alive peaked over 500 MB. Growing by a fifth keeps the peak near the live set, at no
// cost in speed that bench/issue-memory.mjs could measure.
setFlagsFromString("--heap-growing-percent=20");

type Action = (ctx: Context, ...args: never[]) => Promise<Outcome>;

/** Numbers in CSV cells: `7.000,50` (comma) or `7000.50` (point); by default comma with `;`. */
function decimalOption() {
  return new Option(
    "--decimal <mark>",
    t("decimal mark of CSV numbers: comma (7.000,50) or point (7000.50); default comma with ; and point with ,"),
  ).choices(["comma", "point"]);
}

function buildProgram(io: Io, settle: (outcome: Outcome) => void, stop: StopToken): Command {
  const program = new Command();
  const helpTitles: Record<string, string> = {
    "Usage:": t("Usage:"),
    "Arguments:": t("Arguments:"),
    "Options:": t("Options:"),
    "Global Options:": t("Global Options:"),
    "Commands:": t("Commands:"),
  };
  program
    .name("facturar")
    .description(t("Issue and query Argentine fiscal vouchers; validates them before they leave the machine."))
    .version(VERSION, "-V, --version", t("print the version"))
    .option("-p, --profile <name>", t("configuration profile (env FACTURAR_PROFILE)"))
    .option("-c, --config <file>", t("use exactly this configuration file"))
    .option("--json", t("machine-readable output: one JSON document, or NDJSON for many vouchers"))
    .option("-q, --quiet", t("print only what went wrong"))
    .option("-v, --verbose", t("print more detail, stack traces of internal errors"))
    .option("--no-color", t("no colours (also NO_COLOR)"))
    .option("--no-input", t("never prompt (implied off a terminal and under CI)"))
    .option("-y, --yes", t("answer yes to confirmations"))
    .option("--lang <lang>", t("language of messages: es or en (default from LC_ALL, LC_MESSAGES, LANG)"))
    .helpOption("-h, --help", t("display help for command"))
    .helpCommand("help [command]", t("display help for command"))
    .showHelpAfterError(t("(run facturar --help for usage)"))
    .exitOverride()
    .configureHelp({ styleTitle: (title) => helpTitles[title] ?? title })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(commanderError(text)),
    });

  /** Commands load their module only when run, so `--version` and `--help` stay cheap. */
  const lazy =
    (load: () => Promise<Action>) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const ctx = await createContext(io, command.optsWithGlobals<GlobalOptions>(), stop);
      const action = await load();
      settle(
        await (action as (ctx: Context, ...rest: unknown[]) => Promise<Outcome>)(
          ctx,
          ...args.slice(0, -2),
          args[args.length - 2],
        ),
      );
    };

  program
    .command("validate")
    .description(t("check vouchers offline: schema, tax rules and computed totals; nothing is sent"))
    .argument("<files...>", t(".json or .csv voucher files, or - for standard input"))
    .option("--encoding <encoding>", t("input encoding: utf8 (default, BOM allowed) or latin1"))
    .addOption(
      new Option("--delimiter <char>", t("CSV delimiter (detected from the header by default)")).choices([",", ";"]),
    )
    .addOption(decimalOption())
    .option("--ceiling <amount>", t("ceiling for unidentified final consumers, in pesos (default 10000000, RG 5700)"))
    .option("--today <dd/mm/yyyy>", t("check date windows against this day instead of today in Argentina"))
    .action(lazy(async () => (await import("./commands/validate.js")).validateCommand as Action));

  const inputOptions = (command: Command) =>
    command
      .argument("[files...]", t(".json or .csv voucher files, or - for standard input"))
      .option("--no-validate", t("skip the tax rules and totals check (the schema still applies)"))
      .option(
        "--skip-invalid",
        t(
          "issue the valid vouchers and report the invalid ones (exit 7); by default nothing is sent while any is invalid",
        ),
      )
      .option("--encoding <encoding>", t("input encoding: utf8 (default) or latin1"))
      .addOption(new Option("--delimiter <char>", t("CSV delimiter (detected by default)")).choices([",", ";"]))
      .addOption(decimalOption())
      .option("--out <dir>", t("folder for PDFs and tickets (default: the profile's pdf_dir, else ./comprobantes)"))
      .option("--no-pdf", t("do not download the PDF and the ticket"))
      .option("--qr <target>", t("write each voucher's QR to FILE.png, or draw it: --qr terminal"))
      .option(
        "--allow-duplicate",
        t("issue again a voucher the journal or the service holds as issued (with a new reference)"),
      )
      .option("--concurrency <n>", t("lanes (point of sale and type) sent in parallel (default 4)"))
      .option(
        "--rate <ms>",
        t("least milliseconds between requests (default: the profile's rate_ms; 100 for a real service)"),
      )
      .option("--report <file.csv>", t("write one CSV row per voucher as it settles"));

  inputOptions(
    program.command("issue").description(t("issue vouchers now (instant mode), each exactly once; PDFs saved")),
  )
    .option("-i, --interactive", t("no file: ask for the voucher on the terminal, show its totals, then issue it"))
    .option(
      "--batch-size <n>",
      t("vouchers of one type per batch call (lotes), 1 to 20 (default 20); 1 sends them one by one"),
    )
    .action(lazy(async () => (await import("./commands/issue.js")).issueInstant as Action));

  inputOptions(
    program
      .command("issue-queued")
      .description(t("issue vouchers through the service's queue; --wait follows them to the end")),
  )
    .option("--wait", t("wait until each voucher is issued or fails, then save its PDF"))
    .option("--timeout <seconds>", t("with --wait: give up waiting after this long (default 300)"))
    .option(
      "--batch-size <n>",
      t("vouchers per queued batch call (lotes_encola), 1 to 100 (default 100); 1 sends them one by one"),
    )
    .option(
      "--requeue",
      t("put vouchers that failed in the service's queue back in it (reenviar_encolado), once their cause is fixed"),
    )
    .action(lazy(async () => (await import("./commands/issue.js")).issueQueued as Action));

  program
    .command("query")
    .description(t("find vouchers: --ref R | --date D | --type T --number N | --type T --from N --to M"))
    .option("--ref <reference>", t("by external_reference"))
    .option("--date <dd/mm/yyyy>", t("by voucher date"))
    .option("--type <tipo>", t('voucher type, as the service writes it ("FACTURA B")'))
    .option("--number <n>", t("with --type: one voucher"))
    .option("--from <n>", t("with --type and --to: a number range"))
    .option("--to <n>", t("end of the range"))
    .option("--pv <n>", t("point of sale (default: the profile's)"))
    .option("--pdf", t("save the PDFs of the issued vouchers found (fresh links when the old ones expired)"))
    .option("--out <dir>", t("folder for --pdf"))
    .action(lazy(async () => (await import("./commands/query.js")).queryCommand as Action));

  program
    .command("journal")
    .description(t("what the journal holds for the profile (or for some input files), unknown outcomes first"))
    .argument("[files...]", t("only the vouchers read from these files"))
    .option("--reconcile", t("settle unknown and queued entries by asking the service"))
    .action(lazy(async () => (await import("./commands/journal.js")).journalCommand as Action));

  program
    .command("ceiling")
    .description(t("the final-consumer identification ceiling (topecf), cached for the day"))
    .option("--refresh", t("ask the service even if today's answer is cached"))
    .action(lazy(async () => (await import("./commands/service-info.js")).ceilingCommand as Action));

  program
    .command("status")
    .description(t("service status, scheduled maintenance and news; exit 6 when invoicing is not OK"))
    .action(lazy(async () => (await import("./commands/service-info.js")).statusCommand as Action));

  program
    .command("init")
    .description(t("create or edit a profile (asks on a terminal; every answer also a flag), then check it"))
    .option("--name <profile>", t("profile name (default sandbox)"))
    .option("--sandbox", t("use the embedded development-mode service"))
    .option("--base-url <url>", t("the API's base URL, https://<host>/app/api/v2"))
    .option("--usertoken <value>", t("credential, kept in the config file (mode 0600)"))
    .option("--apikey <value>", t("credential, kept in the config file"))
    .option("--apitoken <value>", t("credential, kept in the config file"))
    .option("--usertoken-env <name>", t("credential read from this environment variable"))
    .option("--apikey-env <name>", t("credential read from this environment variable"))
    .option("--apitoken-env <name>", t("credential read from this environment variable"))
    .option("--usertoken-file <path>", t("credential read from this file"))
    .option("--apikey-file <path>", t("credential read from this file"))
    .option("--apitoken-file <path>", t("credential read from this file"))
    .option("--punto-venta <n>", t("point of sale"))
    .option("--pdf-dir <dir>", t("folder for PDFs"))
    .option("--production", t("real vouchers: ask before issuing on a terminal"))
    .option("--no-production", t("not production"))
    .option("--default", t("make it the default profile"))
    .option("--no-default", t("do not make it the default profile"))
    .option("--file <path>", t("the config file to write (default $XDG_CONFIG_HOME/facturar/config.json)"))
    .option("--no-check", t("do not check the profile with the service afterwards"))
    .action(lazy(async () => (await import("./commands/init.js")).initCommand as Action));

  const methods = async () => import("./commands/methods.js");
  program
    .command("pdf")
    .description(t("fresh links for an issued voucher (regenerar_pdf), then its PDF and ticket saved"))
    .option("--type <tipo>", t('voucher type ("FACTURA B")'))
    .option("--number <n>", t("voucher number"))
    .option("--pv <n>", t("point of sale (default: the profile's)"))
    .option("--out <dir>", t("folder (default: the profile's pdf_dir, else ./comprobantes)"))
    .action(lazy(async () => (await methods()).pdfCommand as Action));

  program
    .command("next-number")
    .description(t("the number the service will give the next voucher of a type (numeracion)"))
    .option("--type <tipo>", t('voucher type ("FACTURA B")'))
    .option("--pv <n>", t("point of sale (default: the profile's)"))
    .action(lazy(async () => (await methods()).nextNumberCommand as Action));

  program
    .command("requires-fce")
    .description(t("whether a buyer must receive a MiPyME credit invoice (requiere_fec)"))
    .option("--cuit <cuit>", t("the buyer's CUIT"))
    .option("--date <dd/mm/yyyy>", t("as of this date"))
    .action(lazy(async () => (await methods()).requiresFceCommand as Action));

  program
    .command("queue")
    .description(t("manage queued vouchers: delete, reschedule (--date, --due) or retry one that failed"))
    .argument("<action>", t("delete | reschedule | retry"))
    .option("--ref <reference>", t("the queued voucher's external_reference"))
    .option("--date <dd/mm/yyyy>", t("reschedule: the new date (also the day it is issued); delete: only that date"))
    .option("--due <dd/mm/yyyy>", t("reschedule: the new payment due date"))
    .action(lazy(async () => (await methods()).queueCommand as Action));

  program
    .command("qr")
    .description(t("decode a voucher's QR payload; with --ref, check it against the voucher"))
    .argument("[url]", t("the QR's text (https://www.afip.gob.ar/fe/qr/?p=...)"))
    .option("--ref <reference>", t("fetch the voucher by external_reference and check its QR"))
    .action(lazy(async () => (await methods()).qrCommand as Action));

  program
    .command("schema")
    .description(t("print the JSON Schema of voucher files (for editors)"))
    .action(lazy(async () => (await import("./commands/schema.js")).schemaCommand as Action));

  program
    .command("template")
    .description(t("print a valid skeleton voucher of a type, as JSON or (--csv) as a CSV header and row"))
    .argument("<tipo>", t('voucher type, quoted: "FACTURA B"'))
    .option("--csv", t("a CSV header and one row instead of JSON"))
    .action(lazy(async () => (await import("./commands/schema.js")).templateCommand as Action));

  program
    .command("completion")
    .description(t("print shell completion: source <(facturar completion bash) (also zsh, fish)"))
    .argument("<shell>", t("bash | zsh | fish"))
    .action(lazy(async () => (await import("./commands/completion.js")).completionCommand as Action));

  program
    .command("__complete", { hidden: true })
    .argument("[words...]")
    .option("--shell <shell>")
    .action(async (words: string[], options: { shell?: string }, command: Command) => {
      const ctx = await createContext(io, command.optsWithGlobals<GlobalOptions>(), stop);
      const { completeCommand } = await import("./commands/completion.js");
      settle(await completeCommand(ctx, program, words, options.shell ?? "bash"));
    });

  program
    .command("sandbox")
    .description(t("run the embedded development-mode service on loopback until stopped (Ctrl-C)"))
    .option("--port <port>", t("port to listen on; 0 takes a free one"), "0")
    .option("--host <address>", t("loopback address to listen on"), "127.0.0.1")
    .option("--data-dir <dir>", t("where the service keeps its state (default $XDG_DATA_HOME/facturar/sandbox)"))
    .option(
      "--fault <name=value>",
      t(
        "inject a fault (repeatable; also FACTURAR_SANDBOX_FAULTS): latency=MS, spacing=MS, slow-commit=MS, error5xx=RATE, ratelimit=RATE, drop-before=RATE, drop-after-commit=RATE, queue-error=RATE, maintenance, authority-down",
      ),
      collect,
      [],
    )
    .option(
      "--like-production",
      t("behave like the real service under load: latency=80 and spacing=100 (--fault may add to it)"),
    )
    .option("--queue-interval <ms>", t("how often the queue worker runs"), "1000")
    .option("--quota <n>", t("the plan's voucher quota (the development plan has 1500)"))
    .option("--ceiling <pesos>", t("the final-consumer ceiling topecf answers (default 10000000)"))
    .action(lazy(async () => (await import("./commands/sandbox.js")).sandboxCommand as Action));

  return program;
}

/** commander's own error lines, in the user's language (the ones a user meets). */
function commanderError(text: string): string {
  const patterns: [RegExp, (m: RegExpExecArray) => string][] = [
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
  for (const [pattern, translate] of patterns) {
    const m = pattern.exec(text);
    if (m) return translate(m) + text.slice(m[0].length);
  }
  return text;
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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function reportError(io: Io, error: unknown, json: boolean, verbose: boolean): Outcome {
  // Ctrl-C at a prompt (@inquirer/prompts): a clean stop, not a bug.
  if (error instanceof Error && error.name === "ExitPromptError") {
    io.stderr.write(`facturar: ${t("cancelled")}\n`);
    return "interrupted";
  }
  if (error instanceof FacturarError) {
    if (json) {
      io.stdout.write(
        `${JSON.stringify({ ok: false, error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } })}\n`,
      );
    } else {
      io.stderr.write(`facturar: ${error.message}\n${error.hint ? `${t("hint:")} ${error.hint}\n` : ""}`);
    }
    return error.outcome;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (json) io.stdout.write(`${JSON.stringify({ ok: false, error: { code: "internal", message } })}\n`);
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
  await useLang(lang ?? "en");
  if (lang === undefined)
    return EXIT_CODES[reportError(io, new UsageError(`--lang ${JSON.stringify(asked)}: es or en`), json, verbose)];
  let outcome: Outcome = "done";
  const program = buildProgram(
    io,
    (o) => {
      outcome = o;
    },
    stop,
  );
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      const quiet = error.code === "commander.helpDisplayed" || error.code === "commander.version";
      return quiet ? EXIT_CODES.done : EXIT_CODES.usage;
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
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (closed) return;
      closed = true;
      const pipe = error.code === "EPIPE";
      const cannot = t("standard output cannot be written ({code})", { code: error.code ?? error.message });
      const tell = (line: string) => {
        if (stream === process.stdout && process.stderr.writable) process.stderr.write(`${line}\n`);
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
      if (!pipe && stream === process.stdout) stop.outputFailure ??= error;
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
