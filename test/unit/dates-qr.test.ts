/**
 * The small pieces of the voucher format: calendar days (Argentina's clock, UTC−3 all year), the
 * exchange-rate band of tax-rules §4.9 and the QR of RG 4892/2020 (tax-rules §1).
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import {
  addDays,
  argentinaToday,
  clockFrom,
  dayNumber,
  formatDay,
  monthNumber,
  TEST_CLOCK,
  toIsoDate,
} from "../../src/voucher/dates.js";
import { Dec } from "../../src/voucher/decimal.js";
import { inRateBand, rateBand } from "../../src/voucher/exchange.js";
import { decodeQr, QR_BASE_URL, type QrData, qrUrl } from "../../src/voucher/qr.js";

describe("calendar days", () => {
  it("counts days since 1970-01-01 and writes them back as dd/mm/yyyy", () => {
    expect(dayNumber("01/01/1970")).toBe(0);
    expect(dayNumber("02/01/1970")).toBe(1);
    expect(dayNumber("01/03/2024") - dayNumber("28/02/2024")).toBe(2); // a leap year
    expect(formatDay(0)).toBe("01/01/1970");
    expect(formatDay(dayNumber("09/07/2026"))).toBe("09/07/2026");
    expect(formatDay(dayNumber("31/12/2999"))).toBe("31/12/2999");
  });

  it("gives the same day number however often a date is asked, past the cache's size", () => {
    const first = dayNumber("20/11/2026");
    for (let i = 0; i < 10_050; i++) dayNumber(formatDay(i));
    expect(dayNumber("20/11/2026")).toBe(first);
    expect(dayNumber("05/01/1970")).toBe(4);
  });

  it("adds days across months and years", () => {
    expect(addDays("20/11/2026", 30)).toBe("20/12/2026");
    expect(addDays("31/12/2026", 1)).toBe("01/01/2027");
    expect(addDays("01/03/2026", -1)).toBe("28/02/2026");
  });

  it("is in Argentina: three hours behind UTC", () => {
    const day = dayNumber("21/11/2026");
    expect(argentinaToday(new Date("2026-11-21T02:59:59Z"))).toBe(day - 1);
    expect(argentinaToday(new Date("2026-11-21T03:00:00Z"))).toBe(day);
    expect(argentinaToday(new Date("2026-11-22T02:59:59Z"))).toBe(day);
  });

  it("numbers months of dd/mm/yyyy and mm/yyyy dates alike", () => {
    expect(monthNumber("15/03/2026")).toBe(2026 * 12 + 2);
    expect(monthNumber("03/2026")).toBe(monthNumber("01/03/2026"));
    expect(monthNumber("01/01/2027") - monthNumber("31/12/2026")).toBe(1);
  });

  it("writes the QR's ISO date", () => {
    expect(toIsoDate("05/11/2026")).toBe("2026-11-05");
  });
});

describe("the test clock", () => {
  it("is the system's without FACTURAR_TODAY, or with it blank", () => {
    for (const env of [{}, { [TEST_CLOCK]: "  " }]) {
      const before = Date.now();
      const now = clockFrom(env)().getTime();
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
    }
  });

  it("moves to the day asked by whole days, the time of day running on", () => {
    const clock = clockFrom({ [TEST_CLOCK]: " 03/02/2027 " });
    const now = clock();
    expect(argentinaToday(now)).toBe(dayNumber("03/02/2027"));
    const shift = now.getTime() - Date.now();
    const drift = shift - Math.round(shift / 86_400_000) * 86_400_000;
    expect(Math.abs(drift)).toBeLessThan(1000);
  });

  it("refuses anything but a real dd/mm/yyyy date", () => {
    for (const wanted of ["2027-02-03", "3/2/2027", "31/02/2027", "03/02/2027x", "x03/02/2027"]) {
      expect(() => clockFrom({ [TEST_CLOCK]: wanted })).toThrow(UsageError);
    }
    expect(() => clockFrom({ [TEST_CLOCK]: "31/02/2027" })).toThrow(
      `${TEST_CLOCK} takes a date dd/mm/yyyy, not "31/02/2027"`,
    );
  });
});

describe("the exchange-rate band", () => {
  it("runs from 2 % to 400 % of the authority's rate, both ends included", () => {
    const rate = Dec.parse("1000");
    const { min, max } = rateBand(rate);
    expect([min.toFixed(2), max.toFixed(2)]).toEqual(["20.00", "4000.00"]);
    expect(inRateBand(Dec.parse("20"), rate)).toBe(true);
    expect(inRateBand(Dec.parse("19.99"), rate)).toBe(false);
    expect(inRateBand(Dec.parse("4000"), rate)).toBe(true);
    expect(inRateBand(Dec.parse("4000.01"), rate)).toBe(false);
    expect(inRateBand(Dec.parse("1050.5"), rate)).toBe(true);
  });
});

describe("the voucher QR", () => {
  const data: QrData = {
    ver: 1,
    fecha: "2026-11-20",
    cuit: 30712345678,
    ptoVta: 3,
    tipoCmp: 1,
    nroCmp: 17,
    importe: 0.1 + 0.2,
    moneda: "DOL",
    ctz: 1000.1234567,
    tipoDocRec: 80,
    nroDocRec: 20111111112,
    tipoCodAut: "E",
    codAut: 76123456789012,
  };
  const json = (url: string) =>
    Buffer.from(decodeURIComponent(url.slice(url.indexOf("?p=") + 3)), "base64").toString("utf8");

  it("carries the spec's fields in the spec's order, amounts rounded", () => {
    const url = qrUrl(data);
    // The address RG 4892/2020 gives, written out: a test against the constant would pass any address.
    expect(url.startsWith("https://www.afip.gob.ar/fe/qr/?p=")).toBe(true);
    expect(json(url)).toBe(
      '{"ver":1,"fecha":"2026-11-20","cuit":30712345678,"ptoVta":3,"tipoCmp":1,"nroCmp":17,"importe":0.3,' +
        '"moneda":"DOL","ctz":1000.123457,"tipoDocRec":80,"nroDocRec":20111111112,"tipoCodAut":"E","codAut":76123456789012}',
    );
    expect(decodeQr(url)).toEqual({ ...data, importe: 0.3, ctz: 1000.123457 });
  });

  it("leaves out the receiver when there is none, and writes a long document number as a number", () => {
    const { tipoDocRec: _t, nroDocRec: _n, ...anonymous } = data;
    expect(json(qrUrl(anonymous))).not.toContain("DocRec");
    const long = json(qrUrl({ ...data, nroDocRec: "12345678901234567890" }));
    expect(long).toContain('"nroDocRec":12345678901234567890,"tipoCodAut"');
  });

  it("reads back only QR URLs of version 1", () => {
    const url = qrUrl(data);
    expect(decodeQr(`  ${url}\n`)?.cuit).toBe(30712345678);
    expect(decodeQr(url.replace("?p=", "?q="))).toBeUndefined();
    const other = Buffer.from(JSON.stringify({ ...data, ver: 2 })).toString("base64");
    expect(decodeQr(`${QR_BASE_URL}?p=${other}`)).toBeUndefined();
    expect(decodeQr(`${QR_BASE_URL}?p=${Buffer.from("null").toString("base64")}`)).toBeUndefined();
    expect(decodeQr(`${QR_BASE_URL}?p=${Buffer.from("{nope").toString("base64")}`)).toBeUndefined();
    expect(decodeQr(`${QR_BASE_URL}?p=%E0%A4%A`)).toBeUndefined();
    // The parameter alone, without the address before it, reads the same.
    expect(decodeQr(url.slice(url.indexOf("?p=")))).toEqual(decodeQr(url));
    expect(decodeQr(url.slice(url.indexOf("?p=")))?.nroCmp).toBe(17);
    // Without its `?p=`, the payload is not read, even where what follows decodes.
    const payload = url.slice(url.indexOf("?p=") + 3);
    expect(decodeQr(`p=${payload}`)).toBeUndefined();
  });
});
