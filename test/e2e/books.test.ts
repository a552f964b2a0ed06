/**
 * Date-range listings (`query --from D --to D`) and the VAT book (`vat-book`), end to end against
 * the embedded sandbox; and the figures its `consulta` answers carry (reference §6.9) that the book
 * is made of. The book's expected figures are worked out here, from the sample files, with integer
 * cents: none of the code under test is used to compute them.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshUser, inTerminal, ndjson, ROOT, runCli, TODAY } from "../helpers.js";
import { type Loopback, serveLoopback } from "../loopback.js";

const SAMPLES = join(ROOT, "samples");
const ENTER = "\r";

function user(prefix = "facturar-books-") {
  const { cwd, env } = freshUser(prefix);
  const run = (args: string[], extra: Record<string, string> = {}) => runCli(args, { cwd, env: { ...env, ...extra } });
  return { cwd, env, run };
}

// --- exact arithmetic of the test's own: bigints scaled by powers of ten ---

/** `text` × 10^scale, exactly (it must not have more decimals). */
function scaled(value: unknown, scale: number): bigint {
  const text = String(value ?? 0).trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m || (m[3] ?? "").length > scale) throw new Error(`cannot scale ${text} by 10^${scale}`);
  const units = BigInt((m[2] ?? "0") + (m[3] ?? "").padEnd(scale, "0"));
  return m[1] === "-" ? -units : units;
}

/** n / d rounded half to even (d > 0). */
function divide(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const magnitude = negative ? -n : n;
  let q = magnitude / d;
  const twice = (magnitude % d) * 2n;
  if (twice > d || (twice === d && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

function money(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const RATES = ["21", "10.5", "27", "5", "2.5", "0"];

interface Figures {
  net: Record<string, bigint>;
  vat: Record<string, bigint>;
  exentos: bigint;
  nogravados: bigint;
  percepciones_nacionales: bigint;
  percepciones_iibb: bigint;
  percepciones_iva: bigint;
  percepciones_no_categorizados: bigint;
  percepciones_municipales: bigint;
  otros_tributos: bigint;
  impuestos_internos: bigint;
  total: bigint;
  /** The voucher's total converted whole, less the book's (see vat-book's rule). */
  conversion: bigint;
  /** What the voucher's own figures leave unexplained, in pesos. */
  unexplained: bigint;
}
const AMOUNTS = [
  "exentos",
  "nogravados",
  "percepciones_nacionales",
  "percepciones_iibb",
  "percepciones_iva",
  "percepciones_no_categorizados",
  "percepciones_municipales",
  "otros_tributos",
  "impuestos_internos",
  "total",
] as const;
/** The hosted API's tributo types (api-v2 §10.6), each in its column. */
const TRIBUTO_COLUMNS: Record<string, (typeof AMOUNTS)[number]> = {
  "1": "percepciones_nacionales",
  "6": "percepciones_iva",
  "7": "percepciones_iibb",
};

function zero(): Figures {
  return {
    net: Object.fromEntries(RATES.map((r) => [r, 0n])),
    vat: Object.fromEntries(RATES.map((r) => [r, 0n])),
    exentos: 0n,
    nogravados: 0n,
    percepciones_nacionales: 0n,
    percepciones_iibb: 0n,
    percepciones_iva: 0n,
    percepciones_no_categorizados: 0n,
    percepciones_municipales: 0n,
    otros_tributos: 0n,
    impuestos_internos: 0n,
    total: 0n,
    conversion: 0n,
    unexplained: 0n,
  };
}

/** An item's net in cents: quantity × price × (100 − discount %) / 100, half to even. */
function itemCents(item: any): bigint {
  const quantity = scaled(item.cantidad, 6);
  const price = scaled(item.producto.precio_unitario_sin_iva, 6);
  const kept = 1_000_000n - scaled(item.bonificacion_porcentaje ?? 0, 4); // (100 − %) × 10^4
  return divide(quantity * price * kept, 10n ** 16n);
}

/** `amount` shared over `weights` in proportion: whole cents, the leftover cents to the largest remainders. */
function share(amount: bigint, weights: bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (amount === 0n || sum === 0n) return weights.map(() => 0n);
  const parts = weights.map((w) => (amount * w) / sum);
  let left = amount - parts.reduce((a, b) => a + b, 0n);
  const order = weights
    .map((w, i) => ({ i, rest: (amount * w) % sum }))
    .sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left === 0n) break;
    parts[i] = (parts[i] as bigint) + 1n;
    left--;
  }
  return parts;
}

/** The VAT book's line of a voucher as sent (a sample's `comprobante`), in pesos, a credit note negative. */
function expectedLine(c: any): Figures {
  const cls = String(c.tipo).slice(-1);
  const withVat = cls !== "C" && cls !== "E";
  const groups = new Map<string, bigint>();
  for (const item of c.detalle) {
    const rate = withVat ? String(Number(item.producto.alicuota)) : "0";
    groups.set(rate, (groups.get(rate) ?? 0n) + itemCents(item));
  }
  const rates = [...groups.keys()];
  const discounts = share(
    scaled(c.bonificacion ?? 0, 2),
    rates.map((r) => groups.get(r) as bigint),
  );
  const f = zero();
  rates.forEach((rate, i) => {
    const base = (groups.get(rate) as bigint) - (discounts[i] as bigint);
    if (rate === "-1") f.exentos += base;
    else if (rate === "-2") f.nogravados += base;
    else {
      f.net[rate] = (f.net[rate] ?? 0n) + base;
      f.vat[rate] = (f.vat[rate] ?? 0n) + (withVat ? divide(base * scaled(rate, 2), 10_000n) : 0n);
    }
  });
  f.exentos += scaled(c.exentos ?? 0, 2);
  for (const t of c.tributos ?? []) {
    const column = TRIBUTO_COLUMNS[String(Number(t.tipo))] ?? "otros_tributos";
    f[column] += scaled(t.total, 2);
  }
  f.impuestos_internos = scaled(c.impuestos_internos ?? 0, 2);
  f.total = scaled(c.total, 2);
  // In pesos at the voucher's cotizacion: each rate's net and every other part to the cent, the
  // VAT that rate of the converted net, the total the sum of the parts (and of what the voucher's
  // own figures leave unexplained, converted); a credit note subtracts.
  const rate = c.moneda && c.moneda !== "PES" ? scaled(c.cotizacion, 6) : 1_000_000n;
  const sign = String(c.tipo).startsWith("NOTA DE CREDITO") ? -1n : 1n;
  const pesos = (x: bigint) => divide(x * rate, 1_000_000n);
  const unexplained = f.total - parts(f);
  const whole = pesos(f.total);
  for (const r of Object.keys(f.net)) {
    const net = pesos(f.net[r] as bigint);
    f.net[r] = net;
    f.vat[r] = withVat ? divide(net * scaled(r, 2), 10_000n) : 0n;
  }
  for (const k of AMOUNTS) if (k !== "total") f[k] = pesos(f[k]);
  f.unexplained = pesos(unexplained);
  f.total = parts(f) + f.unexplained;
  f.conversion = whole - f.total;
  for (const r of Object.keys(f.net)) {
    f.net[r] = sign * (f.net[r] as bigint);
    f.vat[r] = sign * (f.vat[r] as bigint);
  }
  for (const k of AMOUNTS) f[k] = sign * f[k];
  f.conversion *= sign;
  f.unexplained *= sign;
  return f;
}

/** Every column of a line but its total. */
function parts(f: Figures): bigint {
  let sum = 0n;
  for (const r of Object.keys(f.net)) sum += (f.net[r] as bigint) + (f.vat[r] as bigint);
  for (const k of AMOUNTS) if (k !== "total") sum += f[k];
  return sum;
}

function add(into: Figures, f: Figures): void {
  for (const r of RATES) {
    into.net[r] = (into.net[r] as bigint) + (f.net[r] ?? 0n);
    into.vat[r] = (into.vat[r] as bigint) + (f.vat[r] ?? 0n);
  }
  for (const k of AMOUNTS) into[k] += f[k];
  into.conversion += f.conversion;
  into.unexplained += f.unexplained;
}

/**
 * A loopback service that lists `day` for `fecha` as `consulta_avanzada` does (no vouchers on any
 * other day), each request's body kept in `asked`; and a user whose profile points at it.
 */
async function servingDay(servers: Loopback[], fecha: string, day: unknown[], puntoVenta: string, asked: any[] = []) {
  const server = await serveLoopback((req, res, text) => {
    const body = JSON.parse(text);
    asked.push({ url: req.url, ...body });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        body.comprobante?.fecha === fecha
          ? { rta: "OK", error: "N", total: day.length, errores: [], comprobantes: day }
          : { error: "S", errores: ["No se han encontrado comprobantes."] },
      ),
    );
  });
  servers.push(server);
  const u = freshUser("facturar-books-");
  const env = {
    ...u.env,
    FACTURAR_BASE_URL: server.baseUrl,
    FACTURAR_USERTOKEN: "ut-books",
    FACTURAR_APIKEY: "1234",
    FACTURAR_APITOKEN: "at-books",
    FACTURAR_PUNTO_VENTA: puntoVenta,
  };
  return { u, env };
}

/** Figures as `vat-book --json` writes them. */
function asJson(f: Figures) {
  return {
    alicuotas: RATES.map((r) => ({ alicuota: r, neto_gravado: money(f.net[r] ?? 0n), iva: money(f.vat[r] ?? 0n) })),
    ...Object.fromEntries(AMOUNTS.map((k) => [k, money(f[k])])),
    diferencia_sin_explicar: money(f.unexplained),
    diferencia_conversion: money(f.conversion),
  };
}

/** A CSV file's rows, quotes understood. */
function csvRows(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = "";
    } else if (ch === "\n") {
      rows.push([...row, cell.replace(/\r$/, "")]);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The vouchers of samples/batch-nightly.csv: a voucher's first row has its header, every row one item. */
function batchVouchers(): any[] {
  const [head, ...rows] = csvRows(readFileSync(join(SAMPLES, "batch-nightly.csv"), "utf8"), ",");
  const columns = head as string[];
  const byRef = new Map<string, any>();
  for (const row of rows) {
    const get = (name: string) => row[columns.indexOf(name)] ?? "";
    const ref = get("comprobante.external_reference");
    if (!ref) continue;
    let c = byRef.get(ref);
    if (!c) {
      c = {
        external_reference: ref,
        tipo: get("comprobante.tipo"),
        moneda: get("comprobante.moneda") || "PES",
        cotizacion: get("comprobante.cotizacion") || "1",
        total: get("comprobante.total"),
        detalle: [],
        tributos: get("comprobante.tributos.0.tipo")
          ? [{ tipo: get("comprobante.tributos.0.tipo"), total: get("comprobante.tributos.0.total") }]
          : [],
      };
      byRef.set(ref, c);
    }
    c.detalle.push({
      cantidad: get("comprobante.detalle.cantidad"),
      bonificacion_porcentaje: get("comprobante.detalle.bonificacion_porcentaje") || "0",
      producto: {
        precio_unitario_sin_iva: get("comprobante.detalle.producto.precio_unitario_sin_iva"),
        alicuota: get("comprobante.detalle.producto.alicuota"),
      },
    });
  }
  return [...byRef.values()];
}

/** Every valid sale sample (the purchase goes in the other book), as `{file, comprobante}`. */
function saleSamples(): { file: string; comprobante: any }[] {
  return readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({
      file: join(SAMPLES, f),
      comprobante: JSON.parse(readFileSync(join(SAMPLES, f), "utf8")).comprobante,
    }))
    .filter((s) => s.comprobante.operacion !== "C");
}

describe("vat-book over a day with every sample issued", () => {
  it("matches, line by line and in its totals, the figures worked out from the sample files; a credit note subtracts", async () => {
    const u = user();
    const samples = saleSamples();
    const batch = batchVouchers();
    expect(samples.length).toBeGreaterThanOrEqual(15);
    expect(batch.length).toBeGreaterThanOrEqual(20);
    const issued = await u.run([
      "--json",
      "issue",
      "--no-pdf",
      ...samples.map((s) => s.file),
      join(SAMPLES, "batch-nightly.csv"),
    ]);
    expect(issued.code, issued.stderr).toBe(0);
    expect(ndjson(issued.stdout).every((r) => r.status === "issued")).toBe(true);

    // A whole credit note of the FACTURA B sample, made from its reference with the guided issue.
    const note = await inTerminal(
      ["issue", "--from-ref", "FB-2026-0001", "--no-pdf"],
      { cwd: u.cwd, env: { ...process.env, ...u.env, CI: "" } },
      [
        [/Which note\?/, ENTER],
        [/Customer's VAT condition/, ENTER],
        [/Customer's address/, ENTER],
        [/Customer's e-mail/, ENTER],
        [/once issued\?/, ENTER],
        [/Quantity/, ENTER],
        [/Unit price without VAT/, ENTER],
        [/Quantity/, ENTER],
        [/Unit price without VAT/, ENTER],
        [/Voucher date/, ENTER],
        [/Reference/, ENTER],
        [/Issue it\?/, ENTER],
        [/Save it as a JSON file/, ENTER],
      ],
    );
    expect(note).toMatch(/✔ NOTA DE CREDITO B 00679-00000001 .*ref FB-2026-0001-NC1 .*issued/);
    expect(note).toMatch(/EXIT=0/);

    const expected = new Map<string, Figures>();
    for (const s of samples) expected.set(s.comprobante.external_reference, expectedLine(s.comprobante));
    for (const c of batch) expected.set(c.external_reference, expectedLine(c));
    const invoiceB = samples.find((s) => s.comprobante.external_reference === "FB-2026-0001")?.comprobante;
    expected.set("FB-2026-0001-NC1", expectedLine({ ...invoiceB, tipo: "NOTA DE CREDITO B" }));
    const totals = zero();
    for (const f of expected.values()) add(totals, f);

    const r = await u.run(["--json", "vat-book", "--from", TODAY, "--to", TODAY]);
    expect(r.code, r.stderr).toBe(0);
    const book = JSON.parse(r.stdout);
    expect(book).toMatchObject({
      ok: true,
      libro: "ventas",
      desde: TODAY,
      hasta: TODAY,
      moneda: "PES",
      no_emitidos: 0,
    });
    expect(book.comprobantes).toHaveLength(expected.size);
    for (const line of book.comprobantes) {
      const want = expected.get(line.external_reference);
      expect(want, line.external_reference).toBeDefined();
      expect({ ref: line.external_reference, ...line }).toMatchObject({
        ref: line.external_reference,
        ...asJson(want as Figures),
      });
    }
    expect(book.totales).toEqual(asJson(totals));
    // The samples reach every column the book has but internal taxes and other tributos.
    for (const k of ["exentos", "nogravados", "percepciones_iibb", "percepciones_iva"] as const)
      expect(totals[k], k).not.toBe(0n);
    expect(totals.net["10.5"]).not.toBe(0n);
    expect(totals.net["27"]).not.toBe(0n);
    // The note took the invoice off: a negative line.
    const noteLine = book.comprobantes.find((l: any) => l.external_reference === "FB-2026-0001-NC1");
    expect(noteLine).toMatchObject({ tipo: "NOTA DE CREDITO B", total: "-133463.00" });
    // Lines by date, then the authority's type code, then number.
    const keys = book.comprobantes.map((l: any) => `${l.tipo}|${String(l.numero).padStart(8, "0")}`);
    expect(keys.indexOf("FACTURA A|00000001")).toBeLessThan(keys.indexOf("FACTURA A|00000002"));
    expect(keys.indexOf("FACTURA A|00000009")).toBeLessThan(keys.indexOf("FACTURA B|00000001"));

    // CSV: the same lines and a TOTAL row; with a decimal comma, `;` between fields.
    const csv = await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--csv"]);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csvRows(csv.stdout, ",").filter((row) => row.length > 1);
    const head = rows[0] as string[];
    expect(head.slice(0, 12)).toEqual([
      "fecha",
      "tipo",
      "punto_venta",
      "numero",
      "documento_tipo",
      "documento_nro",
      "razon_social",
      "moneda_comprobante",
      "cotizacion",
      "total_moneda_comprobante",
      "neto_21",
      "iva_21",
    ]);
    expect(rows).toHaveLength(expected.size + 2);
    const totalRow = rows.at(-1) as string[];
    expect(totalRow[1]).toBe("TOTAL");
    expect(totalRow[head.indexOf("total")]).toBe(money(totals.total));
    expect(totalRow[head.indexOf("iva_10.5")]).toBe(money(totals.vat["10.5"] as bigint));
    expect(totalRow[head.indexOf("percepciones_iibb")]).toBe(money(totals.percepciones_iibb));
    const usd = rows.find((row) => row[head.indexOf("moneda_comprobante")] === "DOL");
    expect(usd?.[head.indexOf("cotizacion")]).toBe("1015.5");
    const comma = await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--csv", "--decimal", "comma"]);
    const commaRows = csvRows(comma.stdout, ";").filter((row) => row.length > 1);
    expect(commaRows.at(-1)?.[head.indexOf("total")]).toBe(money(totals.total).replace(".", ","));

    // The table: one line a voucher, a rule, and the totals, in the reader's figures.
    const table = await u.run(["vat-book", "--from", TODAY, "--to", TODAY]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(expected.size + 3);
    // A dollar voucher among them: its own total and rate shown beside the pesos.
    expect(lines[0]).toMatch(
      /^date\s+type\s+number\s+document\s+name\s+in its currency\s+net 21%\s+VAT 21%\s+net 10\.5%/,
    );
    expect(table.stdout).toMatch(/USD [\d,]+\.\d\d × 1015\.5/);
    expect(lines.at(-1)).toMatch(/^TOTAL\s/);
    expect(lines.at(-1)).toContain(money(totals.total).replace(/\B(?=(\d{3})+\.)/g, ","));
    expect(table.stderr).toMatch(/credit notes negative/);
  }, 120_000);
});

describe("consulta's amounts, as reference §6.9 documents them", () => {
  it("perceptions sum their tributos, exempt and non-taxed come from the items, an item's bonificacion is an amount", async () => {
    const u = user();
    const files = ["factura-a-mixed-rates", "perceptions"].map((f) => join(SAMPLES, `${f}.json`));
    expect((await u.run(["issue", "--no-pdf", ...files])).code).toBe(0);
    const answer = async (ref: string) =>
      ndjson((await u.run(["--json", "query", "--ref", ref])).stdout)[0].comprobante;
    const sample = (name: string) => JSON.parse(readFileSync(join(SAMPLES, `${name}.json`), "utf8")).comprobante;

    const mixed = expectedLine(sample("factura-a-mixed-rates"));
    expect(mixed.exentos).toBeGreaterThan(0n);
    expect(mixed.nogravados).toBeGreaterThan(0n);
    expect(await answer("FA-2026-0001")).toMatchObject({
      exentos: Number(money(mixed.exentos)),
      nogravados: Number(money(mixed.nogravados)),
      percepciones_iibb: 0,
      percepciones_iva: 0,
    });

    const perceptions = sample("perceptions");
    const sum = (tipo: number) =>
      perceptions.tributos.filter((t: any) => t.tipo === tipo).reduce((a: number, t: any) => a + t.total, 0);
    const held = await answer(perceptions.external_reference);
    expect(held).toMatchObject({ percepciones_iibb: sum(7), percepciones_iva: sum(6) });
    expect(held.percepciones_iibb).not.toBe(held.percepciones_iva);
    expect(held.tributos.map((t: any) => t.tipo_descripcion)).toEqual(["Percepción IVA", "Percepción IIBB"]);

    const discounted = sample("factura-a-mixed-rates");
    const items = (await answer(discounted.external_reference)).detalle;
    discounted.detalle.forEach((item: any, i: number) => {
      const gross = divide(scaled(item.cantidad, 6) * scaled(item.producto.precio_unitario_sin_iva, 6), 10n ** 10n);
      const net = itemCents(item);
      expect(items[i].producto, `item ${i}`).toMatchObject({
        alicuota: item.producto.alicuota,
        bonificacion: Number(money(gross - net)),
        precio_total: Number(money(net)),
      });
    });
    expect(items.some((it: any) => it.producto.bonificacion > 0)).toBe(true);
  }, 60_000);
});

/** A copy of the FACTURA B sample under another reference, for another day's date. */
function invoiceB(ref: string, fecha: string): any {
  const raw = JSON.parse(readFileSync(join(SAMPLES, "factura-b-dni.json"), "utf8"));
  return { ...raw, comprobante: { ...raw.comprobante, external_reference: ref, fecha, vencimiento: fecha } };
}

describe("query --from D --to D", () => {
  it("lists day after day, oldest first, every page of each; filters by type and state; table, NDJSON, CSV", async () => {
    const u = user("facturar-listing-");
    const mixed = JSON.parse(readFileSync(join(SAMPLES, "factura-a-mixed-rates.json"), "utf8"));
    // Each day's vouchers issued on that day (the authority's date window counts from today).
    const days: [string, any[]][] = [
      ["18/11/2026", [invoiceB("D18-B1", "18/11/2026"), invoiceB("D18-B2", "18/11/2026")]],
      [
        "19/11/2026",
        [{ ...mixed, comprobante: { ...mixed.comprobante, external_reference: "D19-A1", fecha: "19/11/2026" } }],
      ],
      ["20/11/2026", [invoiceB("D20-B1", TODAY), invoiceB("D20-B2", TODAY), invoiceB("D20-B3", TODAY)]],
    ];
    for (const [day, vouchers] of days) {
      const file = join(u.cwd, `${day.replace(/\//g, "-")}.json`);
      writeFileSync(file, JSON.stringify(vouchers));
      const r = await u.run(["issue", "--no-pdf", file], { FACTURAR_TODAY: day });
      expect(r.code, r.stderr).toBe(0);
    }
    // Tomorrow's, queued: the queue issues it on its day.
    writeFileSync(join(u.cwd, "tomorrow.json"), JSON.stringify(invoiceB("D21-Q", "21/11/2026")));
    const queued = await u.run(["issue-queued", "tomorrow.json"]);
    expect(queued.code, queued.stderr).toBe(0);

    // Two a page: the sandbox serves fewer than asked, and every page is read.
    const listing = await u.run(["--verbose", "--json", "query", "--from", "17/11/2026", "--to", "21/11/2026"], {
      FACTURAR_SANDBOX_FAULTS: "page-size=2",
    });
    expect(listing.code, listing.stderr).toBe(0);
    const all = ndjson(listing.stdout);
    expect(all.map((v) => v.external_reference)).toEqual([
      "D18-B1",
      "D18-B2",
      "D19-A1",
      "D20-B1",
      "D20-B2",
      "D20-B3",
      "D21-Q",
    ]);
    expect(all.map((v) => v.status)).toEqual([...Array(6).fill("issued"), "queued"]);
    expect(all[0]).toMatchObject({ comprobante_nro: "00679-00000001", comprobante: { fecha: "18/11/2026" } });
    // 17/11 (none), 18/11 (one page), 19/11 (one), 20/11 (two), 21/11 (one).
    expect(listing.stderr.match(/consulta_avanzada/g)).toHaveLength(6);

    const refs = async (args: string[]) =>
      ndjson((await u.run(["--json", "query", ...args])).stdout).map((v) => v.external_reference);
    const range = ["--from", "18/11/2026", "--to", "21/11/2026"];
    expect(await refs([...range, "--type", "factura a"])).toEqual(["D19-A1"]);
    expect(await refs([...range, "--type", "FACTURA A", "--type", "FACTURA B", "--status", "queued"])).toEqual([
      "D21-Q",
    ]);
    expect(await refs([...range, "--type", "FACTURA A,FACTURA B", "--status", "issued,queued"])).toHaveLength(7);
    expect(await refs(["--date", TODAY, "--type", "FACTURA B"])).toEqual(["D20-B3", "D20-B2", "D20-B1"]);
    // Nothing matches: exit 9, and JSON says so.
    const none = await u.run(["--json", "query", ...range, "--type", "FACTURA C"]);
    expect(none.code).toBe(9);
    expect(JSON.parse(none.stdout)).toMatchObject({ ok: false, error: { code: "service.not-found" } });

    const csv = await u.run(["query", ...range, "--status", "issued", "--csv"]);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csvRows(csv.stdout, ",").filter((row) => row.length > 1);
    expect(rows[0]).toEqual([
      "fecha",
      "tipo",
      "punto_venta",
      "numero",
      "comprobante_nro",
      "documento_tipo",
      "documento_nro",
      "razon_social",
      "moneda",
      "total",
      "status",
      "estado",
      "external_reference",
      "cae",
      "pdf",
    ]);
    expect(rows.slice(1).map((row) => [row[0], row[1], row[4], row[9], row[12]])).toEqual([
      ["18/11/2026", "FACTURA B", "00679-00000001", "133463.00", "D18-B1"],
      ["18/11/2026", "FACTURA B", "00679-00000002", "133463.00", "D18-B2"],
      ["19/11/2026", "FACTURA A", "00679-00000001", "2177855.58", "D19-A1"],
      ["20/11/2026", "FACTURA B", "00679-00000003", "133463.00", "D20-B1"],
      ["20/11/2026", "FACTURA B", "00679-00000004", "133463.00", "D20-B2"],
      ["20/11/2026", "FACTURA B", "00679-00000005", "133463.00", "D20-B3"],
    ]);
    expect(csv.stderr).toMatch(/6 vouchers/);

    const table = await u.run(["query", ...range]);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^type\s+number\s+date\s+customer\s+total\s+status\s+reference$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).at(-1))).toEqual([
      "D18-B1",
      "D18-B2",
      "D19-A1",
      "D20-B1",
      "D20-B2",
      "D20-B3",
      "D21-Q",
    ]);

    // The book of those days leaves the queued one out, and says so.
    const book = await u.run(["--json", "vat-book", ...range]);
    expect(JSON.parse(book.stdout)).toMatchObject({
      no_emitidos: 1,
      totales: { total: money(5n * 13346300n + 217785558n) },
    });
    const told = await u.run(["vat-book", ...range]);
    expect(told.stderr).toMatch(/1 voucher queued or failed in the queue left out/);
  }, 120_000);

  it("reads a day of more than 1000 vouchers whole: two pages of the service's 1000", async () => {
    const u = user("facturar-listing-");
    const many = Array.from({ length: 1003 }, (_, i) => invoiceB(`BIG-${String(i).padStart(4, "0")}`, TODAY));
    writeFileSync(join(u.cwd, "many.json"), JSON.stringify(many));
    const issued = await u.run(["issue", "--no-pdf", "many.json"]);
    expect(issued.code, issued.stderr).toBe(0);
    const listing = await u.run(["--verbose", "--json", "query", "--from", TODAY, "--to", TODAY]);
    expect(listing.code, listing.stderr).toBe(0);
    const refs = ndjson(listing.stdout).map((v) => v.external_reference);
    expect(refs).toEqual(many.map((v) => v.comprobante.external_reference));
    expect(listing.stderr.match(/consulta_avanzada/g)).toHaveLength(2);
    const book = JSON.parse((await u.run(["--json", "vat-book", "--from", TODAY, "--to", TODAY])).stdout);
    expect(book.comprobantes).toHaveLength(1003);
    expect(book.totales.total).toBe(money(1003n * 13346300n));
  }, 180_000);

  it("refuses what it cannot read: a date and a number, a backward range, more than a year, a bad state (exit 2)", async () => {
    const u = user("facturar-listing-");
    const cases: [string[], RegExp][] = [
      [["query", "--from", "1", "--to", "20/11/2026"], /two dates \(a date range\) or two numbers with --type/],
      [["query", "--type", "FACTURA B", "--from", "18/11/2026", "--to", "5"], /not one of each/],
      [["query", "--from", "21/11/2026", "--to", "20/11/2026"], /--from 21\/11\/2026 is after --to 20\/11\/2026/],
      [["query", "--from", "01/01/2025", "--to", "20/11/2026"], /covers 689 days; one run reads at most 366/],
      [["query", "--from", "20/11/2026"], /a date range needs --from D and --to D/],
      [["query", "--from", "31/02/2026", "--to", "20/11/2026"], /--from takes a date dd\/mm\/yyyy/],
      [
        ["query", "--from", "18/11/2026", "--to", "20/11/2026", "--status", "sent"],
        /--status takes issued, queued or queue-error/,
      ],
      [
        ["query", "--from", "18/11/2026", "--to", "20/11/2026", "--type", "FACTURA Z"],
        /--type takes a voucher type .*, not "FACTURA Z"/,
      ],
      [["query", "--type", "FACTURA A,FACTURA B", "--from", "1", "--to", "5"], /take one --type/],
      [["query", "--ref", "X", "--status", "issued"], /--status goes with --date/],
      [["--json", "query", "--date", TODAY, "--csv"], /--csv and --json/],
      [["vat-book", "--from", "20/11/2026"], /--to/],
      [["vat-book", "--from", "20/11/2026", "--to", "19/11/2026"], /is after --to/],
      [["vat-book", "--from", "20/11/2026", "--to", "20/11/2026", "--decimal", "comma"], /--decimal goes with --csv/],
    ];
    for (const [args, message] of cases) {
      const r = await u.run(args);
      expect(r.code, args.join(" ")).toBe(2);
      // With --json the error is a JSON document on stdout.
      expect(r.stderr + r.stdout, args.join(" ")).toMatch(message);
    }
  }, 60_000);
});

describe("vat-book of vouchers in dollars whose converted parts round apart", () => {
  const servers: Loopback[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  it("holds the portal's two identities on every line and in the totals: total = sum of parts, VAT = rate × net, to the cent", async () => {
    const item = (cantidad: number, precio: string, alicuota: number) => ({
      cantidad,
      producto: { descripcion: "Servicio", precio_unitario: precio, alicuota, precio_total: precio },
    });
    const sale = (comprobante: Record<string, unknown>): any => ({
      cliente: { documento_tipo: "CUIT", documento_nro: "30712293841", razon_social: "Cliente SA" },
      comprobante: {
        fecha: TODAY,
        moneda: "DOL",
        punto_venta: 679,
        bonificacion: 0,
        exentos: "0",
        nogravados: "0",
        impuestos_internos: "0",
        tributos: [],
        status: "EMITIDO",
        ...comprobante,
      },
    });
    // Each: its items' nets, VAT per rate as the voucher's currency rounds it, and a total that adds up there.
    const day = [
      sale({
        tipo: "FACTURA A",
        numero: 1,
        external_reference: "USD-1",
        cotizacion: "1047.123457",
        detalle: [item(1, "37.04", 21), item(1, "99.99", 10.5)],
        tributos: [
          { tipo: 7, regimen: 5, base_imponible: "137.03", alicuota: "0.9", total: "1.23" },
          { tipo: 1, regimen: 33, base_imponible: "137.03", alicuota: "0.56", total: "0.77" },
        ],
        exentos: "5.55",
        total: "162.86",
      }),
      sale({
        tipo: "FACTURA A",
        numero: 2,
        external_reference: "USD-2",
        cotizacion: "999.995",
        // 0.15 of nets; VAT 0.0147, 0.0135 and 0.00315 round to 0.01, 0.01 and 0.00 in dollars.
        detalle: [item(1, "0.07", 21), item(1, "0.05", 27), item(1, "0.03", 10.5)],
        total: "0.17",
      }),
      sale({
        tipo: "NOTA DE CREDITO A",
        numero: 3,
        external_reference: "USD-3",
        cotizacion: "1015.555555",
        detalle: [item(1, "12.35", 21)],
        total: "14.94",
      }),
    ];
    const { u, env } = await servingDay(servers, TODAY, day, "679");
    const r = await runCli(["--json", "vat-book", "--from", TODAY, "--to", TODAY], { cwd: u.cwd, env });
    expect(r.code, r.stderr).toBe(0);
    const book = JSON.parse(r.stdout);
    const cents = (x: string) => scaled(x, 2);
    const identities = (f: any, what: string) => {
      let sum = 0n;
      for (const { alicuota, neto_gravado, iva } of f.alicuotas) {
        sum += cents(neto_gravado) + cents(iva);
        expect(cents(iva), `${what} VAT ${alicuota}%`).toBe(divide(cents(neto_gravado) * scaled(alicuota, 2), 10_000n));
      }
      for (const k of AMOUNTS) if (k !== "total") sum += cents(f[k]);
      sum += cents(f.diferencia_sin_explicar);
      expect(cents(f.total), `${what} total`).toBe(sum);
    };
    expect(book.comprobantes).toHaveLength(3);
    let roundsApart = 0;
    for (const line of book.comprobantes) {
      const sent = day.find((d) => d.comprobante.external_reference === line.external_reference)?.comprobante as any;
      const want = expectedLine({
        ...sent,
        detalle: sent.detalle.map((i: any) => ({
          cantidad: i.cantidad,
          producto: { precio_unitario_sin_iva: i.producto.precio_unitario, alicuota: i.producto.alicuota },
        })),
      });
      expect({ ref: line.external_reference, ...line }).toMatchObject({
        ref: line.external_reference,
        ...asJson(want),
      });
      identities(line, line.external_reference);
      // What converting the voucher's own VAT would have given: a different figure here.
      const rate = scaled(sent.cotizacion, 6);
      const whole = divide(cents(sent.total) * rate, 1_000_000n);
      if (want.conversion !== 0n) roundsApart++;
      expect(cents(line.diferencia_conversion)).toBe(want.conversion);
      expect(cents(line.total) + cents(line.diferencia_conversion)).toBe(
        String(sent.tipo).startsWith("NOTA DE CREDITO") ? -whole : whole,
      );
      expect(line.total_moneda_comprobante).toBe(
        String(sent.tipo).startsWith("NOTA DE CREDITO") ? `-${sent.total}` : sent.total,
      );
    }
    // The case is real: converting each part rounds the book's total away from the voucher's.
    expect(roundsApart).toBeGreaterThan(0);
    identities(book.totales, "totals");
    // The national perception (tributo type 1) in its own column, not "other tributos".
    expect(book.comprobantes[0]).toMatchObject({ percepciones_nacionales: "806.29", otros_tributos: "0.00" });
  }, 60_000);
});

describe("vat-book --purchases, against a service that answers as the reference shows", () => {
  const servers: Loopback[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  it('asks each day for operacion "C", books what is issued, in pesos, a credit note negative, and flags a line that does not add up', async () => {
    const asked: any[] = [];
    const item = (cantidad: number, precio: number, alicuota: number) => ({
      cantidad,
      producto: { descripcion: "Insumo", precio_unitario: precio, alicuota, precio_total: cantidad * precio },
    });
    const voucher = (comprobante: Record<string, unknown>) => ({
      cliente: { documento_tipo: "CUIT", documento_nro: "30712293841 ", razon_social: "Proveedor SA " },
      comprobante: {
        fecha: "19/11/2026",
        moneda: "PES",
        cotizacion: 1,
        operacion: "C",
        punto_venta: 2,
        bonificacion: 0,
        percepciones_iibb: "0",
        percepciones_iva: "0",
        exentos: "0",
        nogravados: 0,
        impuestos_internos: "0",
        tributos: [],
        status: "EMITIDO",
        ...comprobante,
      },
    });
    // Newest first, as the service lists a day.
    const day = [
      voucher({ tipo: "FACTURA B", numero: 7, external_reference: "C-3", detalle: [item(1, 100, 21)], total: 200 }),
      voucher({
        tipo: "NOTA DE CREDITO A",
        numero: 4,
        external_reference: "C-2",
        moneda: "DOL",
        cotizacion: 1000.5,
        detalle: [item(1, 10, 21)],
        total: 12.1,
      }),
      voucher({ tipo: "FACTURA A", numero: 0, external_reference: "C-Q", status: "ENVIADO A PROCESAR", total: 5 }),
      voucher({ tipo: "PRESUPUESTO", numero: 1, external_reference: "C-P", detalle: [item(1, 1, 21)], total: 1.21 }),
      voucher({
        tipo: "FACTURA A",
        numero: 12,
        external_reference: "C-1",
        detalle: [item(2, 1000, 21), item(1, 500, 10.5)],
        tributos: [{ tipo: 7, regimen: 5, base_imponible: 2500, alicuota: 2, total: 50 }],
        percepciones_iibb: "50.00",
        exentos: "100",
        total: "3122.50 ",
      }),
    ];
    const { u, env } = await servingDay(servers, "19/11/2026", day, "2", asked);
    const r = await runCli(["--json", "vat-book", "--purchases", "--from", "18/11/2026", "--to", "20/11/2026"], {
      cwd: u.cwd,
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(asked.map((b) => [b.url, b.busqueda_tipo, b.comprobante.fecha, b.comprobante.operacion])).toEqual(
      ["18/11/2026", "19/11/2026", "20/11/2026"].map((d) => ["/app/api/v2/facturacion/consulta_avanzada", "F", d, "C"]),
    );
    const book = JSON.parse(r.stdout);
    expect(book).toMatchObject({ libro: "compras", no_emitidos: 1 });
    const rates = (net21: string, vat21: string, net105 = "0.00", vat105 = "0.00") =>
      RATES.map((alicuota) => ({
        alicuota,
        neto_gravado: alicuota === "21" ? net21 : alicuota === "10.5" ? net105 : "0.00",
        iva: alicuota === "21" ? vat21 : alicuota === "10.5" ? vat105 : "0.00",
      }));
    // By type code: FACTURA A (1), NOTA DE CREDITO A (3), FACTURA B (6); the quote and the queued one left out.
    expect(book.comprobantes).toEqual([
      expect.objectContaining({
        tipo: "FACTURA A",
        comprobante_nro: "00002-00000012",
        razon_social: "Proveedor SA",
        documento_nro: "30712293841",
        alicuotas: rates("2000.00", "420.00", "500.00", "52.50"),
        exentos: "100.00",
        percepciones_iibb: "50.00",
        total: "3122.50",
      }),
      expect.objectContaining({
        tipo: "NOTA DE CREDITO A",
        moneda_comprobante: "DOL",
        cotizacion: "1000.5",
        alicuotas: rates("-10005.00", "-2101.05"),
        total: "-12106.05",
      }),
      expect.objectContaining({ tipo: "FACTURA B", alicuotas: rates("100.00", "21.00"), total: "200.00" }),
    ]);
    expect(book.totales).toMatchObject({
      alicuotas: rates("-7905.00", "-1660.05", "500.00", "52.50"),
      exentos: "100.00",
      percepciones_iibb: "50.00",
      total: "-8783.55",
    });
    // The FACTURA B's columns make 121.00 of its 200.00: the book says so.
    expect(r.stderr).toMatch(/FACTURA B 00002-00000007: its columns add up to 79\.00 less than its total \(PES\)/);
    expect(r.stderr).not.toMatch(/FACTURA A 00002-00000012/);
  }, 60_000);
});

describe("vat-book --lid: the Libro IVA Digital files, and --check-lid", () => {
  it("writes the two files of a day, checks them back, never replaces them unasked, and tells an edited one's problem", async () => {
    const u = user("facturar-lid-");
    const files = ["factura-a-mixed-rates.json", "factura-b-dni.json", "usd-invoice.json", "factura-c.json"];
    const issued = await u.run(["issue", "--no-pdf", ...files.map((f) => join(SAMPLES, f))]);
    expect(issued.code, issued.stderr).toBe(0);
    const dir = join(u.cwd, "libro");
    const r = await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--lid", dir]);
    // The FACTURA C has no place in a registered taxpayer's book: left out, said, exit 7.
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/left out: FACTURA C 00679-00000001 \(20\/11\/2026\): a class C voucher has no place/);
    expect(r.stdout).toMatch(/LIBRO_IVA_DIGITAL_VENTAS_CBTE\.txt {2}3 vouchers/);
    expect(r.stdout).toMatch(/VAT 21 % +net +[\d,.]+ +tax +[\d,.]+/);
    const cbte = readFileSync(join(dir, "LIBRO_IVA_DIGITAL_VENTAS_CBTE.txt"));
    const rates = readFileSync(join(dir, "LIBRO_IVA_DIGITAL_VENTAS_ALICUOTAS.txt"));
    const records = cbte.toString("latin1").split("\r\n");
    expect(records.pop()).toBe("");
    expect(records.map((x) => x.length)).toEqual([266, 266, 266]);
    for (const x of rates.toString("latin1").split("\r\n").slice(0, -1)) expect(x).toHaveLength(62);
    // The B's customer in Latin-1: é is one byte.
    expect(cbte.includes(Buffer.from("Juana P\xe9rez", "latin1"))).toBe(true);
    expect((await u.run(["vat-book", "--check-lid", dir])).code).toBe(0);

    // Not replaced without --force, and untouched; with it, replaced.
    const again = await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--lid", dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/LIBRO_IVA_DIGITAL_VENTAS_CBTE\.txt exists already/);
    expect(readFileSync(join(dir, "LIBRO_IVA_DIGITAL_VENTAS_CBTE.txt"))).toEqual(cbte);
    const json = await u.run(["--json", "vat-book", "--from", TODAY, "--to", TODAY, "--lid", dir, "--force"]);
    expect(json.code).toBe(7);
    const told = JSON.parse(json.stdout);
    expect(told).toMatchObject({ ok: false, libro: "ventas", comprobantes: 3 });
    expect(told.excluidos).toEqual([expect.objectContaining({ tipo: "FACTURA C", motivo: "class" })]);
    expect(told.totales.alicuotas.map((a: { alicuota: string }) => a.alicuota)).toContain("21");

    // A tax edited by hand, one cent off: the record and what it should say.
    const edited = rates.toString("latin1").split("\r\n");
    const first = edited[0] as string;
    const cents = BigInt(first.slice(47, 62)) + 1n;
    edited[0] = `${first.slice(0, 47)}${cents.toString().padStart(15, "0")}`;
    writeFileSync(join(dir, "LIBRO_IVA_DIGITAL_VENTAS_ALICUOTAS.txt"), Buffer.from(edited.join("\r\n"), "latin1"));
    const checked = await u.run(["vat-book", "--check-lid", dir]);
    expect(checked.code).toBe(3);
    expect(checked.stdout).toMatch(
      /LIBRO_IVA_DIGITAL_VENTAS_ALICUOTAS\.txt:1: for the \d+(\.5)? % rate the tax must be/,
    );
    expect(checked.stdout).toMatch(/LIBRO_IVA_DIGITAL_VENTAS_CBTE\.txt:1: the total/);
    // Usage mistakes: --force alone, --lid with --csv.
    expect((await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--force"])).code).toBe(2);
    expect((await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--lid", dir, "--csv"])).code).toBe(2);
  }, 120_000);
});

describe("the README's Libro IVA Digital example", () => {
  it("prints what the README shows, and --check-lid passes the files", async () => {
    const u = user("facturar-lid-readme-");
    const samples = ["factura-a-mixed-rates.json", "factura-b-dni.json", "perceptions.json"];
    expect((await u.run(["issue", "--no-pdf", ...samples.map((f) => join(SAMPLES, f))])).code).toBe(0);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const shown =
      /\$ npx facturar vat-book --from 20\/11\/2026 --to 20\/11\/2026 --lid libro-2026-11\n([\s\S]*?)\n\$ /.exec(
        readme,
      )?.[1];
    expect(shown).toBeDefined();
    const r = await u.run(["vat-book", "--from", TODAY, "--to", TODAY, "--lid", "libro-2026-11"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().replaceAll(u.cwd, "/home/ana/work")).toBe(shown);
    const checked = await u.run(["vat-book", "--check-lid", "libro-2026-11"]);
    expect(checked.code).toBe(0);
    expect(checked.stderr).toMatch(/as the portal takes them/);
  }, 60_000);
});
