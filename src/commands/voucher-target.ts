/** The voucher a command acts on: `--ref R`, or `--type T --number N [--pv P]`; shared by resend and pay. */

import { findSaleOrPurchase, preferred, type Service } from "../api/protocol.js";
import { FacturarError, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import type { Operacion } from "../voucher/held.js";
import { pointOfSaleArg, requiredVoucherType, voucherNumberArg } from "./flags.js";

export interface TargetFlags {
  ref?: string;
  type?: string;
  number?: string;
  pv?: string;
}

export type TargetArg = { ref: string } | { tipo: string; numero: number; puntoVenta: number | undefined };

export interface Target {
  tipo: string;
  puntoVenta: number;
  numero: number;
  operacion: Operacion;
  /** Its currency as vouchers write it (PES, DOL…), when the service was asked. */
  moneda?: string;
}

/** Checked before connecting: a usage error names the flag. */
export function targetArg(command: string, flags: TargetFlags): TargetArg {
  const ref = flags.ref?.trim();
  if (flags.ref !== undefined && !ref) throw new UsageError(t("--ref needs a reference"));
  if (ref && (flags.type !== undefined || flags.number !== undefined || flags.pv !== undefined))
    throw new UsageError(t("{command} takes --ref R, or --type T --number N, not both", { command }));
  if (ref) return { ref };
  const tipo = requiredVoucherType(flags.type);
  const number = voucherNumberArg("--number", flags.number);
  if (!number) throw new UsageError(t("{flag} is required", { flag: "--number" }));
  return { tipo, numero: number.numero, puntoVenta: pointOfSaleArg(flags.pv, number) };
}

/** The issued voucher the flags name; by reference, a sale or else a purchase. */
export async function resolveTarget(
  service: Service,
  arg: TargetArg,
  defaultPointOfSale: number | undefined,
): Promise<Target> {
  if ("ref" in arg) {
    const found = preferred(await findSaleOrPurchase(service, arg.ref));
    if (!found)
      throw new FacturarError(t("no voucher with reference {ref}", { ref: arg.ref }), "notFound", "service.not-found");
    if (found.state !== "issued" || found.numero === null || found.punto_venta === null)
      throw new FacturarError(
        t("the voucher {ref} is not issued yet ({status})", { ref: arg.ref, status: found.status }),
        "rejected",
        "voucher.not-issued",
      );
    const moneda = found.raw.comprobante.moneda;
    return {
      tipo: found.tipo,
      puntoVenta: found.punto_venta,
      numero: found.numero,
      operacion: found.operacion,
      ...(typeof moneda === "string" && moneda.trim() !== "" ? { moneda: moneda.trim() } : {}),
    };
  }
  const puntoVenta = arg.puntoVenta ?? defaultPointOfSale;
  if (!puntoVenta) throw new UsageError(t("--pv is required: the profile names no point of sale"));
  return { tipo: arg.tipo, puntoVenta, numero: arg.numero, operacion: "V" };
}
