/**
 * What the command definition files (`*.command.ts`) share. A definition registers a command's
 * flags, help and examples, and nothing heavy: its action module is imported only when the
 * command runs, so `--version` and `--help` stay cheap (bench/startup.mjs).
 */
import { type Command, InvalidArgumentError } from "commander";
import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { currentLang, t } from "../i18n/index.js";

export type Action = (ctx: Context, ...args: never[]) => Promise<Outcome>;

/** Given by src/cli.ts: the commander action that builds the context, loads the action and settles. */
export type Run = (load: () => Promise<Action>) => (...args: unknown[]) => Promise<void>;

/** A command's definition: registers it on the program. */
export type Define = (program: Command, run: Run) => void;

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
  return command
    .createOption(`--decimal ${t("<mark>")}`, description)
    .choices(decimalWords())
    .argParser(decimalMark);
}

/** The words `--decimal` takes, as the help and the completion offer them: English, or Spanish too. */
export function decimalWords(): string[] {
  return currentLang() === "es" ? ["coma", "punto", "comma", "point"] : ["comma", "point"];
}

/** `--decimal`'s word, in English or Spanish, as the mark it names. */
export function decimalMark(word: string): "comma" | "point" {
  const mark = { comma: "comma", coma: "comma", point: "point", punto: "point" }[word.trim().toLowerCase()];
  if (mark === "comma" || mark === "point") return mark;
  throw new InvalidArgumentError(`Allowed choices are ${decimalWords().join(", ")}.`);
}

/** `--delimiter` of a CSV written or read. */
export function delimiterOption(command: Command, description: string) {
  return command.createOption(`--delimiter ${t("<char>")}`, description).choices([",", ";"]);
}

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
