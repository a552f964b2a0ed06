/** How issuing results look: one block per voucher for people, one NDJSON object for machines. */

import { resolve } from "node:path";
import type { ChalkInstance } from "chalk";
import { errorObjects, type VoucherResult, warningObjects, warningTexts } from "../batch/result.js";
import { say, t } from "../i18n/index.js";
import { amountText } from "./amounts.js";
import { visible, visibleLines } from "./visible.js";

const MARK: Record<VoucherResult["status"], string> = {
  issued: "✔",
  queued: "…",
  "skipped-duplicate": "↷",
  rejected: "✖",
  invalid: "✖",
  unknown: "?",
  held: "·",
  conflict: "≠",
};

/** `CAE 7406…, expires dd/mm/yyyy`: support's first question, the same in issue and query. */
export function caeText(cae: string | null, expires: string | null): string {
  return `CAE ${cae ?? t("— (development: no CAE)")}${expires ? t(", expires {date}", { date: expires }) : ""}`;
}

/** A state as people read it, in their language (the service's raw `EMITIDO` is not shown). */
export function stateWord(state: string): string {
  const words: Record<string, string> = {
    issued: t("issued"),
    queued: t("queued"),
    "queue-error": t("queue error"),
    unknown: t("unknown"),
    sending: t("sending"),
    held: t("held"),
    rejected: t("rejected"),
    deleted: t("deleted"),
  };
  return words[state] ?? state;
}

/**
 * The fields design.md lists, plus every error and warning as an object (the shape of
 * `validate --json`'s findings): `error_details` and `warning_details`.
 */
export function resultJson(result: VoucherResult): Record<string, unknown> {
  const { warning_details: _checked, envio_x_mail, envio_x_mail_direcciones, micrositios, ...rest } = result;
  return {
    ...rest,
    error_details: errorObjects(result),
    warnings: warningTexts(result),
    warning_details: warningObjects(result),
    // Always there, empty where the authority said nothing: scripts need not test for it.
    observations: result.observations ?? [],
    // Always there too: null where the service did not say whether it e-mailed the voucher.
    envio_x_mail: envio_x_mail ?? null,
    envio_x_mail_direcciones: envio_x_mail_direcciones ?? [],
    micrositios: micrositios ?? { cliente: null, descarga: null },
  };
}

/**
 * `cwd`: documents under it are shown relative to it (for people at a terminal); without it,
 * paths are shown whole, for a script reading the output.
 */
export function resultHuman(r: VoucherResult, color: ChalkInstance, cwd?: string): string[] {
  const paint =
    r.status === "issued" || r.status === "skipped-duplicate"
      ? color.green
      : r.status === "queued"
        ? color.cyan
        : r.status === "unknown"
          ? color.yellow
          : color.red;
  const number = r.comprobante_nro ?? "";
  const label: Record<VoucherResult["status"], string> = {
    issued: t("issued"),
    queued: t("queued"),
    "skipped-duplicate": t("already issued, not sent again"),
    rejected: t("rejected by the service"),
    invalid: t("invalid, not sent"),
    unknown: t("OUTCOME UNKNOWN"),
    held: t("not sent"),
    conflict: t("reference used before for another voucher, not sent"),
  };
  const lines = [
    `${paint(MARK[r.status])} ${visible([r.comprobante_tipo, number].filter(Boolean).join(" "))}  ${color.dim(`ref ${visible(r.external_reference)}`)}  ${paint(label[r.status])}${r.reconciled ? color.dim(` ${t("(confirmed with the service)")}`) : ""}`,
  ];
  // The reference, the source (a file's name) and the messages quoting them are the user's files'
  // text: their escapes shown, not obeyed (the service's texts come stripped already).
  const detail = (text: string) => lines.push(`    ${text}`);
  if (r.status === "issued" || r.status === "skipped-duplicate") {
    detail(
      `${caeText(r.cae, r.vencimiento_cae)}${r.total ? `   ${t("total")} ${amountText(r.total)}` : ""}${r.vencimiento_pago ? `   ${t("due {date}", { date: r.vencimiento_pago })}` : ""}`,
    );
    if (r.pdf)
      detail(
        `PDF: ${visible(relative(r.pdf, cwd))}${r.ticket ? `   ${t("ticket:")} ${visible(relative(r.ticket, cwd))}` : ""}`,
      );
  }
  // Sent by this run, and e-mailed by the service: the accountant knows the customer has it.
  if (r.status === "issued" && r.envio_x_mail) detail(mailedLine(r.envio_x_mail_direcciones ?? []));
  if (r.status === "issued" || r.status === "skipped-duplicate") {
    const pages = r.micrositios && pagesLine(r.micrositios);
    if (pages) detail(pages);
  }
  for (const o of r.observations ?? []) detail(color.yellow(`${t("observed by the authority:")} ${visibleLines(o)}`));
  for (const e of r.errors) detail(color.red(visibleLines(e)));
  for (const d of r.error_details)
    if (!r.errors.some((e) => say(e).includes(say(d.text)))) detail(color.red(`${d.code}: ${visibleLines(d.text)}`));
  if (r.status === "rejected" && r.error_details.length > 0)
    detail(color.dim(`${t("codes:")} ${r.error_details.map((d) => d.code).join(", ")}`));
  for (const w of r.warnings ?? []) detail(color.yellow(`${t("warning:")} ${visibleLines(w)}`));
  if (r.hint) detail(color.dim(`${t("hint:")} ${visibleLines(r.hint)}`));
  return lines;
}

/** `e-mailed to a@b, c@d` (the service's addresses, cleaned of control characters already). */
export function mailedLine(addresses: string[]): string {
  return addresses.length > 0 ? t("e-mailed to {addresses}", { addresses: addresses.join(", ") }) : t("e-mailed");
}

/** `customer's page: URL   download page: URL`, or undefined where the service gave neither. */
export function pagesLine(pages: { cliente: string | null; descarga: string | null }): string | undefined {
  const parts = [
    pages.cliente && `${t("customer's page:")} ${pages.cliente}`,
    pages.descarga && `${t("download page:")} ${pages.descarga}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("   ") : undefined;
}

function relative(path: string, cwd: string | undefined): string {
  const whole = resolve(path);
  return cwd && whole.startsWith(`${cwd}/`) ? whole.slice(cwd.length + 1) : whole;
}
