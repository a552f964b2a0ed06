/** `facturar sandbox` over real HTTP: every method, every error shape, the queue, persistence and faults. */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { argentinaToday, clockFrom, formatDay } from "../../src/voucher/dates.js";
import { decodeQr } from "../../src/voucher/qr.js";
import { escapeEnvelope } from "../../src/voucher/text.js";
import { DEFAULTED, validateEnvelope } from "../../src/voucher/validate.js";
import { ROOT, runCli } from "../helpers.js";
import { pdfText } from "../pdf-text.js";
import { type RunningSandbox, startSandboxProcess, tempDir } from "../sandbox-process.js";

const NOW = { now: new Date("2026-11-20T15:00:00Z") };

/** A sample voucher as the CLI would send it: validated, normalised, escaped, for point of sale `pv`. */
function wire(sample: string, pv: number, change: (c: any) => void = () => {}): Record<string, any> {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", `${sample}.json`), "utf8"));
  change(raw);
  const result = validateEnvelope(raw, NOW);
  if (!result.envelope) throw new Error(JSON.stringify(result.findings));
  const { $schema: _, [DEFAULTED]: _d, ...env } = escapeEnvelope(result.envelope) as any;
  env.comprobante.punto_venta = pv;
  return env;
}

/** Today as the sandboxes the tests start see it (FACTURAR_TODAY, see vitest.config.ts). */
function today(): string {
  return formatDay(argentinaToday(clockFrom(process.env)()));
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("facturar sandbox", () => {
  let sbx: RunningSandbox;
  let pv: number;

  beforeAll(async () => {
    sbx = await startSandboxProcess();
    pv = sbx.pointsOfSale[0]?.punto_venta ?? 0;
  });
  afterAll(async () => {
    expect(await sbx.stop()).toBe(0);
  });

  it("prints its base URL and two fictitious points of sale with their three credentials", () => {
    expect(sbx.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/api\/v2$/);
    expect(sbx.pointsOfSale).toHaveLength(2);
    for (const p of sbx.pointsOfSale) {
      expect(p.usertoken).toMatch(/^[0-9a-f]{32}$/);
      expect(p.apikey).toMatch(/^\d+$/);
      expect(p.apitoken).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it("issues instantly with the service's reply shape and quirks", async () => {
    const { status, body } = await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      error: "N",
      errores: [""],
      cae: "",
      vencimiento_cae: "",
      requiere_fec: "NO ",
      // The sample leaves its dates out: dated today (20/11/2026 here), due that day.
      vencimiento_pago: "20/11/2026",
      external_reference: "FB-2026-0001",
      comprobante_tipo: "FACTURA B",
      envio_x_mail: "N",
      micrositios: { cliente: "", descarga: "" },
    });
    expect(body.comprobante_nro).toMatch(/^\d{7}$/);
    expect(body.rta).toMatch(/^El comprobante FACTURA B \d{4}-\d{8} \(Juana Pérez\) se ha guardado correctamente$/);
    expect(body.afip_qr.endsWith(" ")).toBe(true);
    const qr = decodeQr(body.afip_qr);
    expect(qr).toMatchObject({
      ver: 1,
      fecha: "2026-11-20",
      ptoVta: pv,
      tipoCmp: 6,
      importe: 133463,
      moneda: "PES",
      ctz: 1,
      tipoDocRec: 96,
      nroDocRec: 30123456,
      tipoCodAut: "E",
    });
    expect(qr?.nroCmp).toBe(Number(body.comprobante_nro));
  });

  it("serves the PDF and the ticket behind the links: customer, items and total", async () => {
    const { body } = await sbx.call("facturacion/nuevo", wire("factura-a-mixed-rates", pv));
    const pdf = Buffer.from(await (await fetch(body.comprobante_pdf_url)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(pdf);
    for (const expected of [
      "FACTURA A",
      "COD. 001",
      "Distribuidora del Sur SA",
      "30712293841",
      "Notebook 14 pulgadas",
      "Bebida energizante 27%",
      "1.499,999",
      // Rates as es-AR writes them: the development sandbox's PDF is Spanish.
      "Neto gravado 10,5 %",
      "IVA 10,5 %",
      "2.177.855,58",
      "CAE: desarrollo: sin CAE",
      "SIN VALIDEZ FISCAL",
    ]) {
      expect(text).toContain(expected);
    }
    const ticket = Buffer.from(await (await fetch(body.comprobante_ticket_url)).arrayBuffer());
    expect(pdfText(ticket)).toContain("TOTAL $ 2.177.855,58");
  });

  it("prints the transparency block for consumers, and the legends for M and for A to a small taxpayer", async () => {
    const b = await sbx.call("facturacion/nuevo", wire("factura-b-anonymous", pv));
    expect(pdfText(Buffer.from(await (await fetch(b.body.comprobante_pdf_url)).arrayBuffer()))).toContain(
      "IVA Contenido: $ 10.059,00",
    );
    const m = await sbx.call("facturacion/nuevo", wire("factura-m", pv));
    expect(pdfText(Buffer.from(await (await fetch(m.body.comprobante_pdf_url)).arrayBuffer()))).toContain(
      "OPERACIÓN SUJETA A RETENCIÓN",
    );
    const small = await sbx.call(
      "facturacion/nuevo",
      wire("factura-m", pv, (raw) => {
        raw.comprobante.tipo = "FACTURA A";
        raw.cliente = {
          ...raw.cliente,
          documento_nro: "20123456786",
          condicion_iva: "M",
          condicion_iva_operacion: "M",
        };
      }),
    );
    expect(pdfText(Buffer.from(await (await fetch(small.body.comprobante_pdf_url)).arrayBuffer()))).toContain(
      "Ley Nº 27.618",
    );
  });

  it("prints the small-taxpayer legend once when leyenda_gral repeats it (sent past the client's rule), with the rest of leyenda_gral", async () => {
    const legend =
      "El crédito fiscal discriminado en el presente comprobante, sólo podrá ser computado a efectos del Régimen de Sostenimiento e Inclusión Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618";
    const small = await sbx.call(
      "facturacion/nuevo",
      wire("factura-m", pv, (raw) => {
        raw.comprobante.tipo = "FACTURA A";
        raw.comprobante.external_reference = "FA-LEGEND-TWICE";
        raw.comprobante.leyenda_gral = `Entrega en 48 horas. ${legend}`;
        raw.cliente = {
          ...raw.cliente,
          documento_nro: "20123456786",
          condicion_iva: "M",
          condicion_iva_operacion: "M",
        };
      }),
    );
    expect(small.body.error, JSON.stringify(small.body)).toBe("N");
    const text = pdfText(Buffer.from(await (await fetch(small.body.comprobante_pdf_url)).arrayBuffer()));
    expect(text.match(/27\.618/g)).toHaveLength(1);
    expect(text).toContain("Entrega en 48 horas.");
  });

  it("numbers per point of sale and type, and validates an explicit number", async () => {
    // Other tests of this sandbox may have issued FACTURA C at this point of sale already.
    const next = await sbx.call("facturacion/numeracion", {
      comprobante: { tipo: "FACTURA C", operacion: "V", punto_venta: String(pv) },
    });
    const n = next.body.comprobante.numero as number;
    expect(next.body).toEqual({
      error: "N",
      errores: [""],
      rta: "OK",
      comprobante: { tipo: "FACTURA C", operacion: "V", punto_venta: pv, numero: n },
    });
    const first = await sbx.call("facturacion/nuevo", wire("factura-c", pv));
    const second = await sbx.call(
      "facturacion/nuevo",
      wire("factura-c", pv, (r) => (r.comprobante.numero = n + 1)),
    );
    const seven = (k: number) => String(k).padStart(7, "0");
    expect([first.body.comprobante_nro, second.body.comprobante_nro]).toEqual([seven(n), seven(n + 1)]);
    const wrong = await sbx.call(
      "facturacion/nuevo",
      wire("factura-c", pv, (r) => (r.comprobante.numero = n + 9)),
    );
    expect(wrong.body).toMatchObject({
      error: "S",
      errores: [`El numero de comprobante ${n + 9} no es el proximo a emitir: el proximo es ${n + 2}.`],
    });
    // The other point of sale, which no other test uses, starts at 1.
    const other = sbx.pointsOfSale[1] as (typeof sbx.pointsOfSale)[number];
    const otherNext = await sbx.call(
      "facturacion/numeracion",
      { comprobante: { tipo: "FACTURA C", operacion: "V", punto_venta: String(other.punto_venta) } },
      other,
    );
    expect(otherNext.body.comprobante.numero).toBe(1);
    const elsewhere = await sbx.call("facturacion/nuevo", wire("factura-c", other.punto_venta), other);
    expect(elsewhere.body.comprobante_nro).toBe("0000001");
  });

  it("takes an export note's vouchers in fex.comprobantes_asociados, and like production refuses what the authority refuses", async () => {
    // The authority's WSFEX checks are production's: the development plan skips them (spec §1).
    const strict = await startSandboxProcess({ args: ["--fault", "authority-checks"] });
    const spv = strict.pointsOfSale[0]?.punto_venta ?? 0;
    const note = (change: (r: any) => void) =>
      wire("nota-de-credito-e", pv, (r) => {
        r.comprobante.external_reference = `NCE-SBX-${Math.random().toString(36).slice(2, 8)}`;
        change(r);
      });
    const services = (r: any) => {
      r.comprobante.periodo_facturado_desde = "01/10/2026";
      r.comprobante.periodo_facturado_hasta = "31/10/2026";
      r.comprobante.fex = {
        tipo_exportacion: 2,
        pais_comprobante_id: 212,
        comprobantes_asociados: r.comprobante.fex.comprobantes_asociados,
      };
    };
    const issued = await sbx.call("facturacion/nuevo", note(services));
    expect(issued.body, JSON.stringify(issued.body)).toMatchObject({
      error: "N",
      comprobante_tipo: "NOTA DE CREDITO E",
    });
    const at = (p: number) => (body: any) => ({ ...body, comprobante: { ...body.comprobante, punto_venta: p } });
    const bare = note((r) => {
      services(r);
      delete r.comprobante.fex.comprobantes_asociados;
    });
    const wrong = note((r) => (r.comprobante.fex.comprobantes_asociados[0].tipo_comprobante = "FACTURA B"));
    const invoice = wire("factura-e-services", pv, (r) => {
      r.comprobante.external_reference = "FE-SBX-ASOC";
      r.comprobante.fex.comprobantes_asociados = [
        { tipo_comprobante: "FACTURA E", punto_venta: 3, numero: 1, cuit: "30555555551" },
      ];
    });
    try {
      const refusals = [
        [bare, /2047 .*Cmps_asoc es de caracter obligatorio/],
        [wrong, /1680/],
        [invoice, /1755/],
      ] as const;
      for (const [body, refusal] of refusals) {
        const refused = await strict.call("facturacion/nuevo", at(spv)(body));
        expect(refused.body.error, JSON.stringify(refused.body)).toBe("S");
        expect(refused.body.errores.join(" ")).toMatch(refusal);
        // The development plan takes them: the authority's checks are not applied there.
        const taken = await sbx.call("facturacion/nuevo", body);
        expect(taken.body.error, JSON.stringify(taken.body)).toBe("N");
      }
    } finally {
      await strict.stop();
    }
  });

  it("answers the service's errors in the service's shape", async () => {
    const tfc = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (r) =>
        Object.assign(r.cliente, { documento_tipo: "CUIT", documento_nro: "30712293841", condicion_iva: "RI" }),
      ),
    );
    expect(tfc.body).toMatchObject({
      error: "S",
      external_reference: "FB-2026-0001",
      error_cod: [],
      error_details: [{ code: "TFC-8004" }],
    });
    expect(tfc.body.errores[0]).toMatch(/no permite emitir un comprobante tipo B/);
    const missing = await sbx.call("facturacion/nuevo", {
      cliente: {},
      comprobante: { tipo: "FACTURA B", punto_venta: pv },
    });
    expect(missing.body.error).toBe("S");
    expect(missing.body.errores).toContain("El campo rubro es obligatorio.");
    const many = wire("factura-b-dni", pv);
    many.comprobante.detalle = Array.from({ length: 131 }, () => many.comprobante.detalle[0]);
    expect((await sbx.call("facturacion/nuevo", many)).body.errores).toContain(
      "El comprobante tiene 131 items; el maximo es 130.",
    );
    const otherPv = await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv + 1));
    expect(otherPv.body.errores[0]).toMatch(/no corresponde a las credenciales/);
    // An associated voucher's issuer CUIT that is no CUIT (the vendor's note examples send 13 ones)
    // is the authority's to refuse (10151): test/e2e/production-rules.test.ts.
    const percent = wire("factura-b-dni", pv);
    percent.comprobante.detalle[0].producto.descripcion = "Descuento 10%";
    expect((await sbx.call("facturacion/nuevo", percent)).body.errores[0]).toMatch(/#&#/);
  });

  it("refuses bad or missing credentials (401/403), other verbs (405), unknown methods (404), broken JSON (400)", async () => {
    const [first] = sbx.pointsOfSale;
    const bad = await sbx.call("facturacion/topecf", {}, { ...(first as NonNullable<typeof first>), apitoken: "nope" });
    expect(bad).toMatchObject({ status: 403, body: { error: "S" } });
    const none = await fetch(`${sbx.baseUrl}/facturacion/topecf`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: string }).error).toBe("S");
    expect((await fetch(`${sbx.baseUrl}/facturacion/nuevo`)).status).toBe(405);
    expect((await sbx.call("facturacion/inventado")).status).toBe(404);
    expect((await fetch(`${sbx.baseUrl}/facturacion/nuevo`, { method: "POST", body: "{not json" })).status).toBe(400);
  });

  it("answers the query methods", async () => {
    // Two FACTURA C of its own, numbered one after the other (other tests share this sandbox).
    const c1 = Number((await sbx.call("facturacion/nuevo", wire("factura-c", pv))).body.comprobante_nro);
    const c2 = Number((await sbx.call("facturacion/nuevo", wire("factura-c", pv))).body.comprobante_nro);
    expect(c2).toBe(c1 + 1);
    const issued = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "12345")),
    );
    const numero = Number(issued.body.comprobante_nro);
    const one = await sbx.call("facturacion/consulta", {
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: String(pv), numero: String(numero) },
    });
    expect(one.body).toMatchObject({ error: "N", errores: [""], rta: "OK", cliente: { documento_nro: "30123456 " } });
    expect(one.body.comprobante).toMatchObject({
      punto_venta: pv,
      numero,
      status: "EMITIDO",
      external_reference: 12345,
      total: 133463,
    });
    expect(one.body.comprobante.detalle[0].producto).toMatchObject({ precio_unitario: 95000, precio_total: 95000 });
    const byRef = await sbx.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: "12345", operacion: "V" },
    });
    expect(byRef.body).toMatchObject({ rta: "OK", error: "N", total: 1, errores: [] });
    const byDate = await sbx.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "F",
      pagina: 0,
      limite: 2,
      comprobante: { fecha: "20/11/2026", operacion: "V" },
    });
    expect(byDate.body.comprobantes).toHaveLength(2);
    expect(byDate.body.total).toBeGreaterThan(2);
    const numbers = byDate.body.comprobantes.map((c: any) => c.comprobante.numero);
    const page2 = await sbx.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "F",
      pagina: 1,
      limite: 2,
      comprobante: { fecha: "20/11/2026" },
    });
    expect(page2.body.comprobantes[0].comprobante).not.toEqual(byDate.body.comprobantes[0].comprobante);
    expect(numbers).toHaveLength(2);
    const range = await sbx.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "TN",
      comprobante: {
        tipo: "FACTURA C",
        operacion: "V",
        punto_venta: "00679".replace("679", String(pv)),
        numero_desde: String(c1).padStart(8, "0"),
        numero_hasta: String(c2).padStart(8, "0"),
      },
    });
    expect(range.body.comprobantes.map((c: any) => c.comprobante.numero)).toEqual([c2, c1]);
    expect(
      (
        await sbx.call("facturacion/consulta_avanzada", {
          busqueda_tipo: "F",
          limite: 1001,
          comprobante: { fecha: "20/11/2026" },
        })
      ).body.error,
    ).toBe("S");
    expect(
      (await sbx.call("facturacion/consulta", { comprobante: { tipo: "FACTURA B", punto_venta: pv, numero: 99999 } }))
        .body.error,
    ).toBe("S");
  });

  it("answers requiere_fec, topecf and the service status", async () => {
    expect((await sbx.call("facturacion/requiere_fec", { cuit: 30500010912, fecha: "2026-11-20" })).body).toMatchObject(
      {
        error: "S",
        errores: ["El campo fecha debe tener el formato dd/mm/aaaa."],
      },
    );
    expect((await sbx.call("facturacion/requiere_fec", { cuit: 30500010912, fecha: "20/11/2026" })).body).toEqual({
      error: "N",
      errores: [],
      rta: "",
      esta_obligado: "S",
      importe_desde: 5549862,
    });
    expect((await sbx.call("facturacion/requiere_fec", { cuit: "20111111112" })).body.esta_obligado).toBe("N");
    expect((await sbx.call("facturacion/requiere_fec", { cuit: "20111111113" })).body).toMatchObject({
      error: "S",
      errores: ["El CUIT enviado 20111111113 es invalido."],
    });
    expect((await sbx.call("facturacion/topecf")).body).toEqual({ error: "N", errores: [], monto: 10000000 });
    expect((await sbx.call("estado_servicios/alertas")).body).toMatchObject({
      error: "N",
      errores: [""],
      rta: "OK",
      facturacion: "OK",
    });
  });

  it("regenerates PDF links", async () => {
    const issued = await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv));
    const again = await sbx.call("facturacion/regenerar_pdf", {
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: pv, numero: Number(issued.body.comprobante_nro) },
    });
    expect(again.body.error).toBe("N");
    expect(again.body.comprobante_pdf_url).not.toBe(issued.body.comprobante_pdf_url);
    expect((await fetch(again.body.comprobante_pdf_url)).status).toBe(200);
    expect((await fetch(`${sbx.baseUrl}/comprobantes/pdf/0123456789abcdef.pdf`)).status).toBe(404);
  });

  it("issues in batches with lotes, refusing mixed types without processing any", async () => {
    const a = wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "LOTE-1"));
    const b = wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "LOTE-2"));
    const ok = await sbx.call("facturacion/lotes", { requests: [a, b] });
    expect(ok.body.error).toBe("N");
    expect(ok.body.response).toHaveLength(2);
    const [n1, n2] = ok.body.response.map((r: any) => r.comprobante_nro);
    expect(n1).toMatch(new RegExp(`^${String(pv).padStart(5, "0")}-\\d{8}$`));
    expect(Number(n2.split("-")[1])).toBe(Number(n1.split("-")[1]) + 1);
    const mixed = await sbx.call("facturacion/lotes", { requests: [a, wire("factura-c", pv)] });
    expect(mixed.body).toMatchObject({
      error: "S",
      errores: ["El comprobante enviado en la fila 1 (comenzando en 0) tiene un tipo de comprobante diferente."],
      response: [],
    });
    expect(
      (await sbx.call("facturacion/lotes", { requests: Array.from({ length: 21 }, () => a) })).body.errores[0],
    ).toMatch(/limite permitido es 20/);
  });

  it("lotes and lotes_encola without requests, or with requests that are not vouchers: refused, nothing processed", async () => {
    for (const method of ["facturacion/lotes", "facturacion/lotes_encola"]) {
      for (const body of [{}, { requests: [] }, { requests: "no" }])
        expect((await sbx.call(method, body)).body, `${method} ${JSON.stringify(body)}`).toMatchObject({
          error: "S",
          errores: ["Debe enviar requests: un array de comprobantes."],
          response: [],
        });
      // An answer like any refusal, never an internal error.
      for (const requests of [[null], [1, 2]]) {
        const r = await sbx.call(method, { requests });
        expect(r.status, `${method} ${JSON.stringify(requests)}`).toBe(200);
        expect(r.body.error).toBe("S");
      }
    }
    expect((await sbx.call("facturacion/lotes", { requests: [null] })).body.errores).toContain(
      "Fila 0 (comenzando en 0): Debe enviar el bloque comprobante.",
    );
  });

  it("a purchase (operacion C) in a lotes batch is recorded, found by its number, refused when sent again; with payments it cannot be deleted", async () => {
    const buy = wire("purchase-proveedor", pv, (r) => {
      Object.assign(r.comprobante, {
        fecha: today(),
        vencimiento: today(),
        numero: 77,
        external_reference: "LOTE-COMPRA-1",
        pagos: { formas_pago: [{ descripcion: "Transferencia", importe: 1000 }], total: 1000 },
      });
    });
    // A purchase carries the supplier's point of sale, not the account's.
    buy.comprobante.punto_venta = 15;
    const ok = await sbx.call("facturacion/lotes", { requests: [buy] });
    expect(ok.body.error, JSON.stringify(ok.body)).toBe("N");
    expect(ok.body.response).toEqual([
      expect.objectContaining({
        error: "N",
        errores: [],
        rta: expect.stringMatching(/^El comprobante FACTURA A .*se ha guardado correctamente$/),
      }),
    ]);
    const found = await sbx.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "TN",
      comprobante: { tipo: "FACTURA A", operacion: "C", punto_venta: 15, numero_desde: 77, numero_hasta: 77 },
    });
    expect(found.body.comprobantes.map((c: any) => [c.comprobante.tipo, c.comprobante.numero])).toEqual([
      ["FACTURA A", 77],
    ]);
    // The same supplier's voucher again: that item refused, and the batch with it.
    const again = await sbx.call("facturacion/lotes", { requests: [buy] });
    expect(again.body.error).toBe("S");
    expect(again.body.response[0]).toMatchObject({
      error: "S",
      errores: [expect.stringMatching(/^El comprobante de compra FACTURA A .* ya fue ingresado\.$/)],
    });
    const deleted = await sbx.call("facturacion/comprobante_eliminar", {
      comprobante: { tipo: "FACTURA A", operacion: "C", punto_venta: 15, numero: 77 },
    });
    expect(deleted.body).toMatchObject({
      error: "S",
      errores: ["El comprobante tiene pagos relacionados: no es posible eliminarlo."],
    });
  });
});

// A sandbox per test: each one's queue is its own, whatever order they run in.
describe("the queue", () => {
  let sbx: RunningSandbox;
  let pv: number;
  beforeEach(async () => {
    sbx = await startSandboxProcess();
    pv = sbx.pointsOfSale[0]?.punto_venta ?? 0;
  });
  afterEach(async () => {
    await sbx.stop();
  });

  const status = async (reference: string) => {
    const r = await sbx.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: reference },
    });
    return r.body.comprobantes[0]?.comprobante;
  };

  it("queues, then issues once the date has come; blocks instant issuing meanwhile", async () => {
    const queued = wire("factura-b-dni", pv, (r) => {
      r.comprobante.external_reference = "COLA-1";
      r.comprobante.fecha = today();
      r.comprobante.vencimiento = "31/12/2099";
      r.comprobante.numero = 0;
    });
    const future = wire("factura-b-dni", pv, (r) => {
      r.comprobante.external_reference = "COLA-FUTURA";
      r.comprobante.fecha = "01/01/2099";
      r.comprobante.vencimiento = "31/12/2099";
    });
    const accepted = await sbx.call("facturacion/nuevo_encola", queued);
    expect(accepted.body).toMatchObject({
      error: "N",
      errores: [],
      error_cod: [],
      error_details: [],
      external_reference: "COLA-1",
      requiere_fec: "NO",
      tfc_generacion_tipo: 6,
      rta: "El comprobante  se ha guardado correctamente ",
      cae: " ",
      vencimiento_cae: "01/01/2000",
      comprobante_nro: `${String(pv).padStart(5, "0")}-00000000`,
      comprobante_pdf_url: "",
    });
    await sbx.call("facturacion/nuevo_encola", future);
    const blocked = await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv));
    expect(blocked.body.errores[0]).toMatch(/comprobantes encolados.*nuevo_encola/);
    const issued = await until(async () => {
      const c = await status("COLA-1");
      return c?.status === "EMITIDO" ? c : undefined;
    });
    expect(issued.numero).toBeGreaterThan(0);
    expect(issued.comprobante_pdf_url).toMatch(/\.pdf$/);
    const waiting = await until(async () => {
      const c = await status("COLA-FUTURA");
      return c?.status?.startsWith("APROBADO") ? c : undefined;
    });
    expect(waiting.status).toBe("APROBADO Y EN COLA. SE EMITE EL 01/01/2099");
  });

  it("refuses export and FCE vouchers, numbers other than 0 and a missing reference", async () => {
    expect((await sbx.call("facturacion/nuevo_encola", wire("factura-e-services", pv))).body.errores[0]).toMatch(
      /no se puede encolar/,
    );
    expect(
      (
        await sbx.call(
          "facturacion/nuevo_encola",
          wire("factura-b-dni", pv, (r) => (r.comprobante.numero = 5)),
        )
      ).body.errores[0],
    ).toMatch(/debe ser 0/);
    const noRef = wire("factura-b-dni", pv);
    delete noRef.comprobante.external_reference;
    expect((await sbx.call("facturacion/nuevo_encola", noRef)).body).toMatchObject({
      error: "S",
      error_details: [{ code: "TFC-8002" }],
    });
  });

  it("changes a queued voucher's date, and deletes queued vouchers", async () => {
    // One due today (issued by the queue) and one due in 2099.
    for (const [ref, fecha] of [
      ["COLA-1", today()],
      ["COLA-FUTURA", "01/01/2099"],
    ] as const) {
      const queued = wire("factura-b-dni", pv, (r) => {
        r.comprobante.external_reference = ref;
        r.comprobante.fecha = fecha;
        r.comprobante.vencimiento = "31/12/2099";
      });
      expect((await sbx.call("facturacion/nuevo_encola", queued)).body.error).toBe("N");
    }
    await until(async () => ((await status("COLA-1"))?.status === "EMITIDO" ? true : undefined));
    expect(
      (
        await sbx.call("facturacion/cambiar_fecha_encolado", {
          external_reference: "COLA-FUTURA",
          fecha: "02/01/2099",
          vencimiento: "31/12/2099",
        })
      ).body,
    ).toEqual({ error: "N", errores: [] });
    expect((await status("COLA-FUTURA")).fecha).toBe("02/01/2099");
    const deleted = await sbx.call("facturacion/eliminar_encolado", { external_reference: "COLA-FUTURA" });
    expect(deleted.body).toEqual({
      error: "N",
      errores: [],
      procesados_cant: 1,
      procesados: [`El comprobante FACTURA B ${String(pv).padStart(5, "0")}-00000000 se ha eliminado correctamente. `],
    });
    expect(await status("COLA-FUTURA")).toBeUndefined();
    expect((await sbx.call("facturacion/eliminar_encolado", { external_reference: "COLA-1" })).body.error).toBe("S"); // already issued
    expect(
      (await sbx.call("facturacion/cambiar_fecha_encolado", { external_reference: "NADA", fecha: "01/01/2099" })).body,
    ).toMatchObject({ error: "S", errores: ["No se han encontrado comprobantes."] });
    // The queue is empty again: instant issuing works.
    expect((await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv))).body.error).toBe("N");
  });

  it("takes queued batches of up to 100 with lotes_encola, accepting the valid part", async () => {
    const good = wire("factura-b-dni", pv, (r) => {
      r.comprobante.external_reference = "LE-1";
      r.comprobante.fecha = "01/01/2099";
      r.comprobante.vencimiento = "31/12/2099";
    });
    const bad = wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "LE-2"));
    bad.comprobante.numero = 7;
    const r = await sbx.call("facturacion/lotes_encola", { requests: [good, bad] });
    expect(r.body.error).toBe("S");
    expect(r.body.errores[0]).toMatch(/enviaron a procesar: 2.*aceptaron procesar: 1/);
    expect(r.body.response.map((x: any) => x.error)).toEqual(["N", "S"]);
    expect(r.body.response[0].tfc_generacion_tipo).toBe(3);
    expect(
      (await sbx.call("facturacion/lotes_encola", { requests: Array.from({ length: 101 }, () => good) })).body
        .errores[0],
    ).toMatch(/limite permitido es 100/);
    await sbx.call("facturacion/eliminar_encolado", { external_reference: "LE-1" });
  });
});

describe("persistence", () => {
  it("keeps vouchers and numbering across a restart, and across SIGKILL after an answer", async () => {
    const dataDir = tempDir();
    const first = await startSandboxProcess({ dataDir });
    const pv = first.pointsOfSale[0]?.punto_venta ?? 0;
    const a = await first.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "PERSIST-1")),
    );
    expect(await first.stop()).toBe(0);
    const second = await startSandboxProcess({ dataDir });
    expect(second.pointsOfSale).toEqual(first.pointsOfSale);
    const found = await second.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: "PERSIST-1" },
    });
    expect(found.body.total).toBe(1);
    const b = await second.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "PERSIST-2")),
    );
    expect(Number(b.body.comprobante_nro)).toBe(Number(a.body.comprobante_nro) + 1);
    // An answered voucher is on disk: killing the process at once loses nothing.
    second.child.kill("SIGKILL");
    await second.stop();
    const third = await startSandboxProcess({ dataDir });
    const again = await third.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: "PERSIST-2" },
    });
    expect(again.body.total).toBe(1);
    expect(
      (await third.call("facturacion/numeracion", { comprobante: { tipo: "FACTURA B", punto_venta: pv } })).body
        .comprobante.numero,
    ).toBe(Number(b.body.comprobante_nro) + 1);
    await third.stop();
  });

  it("refuses a webhook for a point of sale it does not have: a typo, said before serving", async () => {
    const dataDir = tempDir();
    const r = await runCli(["sandbox", "--port", "0", "--data-dir", dataDir, "--webhook", "681=https://x.example/h"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--webhook names point of sale 681, which this sandbox does not have \(it has 679, 680\)/);
    expect(r.stdout).not.toMatch(/base URL/);
    // One it has is taken.
    const ok = await startSandboxProcess({ dataDir, args: ["--webhook", "680=https://x.example/h"] });
    await ok.stop();
  });

  it("refuses a second sandbox on the same data folder", async () => {
    const dataDir = tempDir();
    const first = await startSandboxProcess({ dataDir });
    const second = await runCli(["sandbox", "--port", "0", "--data-dir", dataDir]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/in use by process/);
    await first.stop();
  });

  it("answers the authority's exchange rate (one request of the quota), and refuses a voucher outside 2-400 % of it", async () => {
    // Like production: the rate band is the authority's check, which the development plan skips.
    const sbx = await startSandboxProcess({
      args: ["--quota", "10", "--fault", "authority-checks"],
      env: { FACTURAR_SANDBOX_RATES: "DOL=1200,060=1300.5" },
    });
    const pv = sbx.pointsOfSale[0]?.punto_venta ?? 0;
    const rate = async (body: Record<string, unknown>) => (await sbx.call("tablas_referencia/cotizacion", body)).body;
    // Dollars by default; the rates set for the sandbox, the defaults for the others.
    expect(await rate({})).toEqual({ error: "N", errores: [""], cotizacion: "1200.00" });
    expect(await rate({ moneda: "060", fecha: today() })).toEqual({ error: "N", errores: [""], cotizacion: "1300.50" });
    expect((await rate({ moneda: "012" })).cotizacion).toBe("180.00");
    expect(await rate({ fecha: "01/01/2020" })).toMatchObject({
      error: "S",
      errores: [expect.stringMatching(/2 meses/)],
    });
    expect(await rate({ fecha: "01/01/2099" })).toMatchObject({
      error: "S",
      errores: [expect.stringMatching(/futura/)],
    });
    expect(await rate({ moneda: "XYZ" })).toMatchObject({ error: "S", errores: [expect.stringMatching(/XYZ/)] });
    // As the authority: 10 pesos a dollar is below 2 % of 1200 (24); 1015.5 is within.
    const absurd = await sbx.call(
      "facturacion/nuevo",
      wire("usd-invoice", pv, (r) => {
        r.comprobante.cotizacion = 10;
        r.comprobante.external_reference = "USD-ABSURD";
      }),
    );
    expect(absurd.body).toMatchObject({
      error: "S",
      errores: [
        expect.stringMatching(
          /10119 - El campo MonCotiz \(10\) debe estar comprendido entre el 2% y el 400%.*\(1200\.00\)/,
        ),
      ],
      error_details: [{ code: "TFC-6661" }],
    });
    expect((await sbx.call("facturacion/nuevo", wire("usd-invoice", pv))).body.error).toBe("N");
    // Queued, it is accepted, and the authority refuses it when the queue gets to it.
    const queued = wire("usd-invoice", pv, (r) => {
      r.comprobante.cotizacion = 10;
      r.comprobante.external_reference = "USD-ABSURD-Q";
    });
    queued.comprobante.numero = 0;
    expect((await sbx.call("facturacion/nuevo_encola", queued)).body.error).toBe("N");
    const failed = await until(async () => {
      const r = await sbx.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: "USD-ABSURD-Q" },
      });
      const c = r.body.comprobantes[0]?.comprobante;
      return c?.status === "ENVIADO A PROCESAR - CON ERROR" ? c : undefined;
    });
    expect(failed).not.toHaveProperty("errores");
    // Each rate asked took one of cotizacion's own ten requests (the vouchers count apart, the
    // queries not at all): six so far, four more, then no more rates; vouchers still go.
    for (let i = 7; i <= 10; i++) expect((await rate({})).error, `rate ${i}`).toBe("N");
    expect(await rate({})).toMatchObject({
      error: "S",
      errores: [expect.stringMatching(/cupo de 10 requests de tablas_referencia\/cotizacion/)],
    });
    // (At the other point of sale: this one's failed queued voucher holds its instant issuing.)
    const other = sbx.pointsOfSale[1] as (typeof sbx.pointsOfSale)[number];
    const after = wire("usd-invoice", other.punto_venta, (r) => {
      r.comprobante.external_reference = "USD-AFTER";
    });
    expect((await sbx.call("facturacion/nuevo", after, other)).body.error).toBe("N");
    await sbx.stop();
  });

  it("counts quotas per method (spec §8): the vouchers in one, errors included; each other method in its own", async () => {
    const sbx = await startSandboxProcess({ args: ["--quota", "3"] });
    const pv = sbx.pointsOfSale[0]?.punto_venta ?? 0;
    const consumo = async () => (await sbx.call("micuenta/consumo")).body;
    expect((await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv))).body.error).toBe("N");
    expect((await sbx.call("facturacion/nuevo", { comprobante: {} })).body.error).toBe("S"); // an error counts
    expect(
      (await sbx.call("facturacion/consulta_avanzada", { busqueda_tipo: "F", comprobante: { fecha: "20/11/2026" } }))
        .body.error,
    ).toBe("N"); // free
    // topecf's own three requests; the fourth is refused, naming the method.
    for (let i = 1; i <= 3; i++) expect((await sbx.call("facturacion/topecf")).body.error, `topecf ${i}`).toBe("N");
    expect((await sbx.call("facturacion/topecf")).body).toMatchObject({
      error: "S",
      errores: ["Ha superado el cupo de 3 requests de facturacion/topecf de su plan API DEV."],
    });
    // None of that touched the vouchers': two requests counted, one voucher left.
    expect(await consumo()).toMatchObject({
      comprobantes_generados: 2,
      comprobantes_cupo: 3,
      comprobantes_disponibles: 1,
    });
    const second = wire("factura-b-dni", pv, (r) => {
      r.comprobante.external_reference = "FB-QUOTA-2";
    });
    expect((await sbx.call("facturacion/nuevo", second)).body.error).toBe("N");
    // The vouchers' quota spent: every call errors (reference §12).
    const over = await sbx.call("facturacion/nuevo", wire("factura-b-dni", pv));
    expect(over.body).toMatchObject({
      error: "S",
      errores: ["Ha superado el cupo de 3 comprobantes de su plan API DEV."],
    });
    expect((await sbx.call("tablas_referencia/provincias")).body.errores).toEqual([
      "Ha superado el cupo de 3 comprobantes de su plan API DEV.",
    ]);
    await sbx.stop();
  });
});

describe("faults", () => {
  it("latency, 5xx, 429 with Retry-After, maintenance", async () => {
    const slow = await startSandboxProcess({ args: ["--fault", "latency=300"] });
    const started = Date.now();
    await slow.call("facturacion/topecf");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await slow.stop();
    const broken = await startSandboxProcess({ env: { FACTURAR_SANDBOX_FAULTS: "error5xx=1" } });
    const r5 = await broken.call("facturacion/topecf");
    expect(r5.status).toBe(502);
    expect(r5.body).toMatch(/Bad Gateway/);
    await broken.stop();
    const limited = await startSandboxProcess({ args: ["--fault", "ratelimit=1"] });
    const r429 = await limited.call("facturacion/topecf");
    expect(r429.status).toBe(429);
    expect(r429.headers.get("retry-after")).toBe("1");
    await limited.stop();
    const maintenance = await startSandboxProcess({ args: ["--fault", "maintenance"] });
    const rm = await maintenance.call("facturacion/nuevo", {});
    expect(rm.body).toMatchObject({ error: "S", mantenimiento: 1 });
    expect(rm.body.mantenimiento_hasta).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(rm.body.errores[0]).toMatch(/^Estaremos realizando tareas de mantenimiento hasta las \d{2}:\d{2}$/);
    await maintenance.stop();
  });

  it("drop-before loses the request; drop-after-commit keeps the voucher but loses the answer", async () => {
    const dataDir = tempDir();
    const dropBefore = await startSandboxProcess({ dataDir, args: ["--fault", "drop-before=1"] });
    const pv = dropBefore.pointsOfSale[0]?.punto_venta ?? 0;
    await expect(
      dropBefore.call(
        "facturacion/nuevo",
        wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "DROP-BEFORE")),
      ),
    ).rejects.toThrow();
    await dropBefore.stop();
    const dropAfter = await startSandboxProcess({ dataDir, args: ["--fault", "drop-after-commit=1"] });
    await expect(
      dropAfter.call(
        "facturacion/nuevo",
        wire("factura-b-dni", pv, (r) => (r.comprobante.external_reference = "DROP-AFTER")),
      ),
    ).rejects.toThrow();
    await dropAfter.stop();
    const clean = await startSandboxProcess({ dataDir });
    const count = async (ref: string) =>
      (
        await clean.call("facturacion/consulta_avanzada", {
          busqueda_tipo: "EXT_REF",
          comprobante: { external_reference: ref },
        })
      ).body.total;
    expect(await count("DROP-BEFORE")).toBe(0);
    expect(await count("DROP-AFTER")).toBe(1);
    await clean.stop();
  });

  it("authority-down refuses instant issuing and holds the queue; queue-error flags vouchers for re-queueing", async () => {
    const dataDir = tempDir();
    const down = await startSandboxProcess({ dataDir, args: ["--fault", "authority-down"] });
    const pv = down.pointsOfSale[0]?.punto_venta ?? 0;
    expect((await down.call("facturacion/nuevo", wire("factura-b-dni", pv))).body.errores[0]).toMatch(
      /AFIP No devolvio el CAE/,
    );
    expect((await down.call("estado_servicios/alertas")).body).toMatchObject({ error: "S", rta: "ERROR" });
    const q = wire("factura-b-dni", pv, (r) => {
      r.comprobante.external_reference = "Q-DOWN";
      r.comprobante.fecha = today();
      r.comprobante.vencimiento = "31/12/2099";
    });
    expect((await down.call("facturacion/nuevo_encola", q)).body.error).toBe("N");
    // A voucher due later, queued after it: once the queue's worker has approved it, that pass
    // went by the one due today first, and held it.
    const later = wire("factura-b-dni", pv, (r) => {
      r.comprobante.external_reference = "Q-DOWN-LATER";
      r.comprobante.fecha = "01/01/2099";
      r.comprobante.vencimiento = "31/12/2099";
    });
    expect((await down.call("facturacion/nuevo_encola", later)).body.error).toBe("N");
    await until(async () => {
      const r = await down.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: "Q-DOWN-LATER" },
      });
      return /^APROBADO Y EN COLA/.test(r.body.comprobantes[0]?.comprobante.status ?? "") ? true : undefined;
    });
    const held = await down.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: "Q-DOWN" },
    });
    expect(held.body.comprobantes[0].comprobante.status).toBe("EN COLA, ESPERANDO APROBACION");
    await down.stop();

    const failing = await startSandboxProcess({ dataDir, args: ["--fault", "queue-error=1"] });
    const flagged = await until(async () => {
      const r = await failing.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: "Q-DOWN" },
      });
      const c = r.body.comprobantes[0].comprobante;
      return c.status === "ENVIADO A PROCESAR - CON ERROR" ? c : undefined;
    });
    // The real items carry no reason (reference §6.9): the webhook's error event does (§7).
    expect(flagged).not.toHaveProperty("errores");
    await failing.stop();

    const healthy = await startSandboxProcess({ dataDir });
    expect((await healthy.call("facturacion/reenviar_encolado", { external_reference: "Q-DOWN" })).body).toEqual({
      error: "N",
      errores: [],
    });
    const issued = await until(async () => {
      const r = await healthy.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: "Q-DOWN" },
      });
      return r.body.comprobantes[0].comprobante.status === "EMITIDO" ? r.body.comprobantes[0].comprobante : undefined;
    });
    expect(issued.numero).toBe(1);
    expect((await healthy.call("facturacion/reenviar_encolado", { external_reference: "Q-DOWN" })).body.error).toBe(
      "S",
    );
    await healthy.stop();
  });

  it("a --data-dir that is a file is a usage error naming it (exit 2); the log it keeps is the user's alone (0600)", async () => {
    const dir = tempDir();
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const r = await runCli(["sandbox", "--data-dir", file, "--port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the sandbox data folder .*a-file cannot be used: EEXIST/);
    expect(r.stderr).not.toMatch(/internal error/);
    const s = await startSandboxProcess({ dataDir: join(dir, "data") });
    await s.stop();
    expect(statSync(join(dir, "data", "sandbox.log")).mode & 0o777).toBe(0o600);
  });

  it("refuses unknown faults and non-loopback hosts (exit 2)", async () => {
    expect((await runCli(["sandbox", "--fault", "earthquake=1"])).code).toBe(2);
    expect((await runCli(["sandbox", "--fault", "error5xx=2"])).code).toBe(2);
    expect((await runCli(["sandbox", "--host", "0.0.0.0"])).code).toBe(2);
  });
});
