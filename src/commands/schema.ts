/** `facturar schema` and `facturar template <tipo> [--csv]`: what a voucher file looks like. */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import {
  canonicalVoucherType,
  closestVoucherType,
  FCE_REGIME,
  VOUCHER_TYPE_NAMES,
  type VoucherType,
  voucherTypeInfo,
} from "../voucher/codes.js";
import { argentinaToday, clockFrom, formatDay } from "../voucher/dates.js";
import { cbuWithCheckDigits } from "../voucher/ids.js";
import { voucherJsonSchema } from "../voucher/json-schema.js";
import type { Comprobante } from "../voucher/schema.js";
import { computeTotals } from "../voucher/totals.js";
import type { TemplateOptions } from "./template.command.js";

/** template's argument: a voucher type as people type it (`factura b`), the service's name for it. */
function voucherTypeArg(value: string): VoucherType {
  const tipo = canonicalVoucherType(value);
  if (tipo) return tipo;
  const near = closestVoucherType(value);
  throw new UsageError(
    t("unknown voucher type {tipo}", { tipo: JSON.stringify(value) }),
    near
      ? t("did you mean {tipo}?", { tipo: JSON.stringify(near) })
      : t('write it as the service does, e.g. "FACTURA B"'),
  );
}

export async function schemaCommand(ctx: Context): Promise<Outcome> {
  await ctx.out(JSON.stringify(voucherJsonSchema(), null, 2));
  return "done";
}

/** A valid voucher of `tipo` with placeholder data, dated today: a starting point to edit. */
export function template(asked: string, today = argentinaToday()): Record<string, unknown> {
  const tipo = voucherTypeArg(asked);
  const info = voucherTypeInfo(tipo) as NonNullable<ReturnType<typeof voucherTypeInfo>>;
  const cls = info.class;
  const registered = info.fce || cls === "A" || cls === "M";
  const exportVoucher = cls === "E";
  // A company receiver: registered, except for an FCE B, which goes to an exempt one (class B).
  const company = cls === "B" ? "E" : "RI";
  const cliente = exportVoucher
    ? {
        documento_tipo: "CUIT",
        documento_nro: "55000002207",
        razon_social: "Cliente del exterior",
        condicion_iva: "CDEX",
      }
    : registered
      ? {
          documento_tipo: "CUIT",
          documento_nro: "20111111112",
          razon_social: "Cliente SA",
          condicion_iva: company,
          condicion_iva_operacion: company,
        }
      : {
          documento_tipo: "DNI",
          documento_nro: "30123456",
          razon_social: "Consumidor",
          condicion_iva: "CF",
          condicion_iva_operacion: "CF",
        };
  const rate = cls === "C" || cls === "E" ? 0 : 21;
  const comprobante: Record<string, unknown> = {
    tipo,
    fecha: formatDay(today),
    vencimiento: formatDay(today + 30),
    rubro: "Ventas",
    rubro_grupo_contable: "Ventas",
    external_reference: "CAMBIAR-0001",
    ...(exportVoucher ? { moneda: "DOL", cotizacion: 1000, idioma: 2 } : {}),
    detalle: [
      { cantidad: 1, producto: { descripcion: "Producto o servicio", precio_unitario_sin_iva: 1000, alicuota: rate } },
    ],
  };
  const note = info.kind === "credit" || info.kind === "debit";
  if (exportVoucher) {
    // Export notes name their voucher inside fex, with no date; fecha_pago is for invoices only.
    comprobante.fex = note
      ? {
          tipo_exportacion: 2,
          pais_comprobante_id: 212,
          comprobantes_asociados: [{ tipo_comprobante: "FACTURA E", punto_venta: 1, numero: 1, cuit: "20111111112" }],
        }
      : { tipo_exportacion: 2, pais_comprobante_id: 212, fecha_pago: formatDay(today + 30) };
  } else if (note) {
    const invoice = VOUCHER_TYPE_NAMES.find((name) => {
      const t = voucherTypeInfo(name);
      return t?.kind === "invoice" && t.class === cls && t.fce === info.fce;
    });
    comprobante.comprobantes_asociados = [
      {
        tipo_comprobante: invoice ?? "FACTURA B",
        punto_venta: 1,
        numero: 1,
        comprobante_fecha: formatDay(today),
        cuit: "20111111112",
      },
    ];
  }
  if (info.fce) {
    comprobante.rg_especiales = {
      regimen: FCE_REGIME,
      datos:
        info.kind === "invoice"
          ? [
              { id: 2101, valor: cbuWithCheckDigits("0170099", "2000004567890") },
              { id: 27, valor: "SCA" },
            ]
          : [{ id: 22, valor: "N" }],
    };
  }
  const totals = computeTotals({
    ...(comprobante as unknown as Comprobante),
    detalle: [
      { cantidad: "1", producto: { descripcion: "x", precio_unitario_sin_iva: "1000", alicuota: String(rate) } },
    ] as Comprobante["detalle"],
  });
  comprobante.total = totals.total.toNumber();
  return { cliente, comprobante };
}

/** Flattens an envelope into the CSV's dotted columns (items without index, other arrays with one). */
function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (Array.isArray(value)) {
    if (prefix === "comprobante.detalle") flatten(value[0], prefix, out);
    else if (prefix === "comprobante.tags") out.set(prefix, value.join("|"));
    else for (const [i, v] of value.entries()) flatten(v, `${prefix}.${i}`, out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, String(value));
  }
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export async function templateCommand(ctx: Context, tipo: string, flags: TemplateOptions): Promise<Outcome> {
  const envelope = template(tipo, argentinaToday(clockFrom(ctx.io.env)()));
  if (!flags.csv) {
    await ctx.out(JSON.stringify({ $schema: "./voucher.schema.json", ...envelope }, null, 2));
    ctx.err(ctx.errColor.dim(t("save the schema beside it with: facturar schema > voucher.schema.json")));
    return "done";
  }
  const columns = new Map<string, string>();
  flatten(envelope, "", columns);
  const reference = "comprobante.external_reference";
  const names = [reference, ...[...columns.keys()].filter((k) => k !== reference)];
  await ctx.out(names.join(","));
  await ctx.out(names.map((n) => csvCell(columns.get(n) ?? "")).join(","));
  return "done";
}
