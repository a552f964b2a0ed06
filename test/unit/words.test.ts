/**
 * Words as data (src/i18n/message.ts): the core says what happened as messages and picks no
 * language; the renderers say them in the reader's. What a message renders to, and that the
 * core's results are the same data whatever the language.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Planned, type ReadPlan, withNotes } from "../../src/batch/plan.js";
import { blankResult, type Problem } from "../../src/batch/result.js";
import { EnvelopeStore } from "../../src/batch/spill.js";
import { FacturarError, textOf } from "../../src/errors.js";
import { say, useLang } from "../../src/i18n/index.js";
import {
  amountFigure,
  concat,
  english,
  joined,
  msg,
  msgn,
  rateFigure,
  render,
  sayingAll,
  storedText,
  verbatim,
} from "../../src/i18n/message.js";
import { jsonText } from "../../src/output/json.js";
import { dayNumber } from "../../src/voucher/dates.js";
import { Dec } from "../../src/voucher/decimal.js";
import { validateEnvelope } from "../../src/voucher/validate.js";
import { baseVoucher, ROOT, TODAY } from "../helpers.js";

afterEach(() => useLang("en"));

/** validateEnvelope as the core returns it: no words said, nothing compared as the reader reads it. */
function coreFindings(raw: unknown) {
  return validateEnvelope(raw, { today: dayNumber(TODAY), ceiling: Dec.parse("10000000") }).findings;
}

describe("a message", () => {
  it("is said in the reader's language, its figures in the reader's notation", async () => {
    const m = msg("the total ({total}) is not the sum of the other amounts ({parts})", {
      total: amountFigure("1234567.5"),
      parts: amountFigure("1234567.49"),
    });
    expect(render(m, "en")).toBe("the total (1,234,567.5) is not the sum of the other amounts (1,234,567.49)");
    await useLang("es");
    expect(say(m)).toBe("el total (1.234.567,5) no es la suma de los demás importes (1.234.567,49)");
    expect(say(msg("VAT {rate} %", { rate: rateFigure("10.5") }))).toBe("IVA 10,5 %");
  });

  it("fills only the parameters it was given: a name an object inherits is left as it is", () => {
    // A journal line edited by hand could say this; our own templates never name a missing one.
    expect(render(storedText({ template: "a {constructor} {toString} {b}", params: { b: 1 } }), "en")).toBe(
      "a {constructor} {toString} 1",
    );
  });

  it("chooses its plural by the count, grouped as the reader groups thousands", async () => {
    const one = msgn(1, "{n} voucher", "{n} vouchers");
    const many = msgn(1500, "{n} voucher", "{n} vouchers");
    expect([english(one), english(many)]).toEqual(["1 voucher", "1,500 vouchers"]);
    await useLang("es");
    expect(say(many)).toBe("1.500 comprobantes");
  });

  it("says the messages it holds; someone else's words as they came, braces and all", async () => {
    const service = verbatim("El campo {fecha} no es válido");
    const m = concat(msg("row {row}", { row: 4 }), ": ", service);
    expect(english(m)).toBe("row 4: El campo {fecha} no es válido");
    await useLang("es");
    expect(say(m)).toBe("fila 4: El campo {fecha} no es válido");
    expect(say(joined(["a", msg("row {row}", { row: 2 }), "c"], ", "))).toBe("a, fila 2, c");
  });

  it("survives the journal: written as JSON and read back, it still says the same", async () => {
    const m = concat("b.csv:", msg("rows {first}-{last}", { first: 2, last: 5 }), " ", amountFigure("10.5"));
    const read = JSON.parse(JSON.stringify(m));
    await useLang("es");
    expect(say(read)).toBe(say(m));
    expect(say(read)).toBe("b.csv:filas 2-5 10,5");
  });

  it("is said everywhere in a value by sayingAll, which leaves other objects alone", () => {
    const when = new Date(0);
    const value = { errors: [msg("row {row}", { row: 1 })], code: "x", at: when, n: 3 };
    const said = sayingAll(value, english);
    expect(said).toEqual({ errors: ["row 1"], code: "x", at: when, n: 3 });
    expect(said.at).toBe(when);
  });
});

describe("the tests' own comparison (test/setup-words.ts)", () => {
  it("takes a message facturar made for its words, and an object parsed from output for an object", () => {
    expect(msg("not at the service")).toEqual("not at the service");
    expect([msg("not at the service")]).toEqual(["not at the service"]);
    // What a CLI printing a message unsaid would put on stdout: a script reading it gets no words.
    const printed = JSON.parse(JSON.stringify({ errors: [msg("not at the service")] }));
    expect(printed).not.toEqual({ errors: ["not at the service"] });
    expect(printed.errors).not.toContain("not at the service");
  });
});

describe("messages kept on disk by a run", () => {
  it("are said again once read back: a spilled voucher's warnings come out as words under --json", async () => {
    // No voucher kept in memory: the first one's warnings go to the spill file.
    const notes = new EnvelopeStore<Problem[]>(0);
    const warning: Problem = {
      code: "total.missing",
      field: null,
      place: msg("row {row}", { row: 4 }),
      message: msg("not at the service"),
    };
    const slot = await notes.add([warning]);
    await notes.seal();
    const result = blankResult("invalid", {
      source: "a.csv",
      reference: "R-1",
      tipo: null,
      punto_venta: null,
      total: null,
    });
    await withNotes({ notes } as unknown as ReadPlan, result, { notes: slot } as unknown as Planned);
    await notes.close();
    await useLang("es");
    // Compared as text: the words a script reads, not objects that merely say them.
    expect(jsonText(result.warning_details)).toBe(
      '[{"code":"total.missing","field":null,"place":"fila 4","message":"no está en el servicio"}]',
    );
  });
});

describe("amounts in the core's messages", () => {
  it("are figures, said in the reader's notation like the other amounts of the same sentence", async () => {
    const file = (name: string) => JSON.parse(readFileSync(join(ROOT, "samples", "invalid", name), "utf8"));
    const said = (name: string, code: string) =>
      coreFindings(file(name))
        .filter((f) => f.code === code)
        .map((f) => say(f.message));
    await useLang("es");
    expect(said("discount-exceeds.json", "discount.exceeds")).toEqual([
      "la bonificacion 10.000.000,00 supera la suma de los ítems que descuenta (110.300,00)",
    ]);
    expect(said("payments-sum.json", "payments.sum")).toEqual([
      "pagos.total 310.000,00 difiere de la suma de formas_pago 300.000,00",
    ]);
    expect(said("payments-exceed.json", "payments.exceed")).toEqual([
      "los pagos (500.000,00) superan el total del comprobante (461.222,24)",
    ]);
  });
});

describe("the core picks no language", () => {
  it("gives the same findings, as data, under Spanish and English", async () => {
    const raw = baseVoucher();
    (raw.comprobante as Record<string, unknown>).total = "1";
    (raw.cliente as Record<string, unknown>).documento_nro = "123";
    const english = coreFindings(raw);
    await useLang("es");
    const spanish = coreFindings(raw);
    expect(english.length).toBeGreaterThan(0);
    // Compared as JSON: no string that a language chose, so the two are one.
    expect(JSON.stringify(spanish)).toBe(JSON.stringify(english));
    // Said, they are the reader's words.
    expect(say(spanish.find((f) => f.code === "document.dni")?.message ?? "")).toMatch(/^un DNI tiene 7 u 8 dígitos/);
  });

  it("gives a zod issue in the reader's words too, from the data it keeps", async () => {
    const raw = baseVoucher();
    (raw.comprobante as Record<string, unknown>).detalle = "three items";
    const finding = coreFindings(raw).find((f) => f.code === "schema.invalid");
    expect(english(finding?.message ?? "")).toMatch(/expected array, received string/);
    await useLang("es");
    expect(say(finding?.message ?? "")).toMatch(/se esperaba arreglo, recibido texto/);
  });

  it("keeps an error's English in its message, for logs, and its words for the reader", async () => {
    await useLang("es");
    const error = new FacturarError(msg("no such file"), "usage", "input.unreadable", msg("run again to send it anew"));
    expect(error.message).toBe("no such file");
    expect(say(textOf(error))).toBe("no existe el archivo");
    expect(say(error.hint ?? "")).toBe("ejecutá de nuevo para enviarlo otra vez");
  });
});
