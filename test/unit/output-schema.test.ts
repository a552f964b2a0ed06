/**
 * One JSON shape per idea: every command's --json output, run in this process against the
 * embedded sandbox, validates against the published schema/output.schema.json.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { runHere } from "../cli-here.js";
import { freshUser, ROOT, TODAY } from "../helpers.js";

const schema = JSON.parse(readFileSync(join(ROOT, "schema", "output.schema.json"), "utf8"));
const validateOutput = new Ajv({ allErrors: true, strict: false }).compile(schema);

function objects(stdout: string): unknown[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

describe("every command's --json output follows schema/output.schema.json", () => {
  it("voucher results, errors and answers of every command: one name per idea, `ok` on each", async () => {
    const u = freshUser("facturar-output-schema-");
    const env = { ...u.env, CI: "true" };
    const sample = (name: string, change: (raw: any) => void = () => {}) => {
      const raw = JSON.parse(readFileSync(join(ROOT, "samples", `${name}.json`), "utf8"));
      Object.assign(raw.comprobante, { fecha: TODAY, vencimiento: TODAY });
      change(raw);
      const path = join(u.cwd, `${name}-${raw.comprobante.external_reference}.json`);
      writeFileSync(path, JSON.stringify(raw));
      return path;
    };
    const invoice = sample("factura-b-dni");
    const mailed = sample("factura-a-mixed-rates", (raw) => {
      raw.cliente.envia_por_mail = "S";
      raw.comprobante.external_reference = "MAIL-1";
    });
    const invalid = sample("factura-b-dni", (raw) => {
      raw.comprobante.external_reference = "BAD-1";
      raw.comprobante.detalle = [];
    });
    // Valid, and not sent since BAD-1 beside it is invalid: told `held` (#25).
    const heldBehind = sample("factura-b-dni", (raw) => (raw.comprobante.external_reference = "HELD-1"));
    const out = join(u.home, "docs");
    const runs: [string[], number[]][] = [
      [["validate", invoice, invalid], [3]],
      [["validate", join(u.cwd, "missing.json")], [2]],
      [["issue", "--no-pdf", invoice, mailed], [0]],
      [["issue", "--no-pdf", invoice], [0]],
      [["issue", "--no-pdf", invalid], [3]],
      [["issue", "--no-pdf", heldBehind, invalid], [3]],
      [["query", "--ref", "FB-2026-0001"], [0]],
      [["query", "--date", TODAY], [0]],
      [["query", "--ref", "NO-SUCH-REF"], [9]],
      [["journal"], [0]],
      [["journal", "--ref", "FB-2026-0001"], [0]],
      [["journal", "--ref", "NO-SUCH-REF"], [9]],
      [["pdf", "--ref", "FB-2026-0001", "--out", out], [0]],
      [["pdf", "--ref", "NO-SUCH-REF", "--out", out], [9]],
      [["resend", "--ref", "MAIL-1"], [0]],
      [["resend", "--ref", "FB-2026-0001"], [4]],
      [["resend", "--ref", "NO-SUCH-REF"], [9]],
      [["qr", "--ref", "FB-2026-0001"], [0]],
      [["next-number", "--type", "FACTURA B"], [0]],
      [["pay", "--ref", "MAIL-1", "--amount", "10"], [0]],
      [["ceiling"], [0]],
      [["status"], [0]],
      [["table", "condiciones-venta"], [0]],
      [["exchange-rate"], [0]],
      [["customer-ledger", "--cuit", "30712293841"], [0]],
      [["requires-fce", "--cuit", "30500010912"], [0]],
      [["cuit", "30712293841"], [0]],
      [["vat-book", "--from", TODAY, "--to", TODAY], [0]],
      [["credit-note", "--ref", "FB-2026-0001", "--no-pdf"], [0]],
      [
        ["issue-queued", "--no-pdf", sample("factura-b-dni", (raw) => (raw.comprobante.external_reference = "Q-1"))],
        [0],
      ],
      [["query", "--nonsense"], [2]],
    ];
    const seen = new Set<string>();
    const statuses = new Set<unknown>();
    for (const [args, codes] of runs) {
      const r = await runHere(["--json", ...args], env);
      expect(codes, `${args.join(" ")}: exit ${r.code}\n${r.stderr}`).toContain(r.code);
      const printed = objects(r.stdout);
      expect(printed.length, `${args.join(" ")} printed no JSON`).toBeGreaterThan(0);
      for (const o of printed) {
        const valid = validateOutput(o);
        expect(valid, `${args.join(" ")}: ${JSON.stringify(validateOutput.errors)}\n${JSON.stringify(o)}`).toBe(true);
        const record = o as Record<string, unknown>;
        if (args[0] === "issue") statuses.add(record.status);
        seen.add(
          "error" in record ? "error" : "status" in record && "external_reference" in record ? "voucher" : "answer",
        );
      }
    }
    expect([...seen].sort()).toEqual(["answer", "error", "voucher"]);
    expect([...statuses].sort()).toEqual(["held", "invalid", "issued", "skipped-duplicate"]);
  }, 120_000);
});
