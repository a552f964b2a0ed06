/**
 * `facturar issue --interactive`: the voucher asked for on a terminal — type, customer (with the
 * CUIT check and the anonymous consumer), items — then its computed totals, a confirmation, the
 * issue with its PDF, and an offer to keep it as a JSON file for next time.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Context } from "../context.js";
import { UsageError } from "../errors.js";
import { currentLang, t, tn } from "../i18n/index.js";
import { commaNumber } from "../input/numbers.js";
import type { SourceVoucher } from "../input/source.js";
import { DOCUMENT_TYPES, VAT_CONDITION_NAMES, VAT_CONDITIONS_BY_CLASS, voucherTypeInfo } from "../voucher/codes.js";
import { argentinaToday, clockFrom, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { describeTotals } from "../voucher/totals.js";
import { validateEnvelope } from "../voucher/validate.js";
import { prompts } from "./prompts.js";

const TYPES = [
  "FACTURA B",
  "FACTURA A",
  "FACTURA C",
  "FACTURA M",
  "NOTA DE CREDITO B",
  "NOTA DE CREDITO A",
  "NOTA DE CREDITO C",
];
const RATES = [
  { name: "21 %", value: "21" },
  { name: "10.5 %", value: "10.5" },
  { name: "27 %", value: "27" },
  { name: "0 %", value: "0" },
  { name: "Exento", value: "-1" },
  { name: "No gravado", value: "-2" },
];
const AMOUNT = /^\d{1,13}(\.\d{1,3})?$/;

/**
 * A number as typed at a prompt, in the form the schema reads. In Spanish it is written as
 * es-AR writes it (`45.000,50`); an ambiguous `7.00` is refused, and the prompt asks again.
 */
function asTyped(text: string): string {
  const trimmed = text.trim();
  if (currentLang() !== "es") return trimmed;
  return commaNumber(trimmed) ?? "?";
}

/** The voucher, asked for; returns the envelope to issue (and where it was saved, if it was). */
export async function askVoucher(
  ctx: Context,
): Promise<{ envelope: Record<string, unknown>; saved?: string } | undefined> {
  const p = await prompts(ctx);
  const tipo = await p.select({
    message: t("Voucher type"),
    choices: TYPES.map((type) => ({ name: type, value: type })),
  });
  const info = voucherTypeInfo(tipo);
  const cls = info?.class ?? "B";

  let cliente: Record<string, unknown>;
  const anonymousAllowed = cls === "B" || cls === "C";
  if (
    anonymousAllowed &&
    (await p.confirm({ message: t("Unidentified final consumer (no name, no document)?"), default: false }))
  ) {
    cliente = { documento_tipo: "OTRO", documento_nro: "0", razon_social: "Consumidor final", condicion_iva: "CF" };
  } else {
    const needsCuit = cls === "A" || cls === "M";
    const documento_tipo = needsCuit
      ? "CUIT"
      : await p.select({
          message: t("Customer's document"),
          choices: DOCUMENT_TYPES.filter((d) => d !== "OTRO").map((d) => ({ name: d, value: d })),
          default: "DNI",
        });
    const documento_nro = await p.input({
      message: t("{type} number", { type: documento_tipo }),
      validate: (v) => {
        const digits = v.replace(/[-\s.]/g, "");
        if (!/^\d+$/.test(digits)) return t("digits only");
        if (documento_tipo === "CUIT" || documento_tipo === "CUIL") {
          const problem = cuitProblem(digits);
          if (problem) return describeCuitProblem(problem, digits);
        }
        return true;
      },
    });
    const razon_social = await p.input({
      message: t("Customer's name"),
      validate: (v) => v.trim() !== "" || t("required"),
    });
    const allowed = VAT_CONDITIONS_BY_CLASS[cls];
    const condicion_iva = await p.select({
      message: t("Customer's VAT condition"),
      choices: allowed.map((c) => ({ name: `${c} — ${VAT_CONDITION_NAMES[c]}`, value: c })),
    });
    cliente = {
      documento_tipo,
      documento_nro: documento_nro.replace(/[-\s.]/g, ""),
      razon_social: razon_social.trim(),
      condicion_iva,
      condicion_iva_operacion: condicion_iva,
    };
  }

  const detalle: Record<string, unknown>[] = [];
  const chargesVat = cls === "A" || cls === "B" || cls === "M";
  do {
    const descripcion = await p.input({
      message: t("Item {n}: description", { n: detalle.length + 1 }),
      validate: (v) => v.trim().length >= 4 || t("at least 4 characters"),
    });
    const cantidad = asTyped(
      await p.input({
        message: t("Quantity"),
        default: "1",
        validate: (v) =>
          (/^\d+(\.\d{1,2})?$/.test(asTyped(v)) && Number(asTyped(v)) > 0) || t("a number above 0, up to 2 decimals"),
      }),
    );
    const precio = asTyped(
      await p.input({
        message: chargesVat ? t("Unit price without VAT") : t("Unit price"),
        validate: (v) => AMOUNT.test(asTyped(v)) || t("a number such as 1500.50 (decimal point, up to 3 decimals)"),
      }),
    );
    const alicuota = chargesVat ? await p.select({ message: t("VAT rate"), choices: RATES, default: "21" }) : "0";
    detalle.push({
      cantidad,
      producto: { descripcion: descripcion.trim(), precio_unitario_sin_iva: precio, alicuota },
    });
  } while (detalle.length < 130 && (await p.confirm({ message: t("Add another item?"), default: false })));

  const today = argentinaToday(clockFrom(ctx.io.env)());
  const comprobante: Record<string, unknown> = {
    tipo,
    fecha: formatDay(today),
    vencimiento: formatDay(today + 30),
    rubro: "Ventas",
    rubro_grupo_contable: "Ventas",
    detalle,
  };
  if (info && (info.kind === "credit" || info.kind === "debit")) {
    const desde = await p.input({
      message: t("Period the note adjusts: from (dd/mm/yyyy)"),
      default: formatDay(today - 30),
    });
    const hasta = await p.input({ message: t("to (dd/mm/yyyy)"), default: formatDay(today) });
    comprobante.comprobantes_asociados_periodo = { fecha_desde: desde, fecha_hasta: hasta };
  }
  const envelope = { cliente, comprobante };

  const check = validateEnvelope(envelope, { now: clockFrom(ctx.io.env)() });
  for (const f of check.findings.filter((x) => x.severity === "warning" && x.code !== "total.missing"))
    ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${f.message}`);
  const errors = check.findings.filter((f) => f.severity === "error");
  if (errors.length > 0 || !check.totals) {
    for (const e of errors) ctx.err(`${ctx.errColor.red(t("error:"))} ${e.message} [${e.code}]`);
    return undefined;
  }
  comprobante.total = check.totals.total.toFixed(2);
  ctx.err("");
  ctx.err(
    tn(detalle.length, "{type} to {name} ({document}), {n} item", "{type} to {name} ({document}), {n} items", {
      type: ctx.errColor.bold(tipo),
      name: String(cliente.razon_social),
      document: `${cliente.documento_tipo} ${cliente.documento_nro}`,
      n: detalle.length,
    }),
  );
  ctx.err(`  ${describeTotals(check.totals)}`);
  ctx.err(`  ${t("total")} ${ctx.errColor.bold(Dec.parse(String(comprobante.total)).toFixed(2))}`);
  if (!(await p.confirm({ message: t("Issue it?"), default: true }))) return { envelope: {} };
  let saved: string | undefined;
  if (await p.confirm({ message: t("Save it as a JSON file for next time?"), default: false })) {
    const name = await p.input({
      message: t("File"),
      default: `${tipo.replace(/\s+/g, "_").toLowerCase()}-${formatDay(today).split("/").reverse().join("")}.json`,
    });
    saved = resolve(name);
    writeFileSync(saved, `${JSON.stringify(envelope, null, 2)}\n`);
    ctx.err(t("saved to {path}", { path: saved }));
  }
  return { envelope, ...(saved ? { saved } : {}) };
}

/**
 * What to issue: the saved file, or the voucher itself from memory (nothing with the customer's
 * data is left behind in a temporary folder).
 */
export function voucherInput(answer: { envelope: Record<string, unknown>; saved?: string }): {
  files: string[];
  sources: SourceVoucher[];
} {
  if (answer.saved) return { files: [answer.saved], sources: [] };
  return {
    files: [],
    sources: [
      {
        file: "guided",
        index: 0,
        raw: answer.envelope,
        readerFindings: [],
        label: "guided",
        place: (path) => `guided: ${path.join(".")}`,
      },
    ],
  };
}

export function requireTerminal(ctx: Context): void {
  if (!ctx.interactive)
    throw new UsageError(
      t("--interactive asks on a terminal; without one, give voucher files (facturar template shows one)"),
    );
}
