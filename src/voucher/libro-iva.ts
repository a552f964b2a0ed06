/**
 * The Libro IVA Digital import files (reference libro-iva-digital.md): one fixed-width record per
 * voucher (`_CBTE`) and one per VAT rate of it (`_ALICUOTAS`), Windows-1252, CRLF, no header.
 *
 * Written from the VAT book's lines (vat-book.ts), so the table, the CSV and the files always say
 * the same figures. Amounts are the book's: in pesos, with currency `PES` and rate 1 (a voucher in
 * another currency is converted as the book converts it: each rate's net and every other part to
 * the cent, the VAT on the converted net, the total their sum). So the two checks the portal makes
 * on import hold on every line written: the total is the sum of the other amounts, and each rate's
 * tax is that rate of its net, to the cent. A line that fails either (its own figures do not add
 * up, typically VAT rounded line by line) is not written and not "fixed": it is reported.
 */
import { type Message, msg, msgn, rateFigure } from "../i18n/message.js";
import { amount } from "./amount.js";
import { CURRENCIES, DOCUMENT_TYPE_CODES, type DocumentType, VOUCHER_TYPES, voucherTypeInfo } from "./codes.js";
import { dayNumber, formatDay } from "./dates.js";
import { Dec } from "./decimal.js";
import { BOOK_AMOUNTS, type BookAmount, type BookLine } from "./vat-book.js";

export type Book = "ventas" | "compras";

/** The four files' names, without folder; `.txt` as the portal's importer takes them. */
export function lidFileNames(book: Book): { cbte: string; alicuotas: string } {
  const kind = book === "ventas" ? "VENTAS" : "COMPRAS";
  return { cbte: `LIBRO_IVA_DIGITAL_${kind}_CBTE.txt`, alicuotas: `LIBRO_IVA_DIGITAL_${kind}_ALICUOTAS.txt` };
}

/** Record lengths of the designs. */
const RECORD_LENGTH = {
  ventas: { cbte: 266, alicuotas: 62 },
  compras: { cbte: 325, alicuotas: 84 },
} as const;

/** The authority's VAT rate codes (`0005` = 21 %). */
export const RATE_CODES: Readonly<Record<string, string>> = {
  "0": "0003",
  "10.5": "0004",
  "21": "0005",
  "27": "0006",
  "5": "0008",
  "2.5": "0009",
};
const RATE_OF_CODE = Object.fromEntries(Object.entries(RATE_CODES).map(([rate, code]) => [code, rate]));

/** Why a voucher of the book has no record in the files. */
export interface LidRefusal {
  line: BookLine;
  /**
   * `total` (the total is not the sum of the other amounts), `vat` (a rate's tax is not rate ×
   * net), `class` (class C in a sales book), `rate` (a rate the authority has no code for), `size`
   * (an amount past 13 digits), `currency` (another currency without a rate to convert it at),
   * `document` (a document number the design cannot hold, or an export's buyer without its
   * country's CUIT), `operation` (only the 0 % rate, and nothing that says why).
   */
  reason: "total" | "vat" | "class" | "rate" | "size" | "currency" | "document" | "operation";
  /** The figures of the refusal, in pesos: what the record would say and what the check computes. */
  said?: Dec;
  computed?: Dec;
  rate?: string;
}

export interface LidRecords {
  cbte: string[];
  alicuotas: string[];
  refused: LidRefusal[];
  /** Vouchers the service listed more than once (its pages shift while vouchers are issued): written once. */
  repeated: BookLine[];
  /** Totals of what was written: per rate (net, tax) and overall, as the portal's summary shows them. */
  totals: { rates: Map<string, { net: Dec; vat: Dec }>; total: Dec; vouchers: number };
}

const ZERO = Dec.ZERO;
const MAX_AMOUNT = Dec.parse("9999999999999.99");

/** `1500.00` → `000000000150000`: 13 integer digits and 2 decimals, no sign (the type gives it). */
function lidAmount(x: Dec): string {
  const cents = x.abs().toFixed(2).replace(".", "");
  return cents.padStart(15, "0");
}

/** `1` → `0001000000`: 4 integer digits and 6 decimals. */
function lidRate(x: Dec): string {
  const [whole = "0", fraction = ""] = x.abs().toFixed(6).split(".");
  return `${whole.padStart(4, "0")}${fraction}`;
}

function digits(value: string | number, width: number): string {
  return String(value).replace(/\D/g, "").slice(-width).padStart(width, "0");
}

/**
 * Text as the importer takes it: Windows-1252 characters only (accents kept, others reduced to
 * their letter, anything else `?`), no control characters, cut to `width`, spaces on the right.
 */
export function lidText(value: string, width: number): string {
  let out = "";
  for (const ch of value.replace(/\s+/g, " ").trim()) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252[ch] !== undefined) out += ch;
    else if (STROKED[ch]) out += STROKED[ch];
    else {
      const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      out += base.length === 1 && base.charCodeAt(0) >= 0x20 && base.charCodeAt(0) <= 0x7e ? base : "?";
    }
    if (out.length >= width) break;
  }
  return out.slice(0, width).padEnd(width, " ");
}

/** Letters NFD does not take apart: their letter without the stroke. */
const STROKED: Readonly<Record<string, string>> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h" };

function day(fecha: string): string {
  const d = formatDay(dayNumber(fecha));
  return `${d.slice(6)}${d.slice(3, 5)}${d.slice(0, 2)}`;
}

function documentCode(tipo: string): number {
  return DOCUMENT_TYPE_CODES[tipo.trim().toUpperCase() as DocumentType] ?? 99;
}

/** A document number as the design holds it (digits, at most 20), or undefined when it cannot. */
function documentDigits(nro: string): string | undefined {
  const plain = nro.replace(/[\s.-]/g, "");
  return /^\d{1,20}$/.test(plain) ? plain.padStart(20, "0") : undefined;
}

/** The book's amount, unsigned. */
function a(line: BookLine, k: BookAmount): Dec {
  return line.amounts[k].abs();
}

/** The rates of a line that carry a figure, as the authority codes them. */
function rateLines(line: BookLine): { rate: string; net: Dec; vat: Dec }[] {
  const rates: { rate: string; net: Dec; vat: Dec }[] = [];
  for (const [rate, net] of line.net) {
    const vat = line.vat.get(rate) ?? ZERO;
    if (!net.isZero() || !vat.isZero()) rates.push({ rate, net: net.abs(), vat: vat.abs() });
  }
  return rates;
}

/**
 * `código de operación`: a space when some rate above 0 % taxes a net; when none does, the letter
 * that says why: `X` an export, `E` exempt, `N` not taxed. Undefined when nothing says it.
 */
function operationCode(line: BookLine, cls: string | null, rates: { rate: string; net: Dec }[]): string | undefined {
  if (rates.some((r) => r.rate !== "0" && !r.net.isZero())) return " ";
  if (cls === "E") return "X";
  if (!a(line, "exentos").isZero()) return "E";
  if (!a(line, "nogravados").isZero()) return "N";
  return undefined;
}

/** The same voucher: type, point of sale, number, and for a purchase its supplier. */
function voucherKey(line: BookLine, book: Book): string {
  return `${line.tipo}|${line.punto_venta}|${line.numero}${book === "compras" ? `|${line.documento_tipo}|${line.documento_nro}` : ""}`;
}

/** Every amount of a line but its total, unsigned: what the portal adds up against it. */
function partsOf(line: BookLine, rates: { net: Dec; vat: Dec }[]): Dec {
  const others = BOOK_AMOUNTS.filter((k) => k !== "total").map((k) => a(line, k));
  return Dec.sum([...rates.map((r) => r.net.add(r.vat)), ...others]);
}

/** The records of a book's lines, in the book's order; the lines that fail a check, apart. */
export function lidRecords(lines: readonly BookLine[], book: Book): LidRecords {
  const out: LidRecords = {
    cbte: [],
    alicuotas: [],
    refused: [],
    repeated: [],
    totals: { rates: new Map(), total: ZERO, vouchers: 0 },
  };
  const seen = new Set<string>();
  for (const line of lines) {
    const key = voucherKey(line, book);
    if (seen.has(key)) {
      out.repeated.push(line);
      continue;
    }
    seen.add(key);
    const info = voucherTypeInfo(line.tipo);
    const cls = info?.class ?? null;
    // Another currency with no rate: the book converted it at 0, and nothing of it is known in pesos.
    if (line.moneda !== "PES" && !(Dec.tryParse(line.cotizacion)?.cmp(ZERO) === 1)) {
      out.refused.push({ line, reason: "currency" });
      continue;
    }
    // A registered taxpayer issues no class C voucher: it has no place in the sales book.
    if (book === "ventas" && cls === "C") {
      out.refused.push({ line, reason: "class" });
      continue;
    }
    const rates = rateLines(line);
    // A class B or C purchase discriminates no VAT: no rate records (its net and VAT are its total).
    const discriminates = book === "ventas" || cls === "A" || cls === "M";
    const unknown = rates.find((r) => RATE_CODES[r.rate] === undefined);
    if (discriminates && unknown) {
      out.refused.push({ line, reason: "rate", rate: unknown.rate });
      continue;
    }
    const total = a(line, "total");
    const parts = partsOf(line, rates);
    if (!total.eq(parts)) {
      out.refused.push({ line, reason: "total", said: total, computed: parts });
      continue;
    }
    const badVat = rates.find((r) => !r.vat.eq(r.net.mul(Dec.parse(r.rate)).shift(2).roundHalfEven(2)));
    if (discriminates && badVat) {
      out.refused.push({
        line,
        reason: "vat",
        rate: badVat.rate,
        said: badVat.vat,
        computed: badVat.net.mul(Dec.parse(badVat.rate)).shift(2).roundHalfEven(2),
      });
      continue;
    }
    if ([total, ...rates.flatMap((r) => [r.net, r.vat])].some((x) => x.cmp(MAX_AMOUNT) > 0)) {
      out.refused.push({ line, reason: "size" });
      continue;
    }
    // A voucher with no rate figure (all exempt, not taxed, or an export at 0 %) still has one
    // rate record, at 0 %, when its book discriminates VAT.
    const records = discriminates ? (rates.length > 0 ? rates : [{ rate: "0", net: ZERO, vat: ZERO }]) : [];
    const code = String(info?.code ?? 0).padStart(3, "0");
    const pv = digits(line.punto_venta, 5);
    const numero = digits(line.numero, 20);
    const docCode = documentCode(line.documento_tipo);
    const anonymous = docCode === 99;
    // An export's buyer is told by its country's CUIT (code 80), which is the answer's only when
    // the voucher named the buyer so; any other document number the design must hold whole.
    const docNumber = anonymous && cls !== "E" ? "0".repeat(20) : documentDigits(line.documento_nro);
    if (docNumber === undefined || (book === "ventas" && cls === "E" && docCode !== 80)) {
      out.refused.push({ line, reason: "document" });
      continue;
    }
    const name = lidText(anonymous && !line.razon_social.trim() ? "CONSUMIDOR FINAL" : line.razon_social, 30);
    // A purchase that discriminates no VAT tells no rates, and so no reason for a 0 % one.
    const op = discriminates ? operationCode(line, cls, rates) : " ";
    if (op === undefined) {
      out.refused.push({ line, reason: "operation" });
      continue;
    }
    // Both designs agree from the IIBB perceptions to the operation code: pesos, a rate of 1
    // (the amounts are converted already), the number of rate records.
    const agreed = [
      lidAmount(a(line, "percepciones_iibb")),
      lidAmount(a(line, "percepciones_municipales")),
      lidAmount(a(line, "impuestos_internos")),
      "PES",
      lidRate(Dec.ONE),
      String(records.length),
      op,
    ];
    if (book === "ventas") {
      out.cbte.push(
        [
          day(line.fecha),
          code,
          pv,
          numero,
          numero,
          String(docCode).padStart(2, "0"),
          docNumber,
          anonymous ? lidText("CONSUMIDOR FINAL", 30) : name,
          lidAmount(total),
          lidAmount(a(line, "nogravados")),
          lidAmount(a(line, "percepciones_no_categorizados")),
          lidAmount(a(line, "exentos")),
          // VAT is a national tax: its perceptions go with the other national ones (the sales
          // design has no field of their own for them).
          lidAmount(a(line, "percepciones_nacionales").add(a(line, "percepciones_iva"))),
          ...agreed,
          lidAmount(a(line, "otros_tributos")),
          "00000000",
        ].join(""),
      );
      for (const r of records)
        out.alicuotas.push(
          [code, pv, numero, lidAmount(r.net), RATE_CODES[r.rate] as string, lidAmount(r.vat)].join(""),
        );
    } else {
      const credit = cls === "A" || cls === "M" ? Dec.sum(records.map((r) => r.vat)) : ZERO;
      out.cbte.push(
        [
          day(line.fecha),
          code,
          pv,
          numero,
          " ".repeat(16),
          String(docCode).padStart(2, "0"),
          docNumber,
          name,
          lidAmount(total),
          lidAmount(a(line, "nogravados")),
          lidAmount(a(line, "exentos")),
          lidAmount(a(line, "percepciones_iva").add(a(line, "percepciones_no_categorizados"))),
          lidAmount(a(line, "percepciones_nacionales")),
          ...agreed,
          lidAmount(credit),
          lidAmount(a(line, "otros_tributos")),
          "0".repeat(11),
          " ".repeat(30),
          lidAmount(ZERO),
        ].join(""),
      );
      for (const r of records)
        out.alicuotas.push(
          [
            code,
            pv,
            numero,
            String(docCode).padStart(2, "0"),
            docNumber,
            lidAmount(r.net),
            RATE_CODES[r.rate] as string,
            lidAmount(r.vat),
          ].join(""),
        );
    }
    const sign = line.amounts.total.cmp(ZERO) < 0 ? Dec.ONE.neg() : Dec.ONE;
    for (const r of records) {
      const sum = out.totals.rates.get(r.rate) ?? { net: ZERO, vat: ZERO };
      out.totals.rates.set(r.rate, { net: sum.net.add(r.net.mul(sign)), vat: sum.vat.add(r.vat.mul(sign)) });
    }
    out.totals.total = out.totals.total.add(total.mul(sign));
    out.totals.vouchers++;
  }
  return out;
}

/** The characters Windows-1252 puts at 0x80–0x9F, where Latin-1 has controls. */
const CP1252: Readonly<Record<string, number>> = {
  "€": 0x80,
  "‚": 0x82,
  ƒ: 0x83,
  "„": 0x84,
  "…": 0x85,
  "†": 0x86,
  "‡": 0x87,
  ˆ: 0x88,
  "‰": 0x89,
  Š: 0x8a,
  "‹": 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "˜": 0x98,
  "™": 0x99,
  š: 0x9a,
  "›": 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** Records as the importer takes them: Windows-1252, CRLF after each. */
export function lidFile(records: readonly string[]): Buffer {
  const text = records.map((r) => `${r}\r\n`).join("");
  const bytes = Buffer.alloc(text.length);
  let i = 0;
  for (const ch of text) bytes[i++] = CP1252[ch] ?? ch.charCodeAt(0);
  return bytes.subarray(0, i);
}

// --- reading the files back (a file edited by hand is checked again before upload) ---

export interface LidProblem {
  file: string;
  /** 1-based record number, 0 for the file as a whole. */
  record: number;
  message: Message;
}

/** Where each design has text, not numbers (1-based position, width). */
const TEXT_FIELDS: Readonly<Record<Book, readonly [number, number][]>> = {
  ventas: [
    [79, 30],
    [229, 3],
    [243, 1],
  ],
  compras: [
    [37, 16],
    [75, 30],
    [225, 3],
    [239, 1],
    [281, 30],
  ],
};

const VOUCHER_CODES = new Set(
  Object.values(VOUCHER_TYPES)
    .map((info) => info.code)
    .filter((code): code is number => code !== null),
);
const DOCUMENT_CODES = new Set(Object.values(DOCUMENT_TYPE_CODES));

/** A record's fields checked against their tables: date, voucher, document and currency codes, operation code, name. */
function fieldProblems(book: Book, r: string): Message[] {
  const at = (from: number, width: number) => r.slice(from - 1, from - 1 + width);
  const problems: Message[] = [];
  const date = at(1, 8);
  const calendar = `${date.slice(6, 8)}/${date.slice(4, 6)}/${date.slice(0, 4)}`;
  if (!/^\d{2}\/\d{2}\/\d{4}$/.test(calendar) || formatDay(dayNumber(calendar)) !== calendar)
    problems.push(msg("the date {value} is not a day of the calendar (AAAAMMDD)", { value: date }));
  if (!VOUCHER_CODES.has(Number(at(9, 3))))
    problems.push(msg("{value} is not a voucher type of the authority's table", { value: at(9, 3) }));
  const document = book === "ventas" ? at(57, 2) : at(53, 2);
  if (!DOCUMENT_CODES.has(Number(document)))
    problems.push(msg("{value} is not a document type of the authority's table", { value: document }));
  const currency = book === "ventas" ? at(229, 3) : at(225, 3);
  if (!(currency in CURRENCIES))
    problems.push(msg("{value} is not a currency of the authority's table", { value: currency }));
  const op = book === "ventas" ? at(243, 1) : at(239, 1);
  if (!" XENZC".includes(op))
    problems.push(msg("{value} is not an operation code (X, E, N, Z, C or a space)", { value: JSON.stringify(op) }));
  const name = book === "ventas" ? at(79, 30) : at(75, 30);
  if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    problems.push(msg("the name holds control characters"));
  return problems;
}

const amountAt = (r: string, from: number) =>
  Dec.parse(`${r.slice(from - 1, from + 12)}.${r.slice(from + 12, from + 14)}`);

/**
 * The four files' checks as the portal makes them: record lengths, encoding and line ends, the
 * number of rate records each voucher announces, each rate's tax = rate × net, and each total =
 * the sum of the other amounts. Returns the problems found (none: the files are clean).
 */
export function checkLid(
  book: Book,
  cbteName: string,
  cbte: Buffer,
  alicuotasName: string,
  alicuotas: Buffer,
): LidProblem[] {
  const problems: LidProblem[] = [];
  const lengths = RECORD_LENGTH[book];
  const records = (name: string, data: Buffer, length: number): string[] => {
    const text = data.toString("latin1");
    if (text.length > 0 && !text.endsWith("\r\n"))
      problems.push({ file: name, record: 0, message: msg("the last record does not end in CRLF") });
    const list = text.split("\r\n");
    if (list.at(-1) === "") list.pop();
    list.forEach((r, i) => {
      if (r.includes("\n"))
        problems.push({ file: name, record: i + 1, message: msg("a line ends in LF alone, not CRLF") });
      else if (r.length !== length)
        problems.push({
          file: name,
          record: i + 1,
          message: msg("{n} characters, not {length}", { n: r.length, length }),
        });
    });
    return list;
  };
  const vouchers = records(cbteName, cbte, lengths.cbte);
  const rates = records(alicuotasName, alicuotas, lengths.alicuotas);
  if (problems.length > 0) return problems;
  // Fields that are numbers hold digits only: a record with any other is told and not read further.
  const texts = TEXT_FIELDS[book];
  const numeric = (name: string, r: string, i: number, textAt: readonly [number, number][]) => {
    for (let p = 0; p < r.length; p++) {
      if (textAt.some(([from, width]) => p + 1 >= from && p + 1 < from + width)) continue;
      if (r.charCodeAt(p) < 0x30 || r.charCodeAt(p) > 0x39) {
        problems.push({
          file: name,
          record: i + 1,
          message: msg("position {position} holds {value} where the design has a number", {
            position: p + 1,
            value: JSON.stringify(r.charAt(p)),
          }),
        });
        return false;
      }
    }
    return true;
  };
  const readableRates = new Set(rates.filter((r, i) => numeric(alicuotasName, r, i, [])));
  // Each voucher's rate records follow in the same order: tipo, punto de venta, número (and, in
  // purchases, the seller: two suppliers' vouchers may share type, point of sale and number).
  let next = 0;
  vouchers.forEach((r, i) => {
    const key = book === "ventas" ? r.slice(8, 36) : `${r.slice(8, 36)}${r.slice(52, 74)}`;
    const rateKey = (x: string) => (book === "ventas" ? x.slice(0, 28) : x.slice(0, 50));
    const own: string[] = [];
    while (next < rates.length && rateKey(rates[next] as string) === key && own.length < 9)
      own.push(rates[next++] as string);
    if (!numeric(cbteName, r, i, texts) || own.some((x) => !readableRates.has(x))) return;
    for (const message of fieldProblems(book, r)) problems.push({ file: cbteName, record: i + 1, message });
    const count = Number(r.charAt(book === "ventas" ? 241 : 237));
    if (own.length !== count)
      problems.push({
        file: cbteName,
        record: i + 1,
        message: msgn(
          count,
          "announces {count} rate record, {n} follow in {file}",
          "announces {count} rate records, {n} follow in {file}",
          {
            count,
            n: own.length,
            file: alicuotasName,
          },
        ),
      });
    // Only the 0 % rate: the operation code says why (X, E, N, Z, C), never a space.
    const op = r.charAt(book === "ventas" ? 242 : 238);
    const onlyZero =
      own.length > 0 && own.every((x) => x.slice(book === "ventas" ? 43 : 65, book === "ventas" ? 47 : 69) === "0003");
    if (onlyZero && !"XENZC".includes(op.trim() || "?"))
      problems.push({
        file: cbteName,
        record: i + 1,
        message: msg("with only the 0 % rate the operation code is X, E, N, Z or C, not {op}", {
          op: JSON.stringify(op),
        }),
      });
    let parts = ZERO;
    for (const a of own) {
      const netAt = book === "ventas" ? 29 : 51;
      const net = amountAt(a, netAt);
      const code = a.slice(netAt + 14, netAt + 18);
      const tax = amountAt(a, netAt + 19);
      const rate = RATE_OF_CODE[code];
      if (rate === undefined)
        problems.push({
          file: alicuotasName,
          record: rates.indexOf(a) + 1,
          message: msg("unknown rate code {code}", { code }),
        });
      else {
        const due = net.mul(Dec.parse(rate)).shift(2).roundHalfEven(2);
        if (!due.eq(tax))
          problems.push({
            file: alicuotasName,
            record: rates.indexOf(a) + 1,
            message: msg("for the {rate} % rate the tax must be {rate} % of the net ({due}), not {tax}", {
              rate: rateFigure(rate),
              due: amount(due),
              tax: amount(tax),
            }),
          });
      }
      parts = parts.add(net).add(tax);
    }
    // The other amounts: ventas fields 10–16 and 21; compras 10–16 and 22.
    const starts =
      book === "ventas" ? [124, 139, 154, 169, 184, 199, 214, 244] : [120, 135, 150, 165, 180, 195, 210, 255];
    for (const from of starts) parts = parts.add(amountAt(r, from));
    const total = amountAt(r, book === "ventas" ? 109 : 105);
    // A class B or C purchase tells no rates: its net and VAT are inside its total, unchecked.
    if ((book === "ventas" || count > 0) && !total.eq(parts))
      problems.push({
        file: cbteName,
        record: i + 1,
        message: msg("the total ({total}) is not the sum of the other amounts ({parts})", {
          total: amount(total),
          parts: amount(parts),
        }),
      });
  });
  if (next < rates.length)
    problems.push({
      file: alicuotasName,
      record: next + 1,
      message: msg("a rate record of no voucher (or out of order)"),
    });
  return problems;
}
