/** How `validate` shows a voucher: a block for people, one NDJSON object for machines. */

import type { ChalkInstance } from "chalk";
import { problemText } from "../batch/result.js";
import { say, t, tn } from "../i18n/index.js";
import type { PlacedFinding, VoucherCheck } from "../input/check.js";
import { describeTotals, totalsToJson } from "../voucher/totals.js";
import { amountText } from "./amounts.js";
import { visible } from "./visible.js";

/** A finding as issue's `error_details` carry one: `text` beside `message`. */
function findingJson(f: PlacedFinding) {
  return { code: f.code, field: f.field, place: f.place, message: f.message, text: f.message };
}

export function validationJson(check: VoucherCheck) {
  const env = check.result.envelope;
  const raw = check.source.raw as { comprobante?: { tipo?: unknown; external_reference?: unknown } };
  return {
    ok: check.ok,
    status: check.ok ? "valid" : "invalid",
    file: check.source.file,
    index: check.source.index,
    source: check.source.label,
    ...(check.source.rows ? { rows: check.source.rows } : {}),
    external_reference: env?.comprobante.external_reference ?? stringOrNull(raw.comprobante?.external_reference),
    comprobante_tipo: env?.comprobante.tipo ?? stringOrNull(raw.comprobante?.tipo),
    // The shape of issue's results: each as a line in `errors`, as an object in `error_details`.
    errors: check.errors.map(problemText),
    error_details: check.errors.map(findingJson),
    warnings: check.warnings.map(problemText),
    warning_details: check.warnings.map(findingJson),
    totals: check.result.totals ? totalsToJson(check.result.totals) : null,
  };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

export function validationHuman(check: VoucherCheck, color: ChalkInstance, quiet: boolean): string[] {
  if (quiet && check.ok) return [];
  const { comprobante_tipo: tipo, external_reference: ref } = validationJson(check);
  const lines: string[] = [];
  // The label (a file's name), the type and the reference are the file's text: shown, not obeyed.
  const head = [visible(check.source.label), visible(tipo ?? ""), ref ? `ref ${visible(ref)}` : ""]
    .filter(Boolean)
    .join("  ");
  if (check.ok) {
    if (quiet) return lines;
    const total = check.result.totals ? `  ${t("total")} ${amountText(check.result.totals.total)}` : "";
    lines.push(`${color.green("✔")} ${head}${total}`);
    if (check.result.totals) lines.push(color.dim(`    ${say(describeTotals(check.result.totals))}`));
  } else {
    const n = check.errors.length;
    lines.push(`${color.red("✖")} ${head}  ${color.red(tn(n, "{n} error", "{n} errors"))}`);
  }
  const [error, warning] = [t("error"), t("warning")];
  const width = Math.max(error.length, warning.length);
  for (const f of check.errors)
    lines.push(
      `    ${color.red(error.padEnd(width))} ${visible(f.place)}: ${visible(f.message)} ${color.dim(`[${f.code}]`)}`,
    );
  if (!quiet) {
    for (const f of check.warnings)
      lines.push(
        `    ${color.yellow(warning.padEnd(width))} ${visible(f.place)}: ${visible(f.message)} ${color.dim(`[${f.code}]`)}`,
      );
  }
  return lines;
}
