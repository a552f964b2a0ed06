/**
 * The sandbox as strict and as lenient as the real service on the issuing methods (issue 14, "the
 * development plan"): the defaults vendor examples rely on, lotes as strict as nuevo, lotes_encola's
 * documented failure shapes, numeracion, FCE refusals, e-mail and the queued-PDV error.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { argentinaToday, clockFrom, formatDay } from "../../src/voucher/dates.js";
import { decodeQr } from "../../src/voucher/qr.js";
import { escapeEnvelope } from "../../src/voucher/text.js";
import { DEFAULTED, validateEnvelope } from "../../src/voucher/validate.js";
import { freshUser, ndjson, ROOT, runCli } from "../helpers.js";
import { type RunningSandbox, startSandboxProcess } from "../sandbox-process.js";

const NOW = { now: new Date("2026-11-20T15:00:00Z") };
const TODAY = formatDay(argentinaToday(clockFrom(process.env)()));
const FCE_BUYER = "30500010912";

/** A sample voucher as the CLI would send it: validated, normalised, escaped, for point of sale `pv`. */
function wire(sample: string, pv: number, change: (c: any) => void = () => {}): Record<string, any> {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", `${sample}.json`), "utf8"));
  const result = validateEnvelope(raw, NOW);
  if (!result.envelope) throw new Error(JSON.stringify(result.findings));
  const { $schema: _, [DEFAULTED]: _d, ...env } = escapeEnvelope(result.envelope) as any;
  env.comprobante.punto_venta = pv;
  change(env);
  return env;
}

const ref = (reference: string) => (env: any) => {
  env.comprobante.external_reference = reference;
};

describe("the sandbox's issuing methods, as strict and as lenient as the real service", () => {
  let sbx: RunningSandbox;
  let pv: number;
  // The second point of sale: queued vouchers there hold nothing of the first one's.
  let queuedPv: number;
  const next = async (tipo: string, p = pv) =>
    (await sbx.call("facturacion/numeracion", { comprobante: { tipo, operacion: "V", punto_venta: p } })).body
      .comprobante.numero as number;

  beforeAll(async () => {
    // The queue never runs here: a voucher queued by one test must still be queued when the next request
    // arrives (at the default 100 ms a loaded machine processed it first, and CI saw instant issuing pass).
    sbx = await startSandboxProcess({ args: ["--queue-interval", "3600000"] });
    pv = sbx.pointsOfSale[0]?.punto_venta ?? 0;
    queuedPv = sbx.pointsOfSale[1]?.punto_venta ?? 0;
  });
  afterAll(async () => {
    expect(await sbx.stop()).toBe(0);
  });

  it("takes a voucher without idioma, moneda and cotizacion as Spanish, pesos and 1", async () => {
    const body = wire("factura-b-dni", pv, (env) => {
      delete env.comprobante.idioma;
      delete env.comprobante.moneda;
      delete env.comprobante.cotizacion;
    });
    const r = await sbx.call("facturacion/nuevo", body);
    expect(r.body.error).toBe("N");
    const numero = Number(r.body.comprobante_nro);
    const q = await sbx.call("facturacion/consulta", {
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: pv, numero },
    });
    expect(q.body.comprobante).toMatchObject({ moneda: "PES", cotizacion: 1, idioma: 1 });
    // Present but wrong is still refused.
    const wrong = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (env) => (env.comprobante.idioma = 3)),
    );
    expect(wrong.body.errores).toContain("El campo idioma debe ser 1 (espanol) o 2 (ingles).");
  });

  it("refuses a product description shorter than 4 characters", async () => {
    const r = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (env) => (env.comprobante.detalle[0].producto.descripcion = "p2")),
    );
    expect(r.body).toMatchObject({ error: "S", external_reference: "FB-2026-0001" });
    expect(r.body.errores).toEqual(["Item 1: la descripcion del producto debe tener entre 4 y 255 caracteres."]);
  });

  it("puts ctz 1 in the QR of a peso voucher, whatever cotizacion it was sent with", async () => {
    const r = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (env) => (env.comprobante.cotizacion = 2)),
    );
    expect(r.body.error).toBe("N");
    expect(decodeQr(r.body.afip_qr.trim())).toMatchObject({ moneda: "PES", ctz: 1 });
  });

  it("e-mails the voucher where the customer asks for it, to the customer's addresses", async () => {
    const mailed = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (env) => {
        env.cliente.envia_por_mail = "S";
        env.cliente.email = "a@example.com,b@example.com";
      }),
    );
    expect(mailed.body).toMatchObject({ envio_x_mail: "S", envio_x_mail_direcciones: "a@example.com,b@example.com" });
    const notMailed = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (env) => (env.cliente.envia_por_mail = "N")),
    );
    expect(notMailed.body).toMatchObject({ envio_x_mail: "N", envio_x_mail_direcciones: "" });
  });

  it("takes condicion_pago 0 from a supplier (none), and refuses it on a sale (the codes of before 2019)", async () => {
    const purchase = await sbx.call(
      "facturacion/nuevo",
      wire("purchase-proveedor", pv, (env) => (env.proveedor.condicion_pago = 0)),
    );
    expect(purchase.body.error).toBe("N");
    const sale = await sbx.call(
      "facturacion/nuevo",
      wire("factura-b-dni", pv, (env) => (env.cliente.condicion_pago = 0)),
    );
    expect(sale.body.errores).toContain("La condicion de pago enviada no es valida.");
  });

  it("numeracion tells the next number, free of quota: the last issued plus one", async () => {
    const before = await next("FACTURA C");
    const r = await sbx.call("facturacion/nuevo", wire("factura-c", pv));
    expect(r.body.error).toBe("N");
    expect(Number(r.body.comprobante_nro)).toBe(before);
    const answer = await sbx.call("facturacion/numeracion", {
      comprobante: { tipo: "FACTURA C", operacion: "V", punto_venta: String(pv) },
    });
    expect(answer.body).toEqual({
      error: "N",
      errores: [""],
      rta: "OK",
      comprobante: { tipo: "FACTURA C", operacion: "V", punto_venta: pv, numero: before + 1 },
    });
  });

  describe("requiere_fec", () => {
    const large = (reference: string, quantity: number) =>
      wire("factura-a-mixed-rates", pv, (env) => {
        env.cliente.documento_nro = FCE_BUYER;
        env.comprobante.external_reference = reference;
        env.comprobante.detalle = [{ ...env.comprobante.detalle[0], cantidad: quantity }];
        // 850 000 + 21 % a unit.
        env.comprobante.total = (quantity * 1_028_500).toFixed(2);
      });

    it('refuses an ordinary invoice to an obliged buyer at or over the threshold, with requiere_fec "SI"', async () => {
      const before = await next("FACTURA A");
      const r = await sbx.call("facturacion/nuevo", large("FA-BIG", 6));
      expect(r.body).toMatchObject({ error: "S", requiere_fec: "SI", external_reference: "FA-BIG" });
      expect(r.body.errores[0]).toMatch(/obligado a recibir Factura de Credito Electronica MiPyME/);
      expect(await next("FACTURA A")).toBe(before);
      // The same in a batch: refused whole, for that row.
      const batch = await sbx.call("facturacion/lotes", { requests: [large("FA-BIG-1", 1), large("FA-BIG-2", 6)] });
      expect(batch.body).toMatchObject({ error: "S", requiere_fec: "SI", response: [] });
      expect(batch.body.errores[0]).toMatch(/^Fila 1 \(comenzando en 0\): El receptor 30500010912 esta obligado/);
      expect(await next("FACTURA A")).toBe(before);
      // Under the threshold, the same buyer takes an ordinary invoice.
      const small = await sbx.call("facturacion/nuevo", large("FA-SMALL", 1));
      expect(small.body).toMatchObject({ error: "N", requiere_fec: "NO " });
      // And a buyer the registry does not oblige, any amount.
      const notObliged = large("FA-OTHER", 6);
      notObliged.cliente.documento_nro = "20111111112";
      const other = await sbx.call("facturacion/nuevo", notObliged);
      expect(other.body.error).toBe("N");
    });

    it("the client shows the FCE hint on that rejection (exit 4)", async () => {
      const { cwd, env } = freshUser("facturar-fce-");
      const file = join(cwd, "big.json");
      const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-a-mixed-rates.json"), "utf8"));
      raw.cliente.documento_nro = FCE_BUYER;
      raw.comprobante.detalle = [{ ...raw.comprobante.detalle[0], cantidad: 6 }];
      raw.comprobante.total = 6 * 1_028_500;
      writeFileSync(file, JSON.stringify(raw));
      const r = await runCli(["--json", "issue", "--no-pdf", file], { cwd, env });
      expect(r.code, r.stderr).toBe(4);
      expect(ndjson(r.stdout)[0]).toMatchObject({
        ok: false,
        status: "rejected",
        hint: expect.stringMatching(/FACTURA DE CREDITO ELECTRONICA MiPyME \(FCE\)/),
      });
      // In a batch (lotes), the same voucher is refused with the same hint, and the other is issued.
      const small = { ...raw, comprobante: { ...raw.comprobante, external_reference: "FA-SMALL" } };
      small.comprobante.detalle = [{ ...raw.comprobante.detalle[0], cantidad: 1 }];
      small.comprobante.total = 1_028_500;
      const big = { ...raw, comprobante: { ...raw.comprobante, external_reference: "FA-BIG" } };
      writeFileSync(join(cwd, "both.json"), JSON.stringify([small, big]));
      const both = await runCli(["--json", "issue", "--no-pdf", "both.json"], { cwd, env });
      expect(both.code, both.stderr).toBe(7);
      const byRef = Object.fromEntries(ndjson(both.stdout).map((v) => [v.external_reference, v]));
      expect(byRef["FA-SMALL"]).toMatchObject({ ok: true, status: "issued" });
      expect(byRef["FA-BIG"]).toMatchObject({ status: "rejected", hint: expect.stringMatching(/MiPyME \(FCE\)/) });
    });
  });

  describe("lotes, as strict as nuevo", () => {
    it("refuses export and MiPyME vouchers, processing none", async () => {
      for (const sample of ["factura-e-goods", "fce-a"]) {
        const body = wire(sample, pv);
        const r = await sbx.call("facturacion/lotes", { requests: [body] });
        expect(r.body).toMatchObject({ error: "S", response: [] });
        expect(r.body.errores[0]).toMatch(/No es posible enviar comprobantes de tipo .* por lotes/);
      }
    });

    it("checks each numero before anything is issued: the next one, then consecutive", async () => {
      const first = await next("FACTURA B");
      const numbered = (n: number, reference: string) =>
        wire("factura-b-dni", pv, (env) => {
          env.comprobante.numero = n;
          env.comprobante.external_reference = reference;
        });
      const gap = await sbx.call("facturacion/lotes", {
        requests: [numbered(first, "N-1"), numbered(first + 2, "N-2")],
      });
      expect(gap.body).toMatchObject({
        error: "S",
        errores: [
          `Fila 1 (comenzando en 0): El numero de comprobante ${first + 2} no es el proximo a emitir: el proximo es ${first + 1}.`,
        ],
        response: [],
      });
      expect(await next("FACTURA B")).toBe(first);
      const ok = await sbx.call("facturacion/lotes", {
        requests: [numbered(first, "N-1"), numbered(first + 1, "N-2")],
      });
      expect(ok.body.error).toBe("N");
      expect(ok.body.response.map((i: any) => Number(i.comprobante_nro.split("-")[1]))).toEqual([first, first + 1]);
    });

    it("refuses a batch out of order by date, processing none", async () => {
      const first = await next("FACTURA B");
      const yesterday = formatDay(argentinaToday(clockFrom(process.env)()) - 1);
      const r = await sbx.call("facturacion/lotes", {
        requests: [
          wire("factura-b-dni", pv, ref("ORD-1")),
          wire("factura-b-dni", pv, (env) => {
            env.comprobante.external_reference = "ORD-2";
            env.comprobante.fecha = yesterday;
          }),
        ],
      });
      expect(r.body).toMatchObject({
        error: "S",
        errores: ["El comprobante enviado en la fila 1 (comenzando en 0) no esta ordenado por fecha y numero."],
        response: [],
      });
      expect(await next("FACTURA B")).toBe(first);
    });

    it("like production, authorises every item before the one the authority refuses, and rejects it and every later one (§6.8)", async () => {
      // The authority's dates are production's: the development plan skips them (spec §1).
      const strict = await startSandboxProcess({
        args: ["--queue-interval", "3600000", "--fault", "authority-checks"],
      });
      try {
        const spv = strict.pointsOfSale[0]?.punto_venta ?? 0;
        const numbered = async () =>
          (
            await strict.call("facturacion/numeracion", {
              comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: spv },
            })
          ).body.comprobante.numero as number;
        const first = await numbered();
        // Dated 6 days ahead: beyond the authority's window (N+5), so the third item fails there.
        const late = formatDay(argentinaToday(clockFrom(process.env)()) + 6);
        const requests = ["P-1", "P-2", "P-3", "P-4"].map((reference, i) =>
          wire("factura-b-dni", spv, (env) => {
            env.comprobante.external_reference = reference;
            if (i >= 2) env.comprobante.fecha = late;
          }),
        );
        const r = await strict.call("facturacion/lotes", { requests });
        expect(r.body.error).toBe("S");
        expect(r.body.response.map((i: any) => i.error)).toEqual(["N", "N", "S", "S"]);
        expect(r.body.response.slice(0, 2).map((i: any) => Number(i.comprobante_nro.split("-")[1]))).toEqual([
          first,
          first + 1,
        ]);
        expect(r.body.response[2].errores[0]).toMatch(/#6661145\.10016/);
        expect(r.body.response[3].errores[0]).toMatch(/fallo un comprobante anterior/);
        expect(await numbered()).toBe(first + 2);
        // The development plan takes the same batch whole.
        const before = await next("FACTURA B");
        const taken = await sbx.call("facturacion/lotes", {
          requests: requests.map((x) => ({ ...x, comprobante: { ...x.comprobante, punto_venta: pv } })),
        });
        expect(taken.body.error, JSON.stringify(taken.body)).toBe("N");
        expect(await next("FACTURA B")).toBe(before + 4);
      } finally {
        await strict.stop();
      }
    });
  });

  describe("lotes_encola", () => {
    it('where every voucher fails: "no se procesara", an empty list, error_cod and error_details', async () => {
      const held = async () =>
        (
          await sbx.call(
            "facturacion/consulta_avanzada",
            { busqueda_tipo: "F", comprobante: { fecha: TODAY, operacion: "V" } },
            sbx.pointsOfSale[1],
          )
        ).body.total;
      const before = await held();
      const bad = wire("factura-b-dni", queuedPv, (env) => delete env.comprobante.external_reference);
      const r = await sbx.call("facturacion/lotes_encola", { requests: [bad, bad, bad] }, sbx.pointsOfSale[1]);
      expect(r.body).toEqual({
        error: "S",
        errores: [
          "El lote no se procesara ya que contiene errores en todos sus requests. Se enviaron a procesar: 3 requests y se aceptaron procesar: 0. ",
        ],
        rta: "",
        error_cod: [],
        error_details: [],
        response: [],
      });
      expect(await held()).toBe(before);
    });

    it("gives each queued item cae_vencimiento, and says how many of how many it took", async () => {
      const good = wire("factura-b-dni", queuedPv, ref("Q-GOOD"));
      const bad = wire("factura-b-dni", queuedPv, (env) => delete env.comprobante.external_reference);
      const r = await sbx.call("facturacion/lotes_encola", { requests: [good, bad] }, sbx.pointsOfSale[1]);
      expect(r.body.error).toBe("S");
      expect(r.body.errores[0]).toMatch(
        /se procesara parcialmente .* Se enviaron a procesar: 2 requests y se aceptaron procesar: 1/,
      );
      expect(r.body.response[0]).toMatchObject({ error: "N", cae_vencimiento: null, tfc_generacion_tipo: 3 });
      expect(r.body.response[1]).toMatchObject({ error: "S", rta: "Eror. No se procesara" });
      expect(r.body.response[1].errores[0]).toMatch(/^El request enviado en el orden 1 \(comenzando en 0\)/);
    });

    it("the point of sale's queued vouchers block instant issuing, and the refusal echoes the reference sent", async () => {
      const queued = await sbx.call(
        "facturacion/nuevo_encola",
        wire("factura-b-dni", queuedPv, ref("QUEUED-1")),
        sbx.pointsOfSale[1],
      );
      expect(queued.body.error).toBe("N");
      const r = await sbx.call(
        "facturacion/nuevo",
        wire("factura-b-dni", queuedPv, ref("BLOCKED-1")),
        sbx.pointsOfSale[1],
      );
      expect(r.body).toMatchObject({ error: "S", external_reference: "BLOCKED-1" });
      expect(r.body.errores[0]).toMatch(/tiene comprobantes encolados/);
    });
  });
});
