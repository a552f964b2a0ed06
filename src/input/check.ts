/** Validates a voucher as read from a file, placing every finding in that file. */
import type { Text } from "../i18n/message.js";
import { formatPath } from "../voucher/path.js";
import type { Finding, RuleOptions } from "../voucher/rules.js";
import { type ValidationResult, validateEnvelope } from "../voucher/validate.js";
import type { SourceVoucher } from "./source.js";

export interface PlacedFinding extends Finding {
  /** `comprobante.detalle[3].producto.alicuota` */
  field: string;
  /** `a.csv:row 12, column comprobante.detalle.producto.alicuota` */
  place: Text;
}

export interface VoucherCheck {
  source: SourceVoucher;
  result: ValidationResult;
  ok: boolean;
  errors: PlacedFinding[];
  warnings: PlacedFinding[];
}

export function checkSource(source: SourceVoucher, opts: RuleOptions): VoucherCheck {
  const result = validateEnvelope(source.raw, opts, source.hasNoEmptyStrings);
  const placed = [...source.readerFindings, ...result.findings].map(
    (f): PlacedFinding => ({ ...f, field: formatPath(f.path), place: f.at ?? source.place(f.path) }),
  );
  const errors = placed.filter((f) => f.severity === "error");
  return {
    source,
    result,
    ok: errors.length === 0,
    errors,
    warnings: placed.filter((f) => f.severity === "warning"),
  };
}
