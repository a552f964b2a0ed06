/** The JSON Schema of voucher files, generated from the same zod schema that validates them. */
import * as z from "zod";
import { envelopeSchema } from "./schema.js";

export function voucherJsonSchema(): Record<string, unknown> {
  const envelope = z.toJSONSchema(envelopeSchema, { io: "input", unrepresentable: "any", target: "draft-2020-12" });
  const { $schema, ...definition } = envelope as Record<string, unknown>;
  return {
    $schema,
    title: "facturar voucher file",
    description: "One voucher envelope (cliente or proveedor + comprobante), or an array of them.",
    $defs: { envelope: definition },
    anyOf: [{ $ref: "#/$defs/envelope" }, { type: "array", minItems: 1, items: { $ref: "#/$defs/envelope" } }],
  };
}
