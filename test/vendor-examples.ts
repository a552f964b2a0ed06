/**
 * The vendor's documentation examples (see test/fixtures/vendor-examples/README.md): where they
 * are, and the one way every test turns an example into a request for a running sandbox.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TODAY } from "./helpers.js";

/**
 * The examples are the vendor's text, kept as data beside the repository (shared/vendor-examples),
 * not in it; FACTURAR_VENDOR_EXAMPLES names another folder holding the same files.
 */
export const VENDOR_EXAMPLES_DIR =
  process.env.FACTURAR_VENDOR_EXAMPLES ?? join(ROOT, "..", "shared", "vendor-examples");

export const haveVendorExamples = existsSync(VENDOR_EXAMPLES_DIR);

export function vendorExampleFiles(): string[] {
  return haveVendorExamples
    ? readdirSync(VENDOR_EXAMPLES_DIR)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
}

export type VendorBody = any;

export function readVendorExample(file: string): VendorBody {
  return JSON.parse(readFileSync(join(VENDOR_EXAMPLES_DIR, file), "utf8"));
}

/** Every request in an example: the body itself, or each of its batch `requests`. */
export function requestsOf(body: VendorBody): VendorBody[] {
  return Array.isArray(body.requests) ? body.requests : [body];
}

/**
 * The replacements, and nothing else: the credentials (by the caller), the point of sale, every
 * date (to `day`: the voucher's, its due date, its period, its associations', the export payment
 * date), and a `numero` other than 0 (to the number the lane expects next, `next(tipo)`, then
 * consecutive within a batch), since the example's own number would clash with the sandbox's
 * counter rather than test anything. Everything else is posted as published.
 */
export function adaptVendorExample(
  body: VendorBody,
  pv: number,
  next: (tipo: string) => number,
  day = TODAY,
): VendorBody {
  const copy = structuredClone(body);
  const taken = new Map<string, number>();
  for (const r of requestsOf(copy)) {
    const c = r.comprobante;
    c.punto_venta = typeof c.punto_venta === "string" ? String(pv) : pv;
    for (const field of ["fecha", "vencimiento", "periodo_facturado_desde", "periodo_facturado_hasta"])
      if (typeof c[field] === "string" && c[field] !== "") c[field] = day;
    for (const a of Array.isArray(c.comprobantes_asociados) ? c.comprobantes_asociados : [])
      if (typeof a.comprobante_fecha === "string") a.comprobante_fecha = day;
    if (c.comprobantes_asociados_periodo) {
      c.comprobantes_asociados_periodo.fecha_desde = day;
      c.comprobantes_asociados_periodo.fecha_hasta = day;
    }
    if (c.fex && typeof c.fex.fecha_pago === "string") c.fex.fecha_pago = day;
    if (c.numero !== undefined && Number(c.numero) !== 0) {
      const numero = taken.get(c.tipo) ?? next(c.tipo);
      taken.set(c.tipo, numero + 1);
      c.numero = typeof c.numero === "string" ? String(numero) : numero;
    }
  }
  return copy;
}
