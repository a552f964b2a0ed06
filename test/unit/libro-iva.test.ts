/**
 * The Libro IVA Digital files (src/voucher/libro-iva.ts) of a month of vouchers of every class the
 * book takes, checked field by field at the positions of the record designs
 * (reference/libro-iva-digital.md), against figures this test works out itself in integer cents.
 */
import { describe, expect, it } from "vitest";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import { checkLid, lidFile, lidRecords, lidText } from "../../src/voucher/libro-iva.js";
import { type BookLine, bookLine } from "../../src/voucher/vat-book.js";

type Json = Record<string, unknown>;

function voucher(tipo: string, numero: number, comprobante: Json, party: Json = {}, purchase = false): ServiceVoucher {
  const c: Json = { moneda: "PES", cotizacion: 1, ...comprobante };
  const p = { documento_tipo: "CUIT", documento_nro: "30712293841", razon_social: "Cliente SA", ...party };
  return {
    external_reference: `R-${tipo}-${numero}`,
    state: "issued",
    status: "EMITIDO",
    tipo,
    punto_venta: 3,
    numero,
    fecha: String(c.fecha ?? "05/11/2026"),
    total: null,
    errors: [],
    operacion: purchase ? "C" : "V",
    cae: "76123456789012",
    vencimiento_cae: null,
    vencimiento_pago: null,
    qr: null,
    pdf_url: null,
    ticket_url: null,
    observations: [],
    raw: { ...(purchase ? { proveedor: p } : { cliente: p }), comprobante: { fecha: "05/11/2026", ...c } },
  };
}

const item = (precio: string, alicuota: number | string) => ({
  cantidad: 1,
  producto: { precio_unitario: precio, precio_total: precio, alicuota },
});

function line(v: ServiceVoucher): BookLine {
  const l = bookLine(v);
  if (typeof l === "string") throw new Error(l);
  return l;
}

/** Cents of a decimal text, exactly. */
const cents = (x: string) => BigInt(Math.round(Number(x) * 100));
/** rate % of `net` cents, half to even. */
function vat(net: bigint, rate: string): bigint {
  const scaled = net * BigInt(Math.round(Number(rate) * 100));
  let q = scaled / 10_000n;
  const twice = (scaled % 10_000n) * 2n;
  if (twice > 10_000n || (twice === 10_000n && q % 2n === 1n)) q += 1n;
  return q;
}
const amount15 = (c: bigint) => (c < 0n ? -c : c).toString().padStart(15, "0");

/** A field at the design's 1-based position and width. */
const field = (record: string, from: number, width: number) => record.slice(from - 1, from - 1 + width);

// A month: A with three rates, exempt and not-taxed lines and perceptions; B to a consumer and to
// an exempt buyer; M; FCE A; a dollar invoice; a partial credit note; a debit note; a C (left out);
// and an A whose total misses its parts by a cent (VAT rounded item by item: left out, reported).
const A = voucher(
  "FACTURA A",
  1,
  {
    fecha: "02/11/2026",
    detalle: [item("1000", 21), item("500", 10.5), item("200", 27), item("300", -1), item("100", -2)],
    exentos: "300",
    nogravados: "100",
    tributos: [
      { tipo: 7, total: "30" },
      { tipo: 6, total: "30" },
      { tipo: 1, total: "15" },
    ],
    impuestos_internos: "12.50",
    total: "2504.00",
  },
  { razon_social: "Distribuidora Ñandú S.A. — Sucursal Córdoba Centro Norte" },
);
const B = voucher(
  "FACTURA B",
  2,
  { fecha: "03/11/2026", detalle: [item("110300", 21)], total: "133463.00" },
  { documento_tipo: "DNI", documento_nro: "30123456", razon_social: "Juana Pérez" },
);
const Banon = voucher(
  "FACTURA B",
  3,
  { fecha: "03/11/2026", detalle: [item("100", 21)], total: "121.00" },
  { documento_tipo: "OTRO", documento_nro: "0", razon_social: "" },
);
const Bexempt = voucher(
  "FACTURA B",
  4,
  { fecha: "04/11/2026", detalle: [item("800", -1)], exentos: "800", total: "800.00" },
  { documento_tipo: "CUIT", documento_nro: "30500010912", razon_social: "Fundación Sur" },
);
const M = voucher("FACTURA M", 5, { fecha: "04/11/2026", detalle: [item("1000", 21)], total: "1210.00" });
const FCE = voucher("FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A", 6, {
  fecha: "05/11/2026",
  detalle: [item("4850000", 21)],
  total: "5868500.00",
});
const USD = voucher("FACTURA A", 7, {
  fecha: "05/11/2026",
  moneda: "DOL",
  cotizacion: "1047.123457",
  detalle: [item("37.04", 21), item("99.99", 10.5)],
  total: "155.31",
});
const NC = voucher("NOTA DE CREDITO A", 8, { fecha: "06/11/2026", detalle: [item("100", 21)], total: "121.00" });
const ND = voucher("NOTA DE DEBITO A", 9, { fecha: "06/11/2026", detalle: [item("50", 10.5)], total: "55.25" });
const C = voucher("FACTURA C", 10, { fecha: "06/11/2026", detalle: [item("100", 0)], total: "100.00" });
const off = voucher("FACTURA A", 11, {
  fecha: "07/11/2026",
  detalle: [item("10.01", 21), item("10.01", 21)],
  total: "24.23",
});
const E = voucher(
  "FACTURA E",
  12,
  { fecha: "07/11/2026", moneda: "DOL", cotizacion: "1015.5", detalle: [item("420", 0)], total: "420.00" },
  { documento_tipo: "CUIT", documento_nro: "55000002207", razon_social: "Andes Trading LLC" },
);
const month = [A, B, Banon, Bexempt, M, FCE, USD, NC, ND, C, off, E].map(line);

describe("the sales files of a month", () => {
  const records = lidRecords(month, "ventas");

  it("writes every voucher the book takes, and leaves out a class C and a voucher whose parts miss its total", () => {
    expect(records.cbte).toHaveLength(10);
    expect(records.refused.map((r) => [r.line.numero, r.reason])).toEqual([
      [10, "class"],
      [11, "total"],
    ]);
    // 10.01 + 10.01 at 21 %: 20.02 + 4.20 = 24.22 by rate; the voucher says 24.23 (4.21 item by item).
    const missed = records.refused[1];
    expect([missed?.said?.toFixed(2), missed?.computed?.toFixed(2)]).toEqual(["24.23", "24.22"]);
  });

  it("records of exactly 266 and 62 characters, Latin-1, CRLF after each", () => {
    for (const r of records.cbte) expect(r).toHaveLength(266);
    for (const r of records.alicuotas) expect(r).toHaveLength(62);
    const file = lidFile(records.cbte);
    expect(file.toString("latin1").split("\r\n")).toHaveLength(records.cbte.length + 1);
    // Ñ and ó as single bytes; the dash too, Windows-1252's 0x97.
    const first = file.subarray(0, 266).toString("latin1");
    expect(field(first, 79, 30)).toBe("Distribuidora Ñandú S.A. \u0097 Suc");
    expect(file.includes(Buffer.from([0xd1]))).toBe(true);
    expect(file.length).toBe(records.cbte.length * 268);
  });

  it("FACTURA A: every field at its place, figures worked out here", () => {
    const r = records.cbte[0] as string;
    const nets = { "21": cents("1000"), "10.5": cents("500"), "27": cents("200") };
    const vats = { "21": vat(nets["21"], "21"), "10.5": vat(nets["10.5"], "10.5"), "27": vat(nets["27"], "27") };
    const total =
      Object.values(nets).reduce((x, y) => x + y) +
      Object.values(vats).reduce((x, y) => x + y) +
      cents("300") +
      cents("100") +
      cents("30") +
      cents("30") +
      cents("15") +
      cents("12.50");
    expect(total).toBe(250400n);
    expect(field(r, 1, 8)).toBe("20261102");
    expect(field(r, 9, 3)).toBe("001");
    expect(field(r, 12, 5)).toBe("00003");
    expect(field(r, 17, 20)).toBe("00000000000000000001");
    expect(field(r, 37, 20)).toBe("00000000000000000001");
    expect(field(r, 57, 2)).toBe("80");
    expect(field(r, 59, 20)).toBe("00000000030712293841");
    expect(field(r, 109, 15)).toBe(amount15(total));
    expect(field(r, 124, 15)).toBe(amount15(cents("100"))); // not taxed
    expect(field(r, 139, 15)).toBe(amount15(0n)); // not categorised
    expect(field(r, 154, 15)).toBe(amount15(cents("300"))); // exempt
    expect(field(r, 169, 15)).toBe(amount15(cents("15") + cents("30"))); // national, VAT among them
    expect(field(r, 184, 15)).toBe(amount15(cents("30"))); // IIBB
    expect(field(r, 199, 15)).toBe(amount15(0n)); // municipal
    expect(field(r, 214, 15)).toBe(amount15(cents("12.50"))); // internal taxes
    expect(field(r, 229, 3)).toBe("PES");
    expect(field(r, 232, 10)).toBe("0001000000");
    expect(field(r, 242, 1)).toBe("3");
    expect(field(r, 243, 1)).toBe(" ");
    expect(field(r, 244, 15)).toBe(amount15(0n));
    expect(field(r, 259, 8)).toBe("00000000");
    // Its three rate records, in the book's order of rates, right after it.
    const own = records.alicuotas.slice(0, 3);
    expect(own.map((x) => [field(x, 1, 28), field(x, 29, 15), field(x, 44, 4), field(x, 48, 15)])).toEqual(
      [
        ["21", "0005"],
        ["10.5", "0004"],
        ["27", "0006"],
      ].map(([rate, code]) => [
        `00100003${"1".padStart(20, "0")}`,
        amount15(nets[rate as keyof typeof nets]),
        code,
        amount15(vats[rate as keyof typeof vats]),
      ]),
    );
  });

  it("B to a consumer tells the VAT in its price; an unidentified one is CONSUMIDOR FINAL, 99, 0", () => {
    const [b, anon] = [records.cbte[1] as string, records.cbte[2] as string];
    expect([field(b, 9, 3), field(b, 57, 2), field(b, 59, 20)]).toEqual(["006", "96", "00000000000030123456"]);
    const bRate = records.alicuotas[3] as string;
    expect([field(bRate, 29, 15), field(bRate, 48, 15)]).toEqual([amount15(11030000n), amount15(vat(11030000n, "21"))]);
    expect([field(anon, 57, 2), field(anon, 59, 20), field(anon, 79, 30)]).toEqual([
      "99",
      "0".repeat(20),
      "CONSUMIDOR FINAL".padEnd(30),
    ]);
  });

  it("all exempt: one rate record at 0 % with nothing, operation code E", () => {
    const r = records.cbte[3] as string;
    expect([field(r, 154, 15), field(r, 242, 1), field(r, 243, 1)]).toEqual([amount15(80000n), "1", "E"]);
    const rate = records.alicuotas[5] as string;
    expect([field(rate, 29, 15), field(rate, 44, 4), field(rate, 48, 15)]).toEqual([
      amount15(0n),
      "0003",
      amount15(0n),
    ]);
  });

  it("M is 051, FCE A is 201; a dollar invoice is in pesos, its VAT that rate of its converted net", () => {
    expect(field(records.cbte[4] as string, 9, 3)).toBe("051");
    expect(field(records.cbte[5] as string, 9, 3)).toBe("201");
    const usd = records.cbte[6] as string;
    // 37.04 × 1047.123457 = 38785.452847… → 38785.45; 99.99 × 1047.123457 = 104701.874… → 104701.87.
    const net21 = 3878545n;
    const net105 = 10470187n;
    const total = net21 + vat(net21, "21") + net105 + vat(net105, "10.5");
    expect([field(usd, 109, 15), field(usd, 229, 3), field(usd, 232, 10)]).toEqual([
      amount15(total),
      "PES",
      "0001000000",
    ]);
    const [r21, r105] = records.alicuotas.filter((x) => field(x, 17, 12) === "000000000007");
    expect([field(r21 as string, 29, 15), field(r21 as string, 48, 15)]).toEqual([
      amount15(net21),
      amount15(vat(net21, "21")),
    ]);
    expect([field(r105 as string, 29, 15), field(r105 as string, 48, 15)]).toEqual([
      amount15(net105),
      amount15(vat(net105, "10.5")),
    ]);
  });

  it("an export (E, 019): operation code X, one rate record at 0 % (0003) with its net in pesos, the country's CUIT", () => {
    const e = records.cbte[9] as string;
    // 420 dollars at 1015.5: 426,510.00 pesos.
    expect([
      field(e, 9, 3),
      field(e, 57, 2),
      field(e, 59, 20),
      field(e, 109, 15),
      field(e, 242, 1),
      field(e, 243, 1),
    ]).toEqual(["019", "80", "00000000055000002207", amount15(42651000n), "1", "X"]);
    const rate = records.alicuotas.at(-1) as string;
    expect([field(rate, 1, 3), field(rate, 29, 15), field(rate, 44, 4), field(rate, 48, 15)]).toEqual([
      "019",
      amount15(42651000n),
      "0003",
      amount15(0n),
    ]);
  });

  it("notes unsigned, their type giving the sign: credit 003, debit 002", () => {
    const [nc, nd] = [records.cbte[7] as string, records.cbte[8] as string];
    expect([field(nc, 9, 3), field(nc, 109, 15)]).toEqual(["003", amount15(12100n)]);
    expect([field(nd, 9, 3), field(nd, 109, 15)]).toEqual(["002", amount15(5525n)]);
  });

  it("totals as the portal's summary shows them: a credit note subtracts", () => {
    const net21 = 100000n + 11030000n + 10000n + 100000n + 485000000n + 3878545n - 10000n;
    expect(records.totals.rates.get("21")?.net.toFixed(2)).toBe((Number(net21) / 100).toFixed(2));
    expect(records.totals.vouchers).toBe(10);
  });

  it("read back, as the portal checks them: clean", () => {
    const problems = checkLid("ventas", "CBTE", lidFile(records.cbte), "ALICUOTAS", lidFile(records.alicuotas));
    expect(problems).toEqual([]);
  });
});

describe("reading files edited by hand", () => {
  const records = lidRecords(month, "ventas");

  it("a tax that is not its rate of the net, a total that is not the sum, a count that does not match, a short line, LF ends", () => {
    const rates = [...records.alicuotas];
    // The A's 21 % tax one cent up, and its total left alone: both checks fail.
    const first = rates[0] as string;
    rates[0] = `${first.slice(0, 47)}${amount15(21001n)}`;
    const cbte = [...records.cbte];
    cbte[1] = `${(cbte[1] as string).slice(0, 241)}2${(cbte[1] as string).slice(242)}`;
    cbte[4] = (cbte[4] as string).slice(0, 265);
    const problems = checkLid("ventas", "CBTE", lidFile(cbte), "ALICUOTAS", lidFile(rates));
    expect(problems).toEqual([{ file: "CBTE", record: 5, message: "265 characters, not 266" }]);
    cbte[4] = records.cbte[4] as string;
    const again = checkLid("ventas", "CBTE", lidFile(cbte), "ALICUOTAS", lidFile(rates));
    expect(again.map((p) => [p.file, p.record, p.message])).toEqual([
      ["ALICUOTAS", 1, "for the 21 % rate the tax must be 21 % of the net (210.00), not 210.01"],
      ["CBTE", 1, "the total (2,504.00) is not the sum of the other amounts (2,504.01)"],
      ["CBTE", 2, "announces 2 rate records, 1 follow in ALICUOTAS"],
    ]);
    const lf = Buffer.from(records.cbte.map((r) => `${r}\n`).join(""), "latin1");
    expect(checkLid("ventas", "CBTE", lf, "ALICUOTAS", lidFile(records.alicuotas))[0]?.message).toMatch(/CRLF/);
  });
});

describe("the purchases files", () => {
  const bought = [
    voucher(
      "FACTURA A",
      21,
      { detalle: [item("1000", 21)], tributos: [{ tipo: 6, total: "30" }], total: "1240.00" },
      {},
      true,
    ),
    voucher("FACTURA B", 22, { detalle: [item("100", 21)], total: "121.00" }, {}, true),
    voucher("FACTURA C", 23, { detalle: [item("500", 0)], total: "500.00" }, {}, true),
  ].map(line);
  const records = lidRecords(bought, "compras");

  it("325 and 84 characters; an A's VAT is computable credit, its VAT perception in its own field; B and C tell no rates", () => {
    expect(records.refused).toEqual([]);
    for (const r of records.cbte) expect(r).toHaveLength(325);
    for (const r of records.alicuotas) expect(r).toHaveLength(84);
    const a = records.cbte[0] as string;
    expect([field(a, 105, 15), field(a, 150, 15), field(a, 238, 1), field(a, 240, 15)]).toEqual([
      amount15(124000n),
      amount15(3000n),
      "1",
      amount15(21000n),
    ]);
    expect([field(a, 270, 11), field(a, 281, 30), field(a, 311, 15)]).toEqual([
      "0".repeat(11),
      " ".repeat(30),
      amount15(0n),
    ]);
    const rate = records.alicuotas[0] as string;
    expect([
      field(rate, 29, 2),
      field(rate, 31, 20),
      field(rate, 51, 15),
      field(rate, 66, 4),
      field(rate, 70, 15),
    ]).toEqual(["80", "00000000030712293841", amount15(100000n), "0005", amount15(21000n)]);
    for (const r of records.cbte.slice(1)) expect([field(r, 238, 1), field(r, 240, 15)]).toEqual(["0", amount15(0n)]);
    expect(records.alicuotas).toHaveLength(1);
    expect(checkLid("compras", "C", lidFile(records.cbte), "A", lidFile(records.alicuotas))).toEqual([]);
  });
});

describe("text fields", () => {
  it("Latin-1 kept, other letters reduced, controls and the rest out, cut and padded", () => {
    expect(lidText("José Núñez", 12)).toBe("José Núñez  ");
    expect(lidText("Łódź\u0007 Ltd", 10)).toBe("Lódz Ltd  ");
    expect(lidText("Œuvre", 6)).toBe("Œuvre ");
    expect(lidText("a".repeat(40), 30)).toBe("a".repeat(30));
    expect(lidText("株式会社", 6)).toBe("????  ");
  });
});

describe("what the files cannot hold as it comes, left out or told (review)", () => {
  it("two suppliers' invoices with the same type, point of sale and number: both written, and read back clean", () => {
    const from = (cuit: string) =>
      voucher("FACTURA A", 1, { detalle: [item("1000", 21)], total: "1210.00" }, { documento_nro: cuit }, true);
    const records = lidRecords([from("30712293841"), from("30500010912")].map(line), "compras");
    expect(records.cbte).toHaveLength(2);
    expect(checkLid("compras", "C", lidFile(records.cbte), "A", lidFile(records.alicuotas))).toEqual([]);
  });

  it("left out, each with its reason: only a 0 % rate and nothing saying why, an export to a buyer without a CUIT, another currency without a rate, a document the design cannot hold", () => {
    const zeroOnly = voucher("FACTURA A", 31, { detalle: [item("1000", 0)], total: "1000.00" });
    const exportAnon = voucher(
      "FACTURA E",
      32,
      { moneda: "DOL", cotizacion: "1000", detalle: [item("10", 0)], total: "10.00" },
      { documento_tipo: "OTRO", documento_nro: "0", razon_social: "Buyer Ltd" },
    );
    const noRate = voucher("FACTURA A", 33, {
      moneda: "DOL",
      cotizacion: undefined,
      detalle: [item("1000", 21)],
      total: "1210.00",
    });
    const letters = voucher(
      "FACTURA B",
      34,
      { detalle: [item("100", 21)], total: "121.00" },
      { documento_tipo: "PASAPORTE", documento_nro: "AB1234567" },
    );
    const records = lidRecords([zeroOnly, exportAnon, noRate, letters].map(line), "ventas");
    expect(records.cbte).toEqual([]);
    expect(records.refused.map((r) => [r.line.numero, r.reason])).toEqual([
      [31, "operation"],
      [32, "document"],
      [33, "currency"],
      [34, "document"],
    ]);
  });

  it("a voucher the service listed twice is written once, and said", () => {
    const records = lidRecords([B, B].map(line), "ventas");
    expect(records.cbte).toHaveLength(1);
    expect(records.repeated.map((l) => l.numero)).toEqual([2]);
  });

  it("Windows-1252, not Latin-1: ’ and € are its bytes 0x92 and 0x80", () => {
    const named = voucher(
      "FACTURA B",
      40,
      { detalle: [item("100", 21)], total: "121.00" },
      {
        documento_tipo: "DNI",
        documento_nro: "30123456",
        razon_social: "O’Brien € Co",
      },
    );
    const file = lidFile(lidRecords([line(named)], "ventas").cbte);
    expect(field(file.toString("latin1"), 79, 12)).toBe("O\u0092Brien \u0080 Co");
  });

  it("--check-lid: a letter where a number goes, or a blank operation code with only the 0 % rate, is told, never a crash", () => {
    const records = lidRecords([line(Bexempt)], "ventas");
    const cbte = records.cbte[0] as string;
    const letter = `${cbte.slice(0, 120)}-${cbte.slice(121)}`;
    expect(checkLid("ventas", "C", lidFile([letter]), "A", lidFile(records.alicuotas))).toEqual([
      { file: "C", record: 1, message: 'position 121 holds "-" where the design has a number' },
    ]);
    const blank = `${cbte.slice(0, 242)} ${cbte.slice(243)}`;
    expect(checkLid("ventas", "C", lidFile([blank]), "A", lidFile(records.alicuotas))).toEqual([
      { file: "C", record: 1, message: 'with only the 0 % rate the operation code is X, E, N, Z or C, not " "' },
    ]);
  });

  it("--check-lid: each field against its table (date, voucher, document and currency codes, operation code, name)", () => {
    const records = lidRecords([line(B)], "ventas");
    const cbte = records.cbte[0] as string;
    const edit = (from: number, text: string) =>
      `${cbte.slice(0, from - 1)}${text}${cbte.slice(from - 1 + text.length)}`;
    const told = (record: string) =>
      checkLid("ventas", "C", lidFile([record]), "A", lidFile(records.alicuotas)).map((p) => p.message);
    expect(told(edit(1, "20261340"))).toEqual(["the date 20261340 is not a day of the calendar (AAAAMMDD)"]);
    // Its rate records no longer follow it either: told too.
    expect(told(edit(9, "999"))).toContain("999 is not a voucher type of the authority's table");
    expect(told(edit(57, "77"))).toEqual(["77 is not a document type of the authority's table"]);
    expect(told(edit(229, "XYZ"))).toEqual(["XYZ is not a currency of the authority's table"]);
    expect(told(edit(243, "Q"))).toEqual(['"Q" is not an operation code (X, E, N, Z, C or a space)']);
    expect(told(edit(79, "Juana\u0007"))).toEqual(["the name holds control characters"]);
    expect(told(cbte)).toEqual([]);
  });
});
