/** `facturar validate <files...>`: offline schema, tax rules and totals; nothing is sent. */

import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { say, t, tn } from "../i18n/index.js";
import { checkSource } from "../input/check.js";
import { readVouchers } from "../input/read.js";
import type { ReadOptions } from "../input/source.js";
import { jsonText } from "../output/json.js";
import { validationHuman, validationJson } from "../output/validation.js";
import { visibleLines } from "../output/visible.js";
import { clockFrom, dayNumber } from "../voucher/dates.js";
import { ruleOptions } from "../voucher/validate.js";
import type { ValidateOptions } from "./validate.command.js";

/** How the files are read, as the flags say. */
export function readOptions(
  ctx: Context,
  flags: Pick<ValidateOptions, "encoding" | "delimiter" | "decimal">,
): ReadOptions {
  return {
    ...(flags.encoding ? { encoding: flags.encoding } : {}),
    ...(flags.delimiter ? { delimiter: flags.delimiter } : {}),
    ...(flags.decimal ? { decimalComma: flags.decimal === "comma" } : {}),
    stdin: ctx.io.stdin,
  };
}

function validationRuleOptions(flags: ValidateOptions, env: Record<string, string | undefined>) {
  const opts = ruleOptions({
    now: clockFrom(env)(),
    ...(flags.ceiling ? { ceiling: flags.ceiling } : {}),
  });
  if (flags.today !== undefined) opts.today = dayNumber(flags.today);
  return opts;
}

export async function validateCommand(ctx: Context, files: string[], flags: ValidateOptions): Promise<Outcome> {
  const read = readOptions(ctx, flags);
  const rules = validationRuleOptions(flags, ctx.io.env);
  if (files.filter((f) => f === "-").length > 1) throw new UsageError(t("standard input (-) can be read only once"));

  let valid = 0;
  let invalid = 0;
  let unreadable = 0;
  let warnings = 0;
  for (const file of files) {
    try {
      for await (const source of readVouchers(file, read)) {
        const check = checkSource(source, rules);
        warnings += check.warnings.length;
        if (check.ok) valid++;
        else invalid++;
        if (ctx.json) await ctx.out(jsonText(validationJson(check)));
        else for (const line of validationHuman(check, ctx.color, ctx.quiet)) await ctx.out(line);
      }
    } catch (error) {
      if (!(error instanceof FacturarError) || error.code !== "input.unreadable") throw error;
      unreadable++;
      // One unreadable file does not hide what the others hold.
      if (ctx.json) {
        await ctx.out(
          jsonText({
            ok: false,
            status: "unreadable",
            file,
            external_reference: null,
            comprobante_tipo: null,
            errors: [say(error.text)],
            error_details: [
              {
                code: error.code,
                field: null,
                place: null,
                message: say(error.text),
                text: say(error.text),
                ...(error.hint ? { hint: error.hint } : {}),
              },
            ],
          }),
        );
      }
      // On stderr in every mode, for the log a person reads.
      ctx.err(
        `${ctx.errColor.red(t("error:"))} ${visibleLines(error.text)}${error.hint ? `\n  ${t("hint:")} ${visibleLines(error.hint)}` : ""}`,
      );
    }
  }
  if (!ctx.quiet) {
    const total = valid + invalid;
    const parts = [
      tn(total, "{n} voucher: {valid} valid, {invalid} invalid", "{n} vouchers: {valid} valid, {invalid} invalid", {
        valid,
        invalid,
      }),
    ];
    if (warnings > 0) parts.push(tn(warnings, "{n} warning", "{n} warnings"));
    if (unreadable > 0) parts.push(tn(unreadable, "{n} file unreadable", "{n} files unreadable"));
    ctx.err(parts.join("; "));
  }
  if (unreadable > 0) return "usage";
  return invalid > 0 ? "invalid" : "done";
}
