/**
 * `facturar issue --interactive`: the voucher asked for on a terminal — type, customer (with the
 * CUIT check and the anonymous consumer), items — then its computed totals, a confirmation, the
 * issue with its PDF, and an offer to keep it as a JSON file for next time.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Context } from "../context.js";
import { UsageError } from "../errors.js";
import { DOCUMENT_TYPES, VAT_CONDITION_NAMES, VAT_CONDITIONS_BY_CLASS, voucherTypeInfo } from "../voucher/codes.js";
import { argentinaToday, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { describeTotals } from "../voucher/totals.js";
import { validateEnvelope } from "../voucher/validate.js";

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

/** The voucher, asked for; returns the envelope to issue (and where it was saved, if it was). */
export async function askVoucher(
  ctx: Context,
): Promise<{ envelope: Record<string, unknown>; saved?: string } | undefined> {
  const p = await import("@inquirer/prompts");
  const io = { input: ctx.io.stdin, output: ctx.io.stderr };
  const tipo = await p.select({ message: "Voucher type", choices: TYPES.map((t) => ({ name: t, value: t })) }, io);
  const info = voucherTypeInfo(tipo);
  const cls = info?.class ?? "B";

  let cliente: Record<string, unknown>;
  const anonymousAllowed = cls === "B" || cls === "C";
  if (
    anonymousAllowed &&
    (await p.confirm({ message: "Unidentified final consumer (no name, no document)?", default: false }, io))
  ) {
    cliente = { documento_tipo: "OTRO", documento_nro: "0", razon_social: "Consumidor final", condicion_iva: "CF" };
  } else {
    const needsCuit = cls === "A" || cls === "M";
    const documento_tipo = needsCuit
      ? "CUIT"
      : await p.select(
          {
            message: "Customer's document",
            choices: DOCUMENT_TYPES.filter((d) => d !== "OTRO").map((d) => ({ name: d, value: d })),
            default: "DNI",
          },
          io,
        );
    const documento_nro = await p.input(
      {
        message: `${documento_tipo} number`,
        validate: (v) => {
          const digits = v.replace(/[-\s.]/g, "");
          if (!/^\d+$/.test(digits)) return "digits only";
          if (documento_tipo === "CUIT" || documento_tipo === "CUIL") {
            const problem = cuitProblem(digits);
            if (problem) return describeCuitProblem(problem, digits);
          }
          return true;
        },
      },
      io,
    );
    const razon_social = await p.input(
      { message: "Customer's name", validate: (v) => v.trim() !== "" || "required" },
      io,
    );
    const allowed = VAT_CONDITIONS_BY_CLASS[cls];
    const condicion_iva = await p.select(
      {
        message: "Customer's VAT condition",
        choices: allowed.map((c) => ({ name: `${c} — ${VAT_CONDITION_NAMES[c]}`, value: c })),
      },
      io,
    );
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
    const descripcion = await p.input(
      {
        message: `Item ${detalle.length + 1}: description`,
        validate: (v) => v.trim().length >= 4 || "at least 4 characters",
      },
      io,
    );
    const cantidad = await p.input(
      {
        message: "Quantity",
        default: "1",
        validate: (v) => (/^\d+(\.\d{1,2})?$/.test(v) && Number(v) > 0) || "a number above 0, up to 2 decimals",
      },
      io,
    );
    const precio = await p.input(
      {
        message: chargesVat ? "Unit price without VAT" : "Unit price",
        validate: (v) => AMOUNT.test(v) || "a number such as 1500.50 (decimal point, up to 3 decimals)",
      },
      io,
    );
    const alicuota = chargesVat ? await p.select({ message: "VAT rate", choices: RATES, default: "21" }, io) : "0";
    detalle.push({
      cantidad,
      producto: { descripcion: descripcion.trim(), precio_unitario_sin_iva: precio, alicuota },
    });
  } while (detalle.length < 130 && (await p.confirm({ message: "Add another item?", default: false }, io)));

  const today = argentinaToday();
  const comprobante: Record<string, unknown> = {
    tipo,
    fecha: formatDay(today),
    vencimiento: formatDay(today + 30),
    rubro: "Ventas",
    rubro_grupo_contable: "Ventas",
    detalle,
  };
  if (info && (info.kind === "credit" || info.kind === "debit")) {
    const desde = await p.input(
      { message: "Period the note adjusts: from (dd/mm/yyyy)", default: formatDay(today - 30) },
      io,
    );
    const hasta = await p.input({ message: "to (dd/mm/yyyy)", default: formatDay(today) }, io);
    comprobante.comprobantes_asociados_periodo = { fecha_desde: desde, fecha_hasta: hasta };
  }
  const envelope = { cliente, comprobante };

  const check = validateEnvelope(envelope);
  for (const f of check.findings.filter((x) => x.severity === "warning" && x.code !== "total.missing"))
    ctx.err(`${ctx.errColor.yellow("warning:")} ${f.message}`);
  const errors = check.findings.filter((f) => f.severity === "error");
  if (errors.length > 0 || !check.totals) {
    for (const e of errors) ctx.err(`${ctx.errColor.red("error:")} ${e.message} [${e.code}]`);
    return undefined;
  }
  comprobante.total = check.totals.total.toFixed(2);
  ctx.err("");
  ctx.err(
    `${ctx.errColor.bold(tipo)} to ${cliente.razon_social} (${cliente.documento_tipo} ${cliente.documento_nro}), ${detalle.length} item${detalle.length === 1 ? "" : "s"}`,
  );
  ctx.err(`  ${describeTotals(check.totals)}`);
  ctx.err(`  total ${ctx.errColor.bold(Dec.parse(String(comprobante.total)).toFixed(2))}`);
  if (!(await p.confirm({ message: "Issue it?", default: true }, io))) return { envelope: {} };
  let saved: string | undefined;
  if (await p.confirm({ message: "Save it as a JSON file for next time?", default: false }, io)) {
    const name = await p.input(
      {
        message: "File",
        default: `${tipo.replace(/\s+/g, "_").toLowerCase()}-${formatDay(today).split("/").reverse().join("")}.json`,
      },
      io,
    );
    saved = resolve(name);
    writeFileSync(saved, `${JSON.stringify(envelope, null, 2)}\n`);
    ctx.err(`saved to ${saved}`);
  }
  return { envelope, ...(saved ? { saved } : {}) };
}

/** The file to issue: the saved one, or a private temporary copy. */
export function voucherFile(answer: { envelope: Record<string, unknown>; saved?: string }): string {
  if (answer.saved) return answer.saved;
  const dir = mkdtempSync(join(tmpdir(), "facturar-guided-"));
  const file = join(dir, "voucher.json");
  writeFileSync(file, JSON.stringify(answer.envelope), { mode: 0o600 });
  return file;
}

export function requireTerminal(ctx: Context): void {
  if (!ctx.interactive)
    throw new UsageError(
      "--interactive asks on a terminal; without one, give voucher files (facturar template shows one)",
    );
}
