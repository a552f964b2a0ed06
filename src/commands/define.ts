/**
 * What the command definition files (`*.command.ts`) share. A definition registers a command's
 * flags, help and examples, and nothing heavy: its action module is imported only when the
 * command runs, so `--version` and `--help` stay cheap (bench/startup.mjs).
 */
import type { Command } from "commander";
import type { RefinementCtx, ZodType } from "zod";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { currentLang, t } from "../i18n/index.js";
import type * as Kit from "./options.js";

export type Action = (ctx: Context, ...args: never[]) => Promise<Outcome>;

/**
 * A command's options as a zod schema, built from the readers of ./options.ts (loaded only when
 * the command runs, so that `--help` never loads zod). Declared beside the command's flags.
 */
export type Options = (kit: typeof Kit) => ZodType;

/**
 * Given by src/cli.ts: the commander action that reads the options through `options` (a bad flag
 * is a usage error before anything else), builds the context, loads the action and settles.
 */
export type Run = (load: () => Promise<Action>, options?: Options) => (...args: unknown[]) => Promise<void>;

/** A bad flag, in the one shape every command says it: `--flag takes WHAT, not "VALUE"` (exit 2). */
export function badFlag(flag: string, value: string, expected: string, hint?: string): UsageError {
  return new UsageError(
    t("{flag} takes {expected}, not {value}", { flag, expected, value: JSON.stringify(value) }),
    hint,
  );
}

/** A command's definition: registers it on the program. */
export type Define = (program: Command, run: Run) => void;

/** A flag that must be there, missing: `--flag is required: WHAT` (exit 2). */
export function missingFlag(flag: string, what: string, hint?: string): UsageError {
  return new UsageError(t("{flag} is required: {what}", { flag, what }), hint);
}

/** `a or b`, `a, b or c`, in the user's language. */
export function either(words: readonly string[]): string {
  if (words.length < 2) return words.join("");
  return t("{list} or {last}", { list: words.slice(0, -1).join(", "), last: words[words.length - 1] as string });
}

/** The EXAMPLES section of a command's help: each a comment line, then the command line. */
export function examples(command: Command, list: readonly (readonly [description: string, line: string])[]): Command {
  return command.addHelpText("after", () =>
    [`\n${t("Examples:")}`, ...list.flatMap(([description, line]) => [`  # ${description}`, `  ${line}`])].join("\n"),
  );
}

/** A paragraph of help in lines of at most 80 characters, after a blank line (commander wraps only options). */
export function paragraph(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > 80) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return `\n${[...lines, line].join("\n")}`;
}

/** Numbers in CSV cells: `7.000,50` (comma) or `7000.50` (point); by default comma with `;`. */
export function decimalOption(
  command: Command,
  description = t(
    "decimal mark of CSV numbers: comma (7.000,50) or point (7000.50); default comma with ; and point with ,",
  ),
) {
  return (
    command
      .createOption(`--decimal ${t("<mark>")}`, description)
      .choices(decimalWords())
      // The word as typed: the command's options schema reads it (./options.ts decimal()).
      .argParser((word: string) => word)
  );
}

/** The words `--decimal` takes, as the help and the completion offer them: English, or Spanish too. */
export function decimalWords(): string[] {
  return currentLang() === "es" ? ["coma", "punto", "comma", "point"] : ["comma", "point"];
}

/** `--decimal`'s word, in English or Spanish, as the mark it names; undefined for another word. */
export function decimalMark(word: string): "comma" | "point" | undefined {
  const mark = { comma: "comma", coma: "comma", point: "point", punto: "point" }[word.trim().toLowerCase()];
  return mark === "comma" || mark === "point" ? mark : undefined;
}

/** `--delimiter` of a CSV written or read. */
export function delimiterOption(command: Command, description: string) {
  // Its choices shown in the help; the command's options schema reads the value (./options.ts delimiter()).
  return command
    .createOption(`--delimiter ${t("<char>")}`, description)
    .choices([",", ";"])
    .argParser((char: string) => char);
}

/** `--decimal` and `--delimiter` of a spreadsheet CSV written with `--csv` (query, vat-book). */
export function spreadsheetOptions(program: Command, command: Command): Command {
  return command
    .addOption(
      decimalOption(
        program,
        t(
          "with --csv: decimal mark, comma or point; in Spanish comma by default, with ; between fields and a byte order mark for spreadsheets; point writes plain CSV",
        ),
      ),
    )
    .addOption(delimiterOption(program, t("with --csv: the delimiter, , or ; (default ; with a decimal comma)")));
}

/** The voucher a command acts on: `--ref R`, or `--type T --number N [--pv P]` (pdf, resend, pay). */
export const targetShape = (o: typeof Kit) => ({
  ref: o.reference().optional(),
  type: o.voucherType().optional(),
  number: o.voucherNumber().optional(),
  pv: o.pointOfSale().optional(),
});

/** targetShape's rules: one way of naming the voucher, whole. */
export function targetRules(o: typeof Kit, command: string) {
  return (flags: { ref?: string; type?: string; number?: Kit.VoucherNumberArg; pv?: number }, ctx: RefinementCtx) => {
    if (flags.ref !== undefined) {
      if (flags.type !== undefined || flags.number !== undefined || flags.pv !== undefined)
        o.rule(ctx, t("{command} takes --ref R, or --type T --number N, not both", { command }));
    } else if (flags.type === undefined) o.missing(ctx, "type", o.expectedType());
    else if (flags.number === undefined) o.missing(ctx, "number", o.expectedNumber());
    else o.onePointOfSale(ctx, flags.pv, flags.number);
  };
}

/** How voucher files are read: `--encoding`, `--delimiter`, `--decimal` (validate, issue, issue-queued). */
export const readingShape = (o: typeof Kit) => ({
  encoding: o.encoding().optional(),
  delimiter: o.delimiter().optional(),
  decimal: o.decimal().optional(),
});

/** The options of inputOptions' flags, read before the command runs. */
export const inputShape = (o: typeof Kit) => ({
  ...readingShape(o),
  validate: o.bool(),
  skipInvalid: o.bool(),
  out: o.string(),
  pdf: o.bool(),
  qr: o.string(),
  allowDuplicate: o.bool(),
  concurrency: o.int(1, 64).optional(),
  rate: o.int(0, 60_000).optional(),
  report: o.string(),
});

/** The flags `issue` and `issue-queued` share: input files, validation, documents, pace, report. */
export function inputOptions(command: Command): Command {
  return command
    .argument(t("[files...]"), t(".json or .csv voucher files, or - for standard input"))
    .option("--no-validate", t("skip the tax rules and totals check (the schema still applies)"))
    .option(
      "--skip-invalid",
      t(
        "issue the valid vouchers and report the invalid ones (exit 7); by default nothing is sent while any is invalid",
      ),
    )
    .option(
      `--encoding ${t("<encoding>")}`,
      t(
        "input encoding: utf8 or latin1 (Windows-1252); by default UTF-8, and a file that is not UTF-8 is read as Windows-1252",
      ),
    )
    .addOption(delimiterOption(command, t("CSV delimiter (detected by default)")))
    .addOption(decimalOption(command))
    .option(
      `--out ${t("<dir>")}`,
      t("folder for PDFs and tickets (default: the profile's pdf_dir, else ./comprobantes)"),
    )
    .option("--no-pdf", t("do not download the PDF and the ticket"))
    .option(`--qr ${t("<target>")}`, t("write each voucher's QR to FILE.png, or draw it: --qr terminal"))
    .option(
      "--allow-duplicate",
      t("issue again a voucher the journal or the service holds as issued (with a new reference)"),
    )
    .option(`--concurrency ${t("<n>")}`, t("lanes (point of sale and type) sent in parallel (default 4)"))
    .option(
      `--rate ${t("<ms>")}`,
      t("least milliseconds between requests (default: the profile's rate_ms; 100 for a real service)"),
    )
    .option(`--report ${t("<file.csv>")}`, t("write one CSV row per voucher as it settles"));
}
