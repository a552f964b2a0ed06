/**
 * The vendor's documentation examples (see test/fixtures/vendor-examples/README.md): where they
 * are, and the one way every test turns an example into a request for a running sandbox.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TODAY } from "./helpers.js";

/**
 * The examples are the vendor's text, kept as data beside the repository (shared/vendor-examples),
 * not in it; FACTURAR_VENDOR_EXAMPLES names another folder holding the same files. The folder
 * holds `requests/` (request bodies, one per example) and `responses/` (documented answers).
 */
export const VENDOR_EXAMPLES_DIR =
  process.env.FACTURAR_VENDOR_EXAMPLES ?? join(ROOT, "..", "shared", "vendor-examples");

/**
 * Whether the folder is there at all (a clone without ../shared skips the tests). A folder that is
 * there but holds something else fails the tests that list it rather than skipping them.
 */
export const haveVendorExamples = existsSync(VENDOR_EXAMPLES_DIR);

export type VendorKind = "requests" | "responses";

/** The `.json` files of `requests/` or `responses/`, sorted; none without the folder. */
export function vendorExampleFiles(kind: VendorKind = "requests"): string[] {
  if (!haveVendorExamples) return [];
  const dir = join(VENDOR_EXAMPLES_DIR, kind);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
}

export type VendorBody = any;

export function readVendorExample(file: string, kind: VendorKind = "requests"): VendorBody {
  return JSON.parse(readFileSync(join(VENDOR_EXAMPLES_DIR, kind, file), "utf8"));
}

/** Every request in an example: the body itself, or each of its batch `requests`. */
export function requestsOf(body: VendorBody): VendorBody[] {
  return Array.isArray(body.requests) ? body.requests : [body];
}

/** A body without the three credentials (the sandbox's own go with each call). */
export function withoutCredentials(body: VendorBody): VendorBody {
  const { usertoken: _u, apikey: _k, apitoken: _t, ...rest } = body;
  return rest;
}

/**
 * The replacements, and nothing else (the README of the examples lists them): the credentials
 * (by the caller), the point of sale, every date (to `day`: the body's own `fecha` and
 * `vencimiento`, as the queue methods, `requiere_fec` and `cotizacion` send them; the voucher's,
 * its due date, its period, its associations', the export payment date, and the month a
 * subscription runs to, `abono_hasta`, mm/aaaa), and a `numero` other than 0 (to the number the
 * lane expects next, `next(tipo)`, then consecutive within a batch), since the example's own
 * number would clash with the sandbox's counter rather than test anything. A purchase
 * (`operacion: "C"`) keeps its point of sale and number: they are its supplier's, not the
 * account's. Everything else is posted as published, and a field the example leaves out stays out.
 */
export function adaptVendorExample(
  body: VendorBody,
  pv: number,
  next: (tipo: string) => number,
  day = TODAY,
): VendorBody {
  const copy = structuredClone(body);
  for (const field of ["fecha", "vencimiento"])
    if (typeof copy[field] === "string" && copy[field] !== "") copy[field] = day;
  const taken = new Map<string, number>();
  for (const r of requestsOf(copy)) {
    const c = r.comprobante;
    if (c === null || typeof c !== "object") continue;
    const purchase = c.operacion === "C";
    if (c.punto_venta !== undefined && !purchase) c.punto_venta = typeof c.punto_venta === "string" ? String(pv) : pv;
    for (const field of ["fecha", "vencimiento", "periodo_facturado_desde", "periodo_facturado_hasta"])
      if (typeof c[field] === "string" && c[field] !== "") c[field] = day;
    if (typeof c.abono_hasta === "string" && c.abono_hasta !== "") c.abono_hasta = day.slice(3);
    for (const a of Array.isArray(c.comprobantes_asociados) ? c.comprobantes_asociados : [])
      if (typeof a.comprobante_fecha === "string") a.comprobante_fecha = day;
    if (c.comprobantes_asociados_periodo) {
      c.comprobantes_asociados_periodo.fecha_desde = day;
      c.comprobantes_asociados_periodo.fecha_hasta = day;
    }
    if (c.fex && typeof c.fex.fecha_pago === "string") c.fex.fecha_pago = day;
    if (c.numero !== undefined && Number(c.numero) !== 0 && !purchase) {
      const numero = taken.get(c.tipo) ?? next(c.tipo);
      taken.set(c.tipo, numero + 1);
      c.numero = typeof c.numero === "string" ? String(numero) : numero;
    }
  }
  return copy;
}
