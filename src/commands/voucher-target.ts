/** The voucher a command acts on: `--ref R`, or `--type T --number N [--pv P]`; shared by resend and pay. */

import { findSaleOrPurchase, preferred, type Service } from "../api/protocol.js";
import { FacturarError, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import type { Operacion } from "../voucher/held.js";
import { pointsOfSale, type VoucherNumberArg } from "./options.js";

/** The flags that name the voucher, read (define.ts targetShape), their rules kept (targetRules). */
export interface TargetFlags {
  ref?: string | undefined;
  type?: string | undefined;
  number?: VoucherNumberArg | undefined;
  pv?: number | undefined;
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

/** The voucher the flags name (their schema saw that they name one, whole). */
export function targetArg(flags: TargetFlags): TargetArg {
  if (flags.ref !== undefined) return { ref: flags.ref };
  return {
    tipo: flags.type as string,
    numero: (flags.number as VoucherNumberArg).numero,
    puntoVenta: pointsOfSale(flags.pv, flags.number)[0],
  };
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
