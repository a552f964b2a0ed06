/** `facturar qr`: decodes a voucher's QR payload; with --ref, checks it against the voucher. */

import { findSaleOrPurchase, preferred } from "../api/protocol.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { jsonText } from "../output/json.js";
import { DOCUMENT_TYPE_CODES, VOUCHER_TYPES, voucherTypeInfo } from "../voucher/codes.js";
import { toIsoDate } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import type { ServiceVoucher } from "../voucher/held.js";
import { decodeQr } from "../voucher/qr.js";
import { withConnection } from "./online.js";

interface QrCheck {
  field: string;
  qr: unknown;
  voucher: unknown;
  ok: boolean;
  /** false where the service's answer leaves the field out: nothing to compare, not a mismatch. */
  compared: boolean;
}

/** A field the service's answer leaves out (the real service omits or blanks some, e.g. cae in DEV). */
function absent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** What a QR field is, for people (its key is shown beside it). */
function qrLabel(key: string): string {
  const labels: Record<string, string> = {
    ver: t("format version"),
    fecha: t("date"),
    cuit: t("issuer's CUIT"),
    ptoVta: t("point of sale"),
    tipoCmp: t("voucher type"),
    nroCmp: t("number"),
    importe: t("amount"),
    moneda: t("currency"),
    ctz: t("exchange rate"),
    tipoDocRec: t("receiver's document type"),
    nroDocRec: t("receiver's document"),
    tipoCodAut: t("authorisation type"),
    codAut: t("authorisation code"),
  };
  return labels[key] ?? key;
}

/** A QR value, its code named where a table names it: `6 (FACTURA B)`, `96 (DNI)`, `E (CAE)`. */
function qrValue(key: string, value: unknown): string {
  const text = String(value);
  const name =
    key === "tipoCmp"
      ? Object.entries(VOUCHER_TYPES).find(([, info]) => info.code === value)?.[0]
      : key === "tipoDocRec"
        ? Object.entries(DOCUMENT_TYPE_CODES).find(([, code]) => code === value)?.[0]
        : key === "tipoCodAut"
          ? { E: "CAE", A: "CAEA" }[text]
          : undefined;
  return name ? `${text} (${name})` : text;
}

/**
 * `facturar qr [URL] [--ref R]`: decodes a voucher's QR payload; with --ref it also fetches the
 * voucher and checks the QR against it (amount, type, number, point of sale, date, CAE, receiver).
 */
export async function qrCommand(ctx: Context, text: string | undefined, flags: { ref?: string }): Promise<Outcome> {
  if (!text && !flags.ref) throw new UsageError(t("give the QR's text (its URL) or --ref to fetch the voucher"));
  const show = async (url: string, found?: ServiceVoucher): Promise<Outcome> => {
    const voucher = found?.raw;
    const data = decodeQr(url);
    if (!data)
      throw new FacturarError(t("not a voucher QR: {value}", { value: url.slice(0, 80) }), "invalid", "qr.invalid");
    const checks: QrCheck[] = [];
    if (voucher) {
      const c = voucher.comprobante;
      const expect = (field: string, qr: unknown, value: unknown, same: boolean) =>
        checks.push(
          absent(value)
            ? { field, qr, voucher: null, ok: true, compared: false }
            : { field, qr, voucher: value, ok: same, compared: true },
        );
      expect("tipoCmp", data.tipoCmp, c.tipo, voucherTypeInfo(String(c.tipo))?.code === data.tipoCmp);
      expect("ptoVta", data.ptoVta, c.punto_venta, Number(c.punto_venta) === data.ptoVta);
      expect("nroCmp", data.nroCmp, c.numero, Number(c.numero) === data.nroCmp);
      expect("fecha", data.fecha, c.fecha, typeof c.fecha === "string" && toIsoDate(c.fecha) === data.fecha);
      const total = Dec.fromNumber(Number(c.total));
      const importe = Dec.fromNumber(data.importe);
      expect("importe", data.importe, c.total, !!total && !!importe && total.eq(importe));
      expect("moneda", data.moneda, c.moneda, data.moneda === c.moneda);
      expect("codAut", data.codAut, c.cae, String(c.cae) === String(data.codAut));
      if (voucher.proveedor) {
        // A purchase's QR is its supplier's: the supplier issued it, and the receiver is this account.
        const supplier = String(voucher.proveedor.documento_nro ?? "").trim();
        expect("cuit", data.cuit, supplier, supplier === String(data.cuit ?? ""));
      } else {
        const receiver = voucher.cliente ?? {};
        expect(
          "nroDocRec",
          data.nroDocRec,
          receiver.documento_nro,
          String(receiver.documento_nro ?? "").trim() === String(data.nroDocRec ?? ""),
        );
      }
    }
    const ok = checks.every((c) => c.ok);
    if (ctx.json) {
      await ctx.out(jsonText({ ok, qr: data, checks }));
    } else {
      const rows = Object.entries(data).map(([key, value]) => [qrLabel(key), qrValue(key, value), key]);
      const widths = [0, 1].map((i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
      for (const [label, value, key] of rows)
        await ctx.out(
          `${(label ?? "").padEnd(widths[0] ?? 0)}  ${(value ?? "").padEnd(widths[1] ?? 0)}  ${ctx.color.dim(key ?? "")}`,
        );
      for (const c of checks) {
        const mark = !c.compared ? ctx.color.dim("–") : c.ok ? ctx.color.green("✔") : ctx.color.red("✖");
        const held = c.compared ? String(c.voucher) : t("(not in the service's answer)");
        await ctx.out(`${mark} ${c.field.padEnd(10)} QR ${String(c.qr)}  ${t("voucher")} ${held}`);
      }
    }
    return ok ? "done" : "invalid";
  };
  if (!flags.ref) return show(text as string);
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const ref = flags.ref as string;
    const found = preferred(await findSaleOrPurchase(connection.service, ref));
    if (!found)
      throw new FacturarError(
        t("no voucher with reference {ref}", { ref: String(flags.ref) }),
        "notFound",
        "service.not-found",
      );
    const url = text ?? found.qr;
    if (!url)
      throw new FacturarError(
        t("the voucher {ref} has no QR yet (is it still queued?)", { ref: String(flags.ref) }),
        "rejected",
        "qr.missing",
      );
    return show(String(url), found);
  });
}
