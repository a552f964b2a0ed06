/** Templates are valid vouchers; samples and templates pass the published JSON Schema (ajv). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { template } from "../../src/commands/schema.js";
import { VOUCHER_TYPE_NAMES } from "../../src/voucher/codes.js";
import { dayNumber } from "../../src/voucher/dates.js";
import { voucherJsonSchema } from "../../src/voucher/json-schema.js";
import { validateEnvelope } from "../../src/voucher/validate.js";
import { ROOT } from "../helpers.js";

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateSchema = ajv.compile(voucherJsonSchema());

describe("facturar template", () => {
  it.each(VOUCHER_TYPE_NAMES)("gives a valid %s", (tipo) => {
    const today = dayNumber("20/11/2026");
    const envelope = template(tipo, today);
    const result = validateEnvelope(envelope, { now: new Date("2026-11-20T15:00:00Z") });
    expect(result.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(validateSchema(envelope), JSON.stringify(validateSchema.errors)).toBe(true);
  });
});

describe("the JSON Schema editors use", () => {
  const files = readdirSync(join(ROOT, "samples"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => join(ROOT, "samples", f));

  it.each(files)("accepts %s", (file) => {
    const data = JSON.parse(readFileSync(file, "utf8"));
    expect(validateSchema(data), JSON.stringify(validateSchema.errors)).toBe(true);
  });

  it("refuses what the validator refuses for its shape", () => {
    const bad = JSON.parse(readFileSync(join(ROOT, "samples", "invalid", "schema-unknown-field.json"), "utf8"));
    expect(validateSchema(bad)).toBe(false);
    const type = JSON.parse(readFileSync(join(ROOT, "samples", "invalid", "schema-voucher-type.json"), "utf8"));
    expect(validateSchema(type)).toBe(false);
  });
});
