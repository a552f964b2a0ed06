/**
 * The typed protocol (src/api/protocol.ts) against canned answers: for each method, what it sends
 * (path, body) and what it makes of each answer shape the reference documents (§6), its quirks
 * (padding, numbers for texts, `errores: [""]`, `afip_`/`tax_` names, queued placeholders) and its
 * errors. A fake transport answers in-process, so each test takes milliseconds.
 */
import { describe, expect, it } from "vitest";
import { ApiClient, UnavailableError } from "../../src/api/client.js";
import { type HttpResponse, TransportError } from "../../src/api/http.js";
import {
  AuthorityDownError,
  classifyStatus,
  findSaleOrPurchase,
  HttpService,
  issueAnswer,
  MalformedAnswerError,
  preferred,
  refusalCauses,
  ServiceRefusedError,
  sameReference,
  serviceVoucher,
  WebhookRequiredError,
} from "../../src/api/protocol.js";
import { FacturarError } from "../../src/errors.js";
import { isMessage } from "../../src/i18n/message.js";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import { failure } from "../helpers.js";

const CREDENTIALS = { usertoken: "qwertyuiopasdfgh", apikey: "4242", apitoken: "zxcvbnmlkjhgfdsq" };

type Canned = unknown | ((body: Record<string, unknown>) => unknown);

/**
 * An HttpService whose transport answers each request with the next canned body (the last one
 * again when they run out), and records what was sent, credentials left out.
 */
function fake(...answers: Canned[]) {
  const sent: { method: string; body: Record<string, unknown> }[] = [];
  const client = new ApiClient({
    baseUrl: "http://service.invalid/app/api/v2/",
    credentials: CREDENTIALS,
    userAgent: "test",
    retries: 0,
    backoffMs: 1,
    transport: async (url, opts): Promise<HttpResponse> => {
      const { usertoken: _u, apikey: _k, apitoken: _t, ...body } = JSON.parse(opts.body ?? "{}");
      sent.push({ method: url.pathname.replace("/app/api/v2/", ""), body });
      const canned = answers[Math.min(sent.length - 1, answers.length - 1)];
      const answer = typeof canned === "function" ? canned(body) : canned;
      return { status: 200, headers: {}, body: Buffer.from(JSON.stringify(answer)) };
    },
  });
  return { service: new HttpService(client), sent };
}

async function collect(list: AsyncGenerator<ServiceVoucher>): Promise<ServiceVoucher[]> {
  const out: ServiceVoucher[] = [];
  for await (const v of list) out.push(v);
  return out;
}

const VOUCHER = { comprobante: { tipo: "FACTURA B", external_reference: "R-1" } };

describe("classifyStatus: the service's status text to a voucher's state", () => {
  it("reads the texts of §8.2, in any case", () => {
    expect(classifyStatus("EMITIDO", 74)).toBe("issued");
    expect(classifyStatus("emitido", null)).toBe("issued");
    expect(classifyStatus("ENVIADO A PROCESAR - CON ERROR", null)).toBe("queue-error");
    expect(classifyStatus("Enviado a procesar - con error", 0)).toBe("queue-error");
    expect(classifyStatus("EN COLA, ESPERANDO APROBACION", null)).toBe("queued");
    expect(classifyStatus("APROBADO Y EN COLA. SE EMITE EL 25/11/2026", 0)).toBe("queued");
  });

  it("an empty status is issued only with a number; an unknown text is queued, number or not", () => {
    expect(classifyStatus("", 12)).toBe("issued");
    expect(classifyStatus("", 1)).toBe("issued");
    expect(classifyStatus("", 0)).toBe("queued");
    expect(classifyStatus("", -3)).toBe("queued");
    expect(classifyStatus("", null)).toBe("queued");
    expect(classifyStatus("ANULADO", 12)).toBe("queued");
    expect(classifyStatus("EMITIDO EN OTRO LADO", 12)).toBe("queued");
  });
});

describe("preferred: the voucher to trust among several under one reference", () => {
  const v = (state: ServiceVoucher["state"], n: number) => ({ state, numero: n }) as ServiceVoucher;

  it("issued before queued before failed in the queue, the input left in its order", () => {
    const list = [v("queue-error", 1), v("queued", 2), v("issued", 3), v("queued", 4)];
    expect(preferred(list)?.numero).toBe(3);
    expect(list.map((x) => x.numero)).toEqual([1, 2, 3, 4]);
    expect(preferred([v("queue-error", 1), v("queued", 2), v("queue-error", 3)])?.numero).toBe(2);
    expect(preferred([v("queued", 5), v("queue-error", 6)])?.numero).toBe(5);
    expect(preferred([v("queue-error", 7)])?.numero).toBe(7);
    expect(preferred([])).toBeUndefined();
  });
});

describe("sameReference: a reference echoed as a number stands for every reference that reads as it", () => {
  const listed = (echoed: unknown) =>
    ({
      external_reference: String(echoed),
      raw: { comprobante: { external_reference: echoed } },
    }) as unknown as ServiceVoucher;

  it("leading zeros and rounding past 15 digits match; text never matches a number it is not", () => {
    expect(sameReference(listed(777), "00777")).toBe(true);
    expect(sameReference(listed(777), "777")).toBe(true);
    expect(sameReference(listed(12345678901234567000), "12345678901234567890")).toBe(true);
    expect(sameReference(listed(777), "0778")).toBe(false);
    expect(sameReference(listed(777), "F-777")).toBe(false);
    // Echoed as text, only the same text is the same reference.
    expect(sameReference(listed("777"), "00777")).toBe(false);
    expect(sameReference(listed("A-1"), "A-1")).toBe(true);
  });
});

describe("serviceVoucher: a consulta item, normalised", () => {
  const item = {
    cliente: { documento_tipo: "CUIT", documento_nro: "20111111112 ", razon_social: "  Ana #&# Cía " },
    comprobante: {
      external_reference: 17032,
      status: " EMITIDO ",
      tipo: " FACTURA B ",
      punto_venta: "00003",
      numero: "74",
      fecha: " 20/11/2026 ",
      total: 1210.5,
      cae: "75123456789012 ",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026 ",
      afip_qr: "https://www.afip.gob.ar/fe/qr/?p=abc ",
      comprobante_pdf_url: " https://x.invalid/a.pdf",
      comprobante_ticket_url: "https://x.invalid/t.pdf ",
      afip_observaciones: ["", " observed "],
      operacion: "v",
      errores: ["ignored while issued"],
      detalle: [{ cantidad: 1, producto: { descripcion: " line#@#two " } }, " padded ", 3, null],
      leyenda_gral: "\u001b[31mred\u001b[0m ",
      tags: null,
    },
  };

  it("trims padded texts, reads numbers sent as texts and references sent as numbers", () => {
    const v = serviceVoucher(item);
    expect(v).toMatchObject({
      external_reference: "17032",
      state: "issued",
      status: "EMITIDO",
      tipo: "FACTURA B",
      punto_venta: 3,
      numero: 74,
      fecha: "20/11/2026",
      total: "1210.50",
      cae: "75123456789012",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      qr: "https://www.afip.gob.ar/fe/qr/?p=abc",
      pdf_url: "https://x.invalid/a.pdf",
      ticket_url: "https://x.invalid/t.pdf",
      errors: [],
      observations: ["observed"],
      operacion: "V",
    });
  });

  it("shows the raw item trimmed, the service's escapes undone, control sequences out, nested blocks too", () => {
    const v = serviceVoucher(item);
    expect(v?.raw).toEqual({
      cliente: { documento_tipo: "CUIT", documento_nro: "20111111112", razon_social: "Ana % Cía" },
      comprobante: {
        ...item.comprobante,
        status: "EMITIDO",
        tipo: "FACTURA B",
        punto_venta: "00003",
        numero: "74",
        fecha: "20/11/2026",
        cae: "75123456789012",
        vencimiento_pago: "20/12/2026",
        afip_qr: "https://www.afip.gob.ar/fe/qr/?p=abc",
        comprobante_pdf_url: "https://x.invalid/a.pdf",
        comprobante_ticket_url: "https://x.invalid/t.pdf",
        afip_observaciones: ["", "observed"],
        operacion: "v",
        errores: ["ignored while issued"],
        detalle: [{ cantidad: 1, producto: { descripcion: "line\ntwo" } }, "padded", 3, null],
        leyenda_gral: "red",
        tags: null,
      },
    });
  });

  it("a purchase shows its supplier; a block that is no object shows as empty", () => {
    const purchase = serviceVoucher({ proveedor: { razon_social: " Prov " }, comprobante: { operacion: " c " } });
    expect(purchase?.operacion).toBe("C");
    expect(purchase?.raw).toEqual({ proveedor: { razon_social: "Prov" }, comprobante: { operacion: "c" } });
    const both = serviceVoucher({ cliente: { a: 1 }, proveedor: { b: 2 }, comprobante: {} });
    expect(both?.raw).toEqual({ cliente: { a: 1 }, comprobante: {} });
    expect(serviceVoucher({ cliente: ["x"], comprobante: {} })?.raw.cliente).toEqual({});
    expect(serviceVoucher({ cliente: "x", comprobante: {} })?.raw.cliente).toEqual({});
    expect(serviceVoucher({ cliente: null, comprobante: {} })?.raw.cliente).toEqual({});
    expect(serviceVoucher({ comprobante: {} })?.raw.cliente).toEqual({});
  });

  it('the queued placeholders read as not yet: number 0, `cae: " "`, 01/01/2000', () => {
    const v = serviceVoucher({
      comprobante: {
        status: "EN COLA, ESPERANDO APROBACION",
        numero: 0,
        punto_venta: 3,
        cae: " ",
        vencimiento_cae: "01/01/2000",
        fecha: "",
        total: "",
        tax_qr: " https://qr.invalid/tax ",
        observaciones: "obs",
      },
    });
    expect(v).toMatchObject({
      state: "queued",
      numero: null,
      punto_venta: 3,
      cae: null,
      vencimiento_cae: null,
      fecha: null,
      total: null,
      qr: "https://qr.invalid/tax",
      observations: ["obs"],
      external_reference: "",
      tipo: "",
      operacion: "V",
      pdf_url: null,
      ticket_url: null,
      vencimiento_pago: null,
    });
    expect(serviceVoucher({ comprobante: { numero: -2, status: "" } })).toMatchObject({
      numero: null,
      state: "queued",
    });
    expect(serviceVoucher({ comprobante: { vencimiento_cae: " 02/01/2000 " } })?.vencimiento_cae).toBe("02/01/2000");
  });

  it("texts and numbers of any JSON type: booleans as text, numbers as numbers, the rest empty", () => {
    const v = serviceVoucher({
      comprobante: { tipo: true, external_reference: null, numero: " ", punto_venta: "x", total: "abc", cae: {} },
    });
    expect(v).toMatchObject({
      tipo: "true",
      external_reference: "",
      numero: null,
      punto_venta: null,
      total: "abc",
      cae: null,
    });
    expect(serviceVoucher({ comprobante: { punto_venta: " 7 ", total: "10" } })).toMatchObject({
      punto_venta: 7,
      total: "10.00",
    });
    expect(serviceVoucher({ comprobante: { afip_qr: "", tax_qr: "" } })?.qr).toBeNull();
    expect(serviceVoucher({ comprobante: { punto_venta: " ", numero: Number.POSITIVE_INFINITY } })).toMatchObject({
      punto_venta: null,
      numero: null,
    });
  });

  it("a voucher failed in the queue says why: its errores, else its status", () => {
    const failed = { status: "ENVIADO A PROCESAR - CON ERROR", numero: 0 };
    expect(serviceVoucher({ comprobante: { ...failed, errores: [" CUIT invalido ", ""] } })?.errors).toEqual([
      "CUIT invalido",
    ]);
    expect(serviceVoucher({ comprobante: { ...failed, errores: [""] } })?.errors).toEqual([
      "ENVIADO A PROCESAR - CON ERROR",
    ]);
    expect(serviceVoucher({ comprobante: { ...failed } })?.errors).toEqual(["ENVIADO A PROCESAR - CON ERROR"]);
    expect(serviceVoucher({ comprobante: { status: "EN COLA", errores: ["x"] } })?.errors).toEqual([]);
  });

  it("an item without a comprobante block is no voucher", () => {
    expect(serviceVoucher({ cliente: {} })).toBeUndefined();
    expect(serviceVoucher({ comprobante: "x" })).toBeUndefined();
    expect(serviceVoucher(null)).toBeUndefined();
    expect(serviceVoucher("x")).toBeUndefined();
  });
});

describe("issue: nuevo and nuevo_encola", () => {
  it("sends the voucher to nuevo and reads the success of §6.1, trailing spaces and all", async () => {
    const { service, sent } = fake({
      error: "N",
      errores: [""],
      rta: "El comprobante FACTURA B 0003-00000074 se ha guardado correctamente",
      cae: "75123456789012 ",
      requiere_fec: "NO ",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      comprobante_pdf_url: "https://x.invalid/a.pdf",
      comprobante_ticket_url: "https://x.invalid/t.pdf",
      afip_qr: "https://www.afip.gob.ar/fe/qr/?p=abc ",
      comprobante_nro: "00003-00000074",
      comprobante_tipo: "FACTURA B ",
      afip_observaciones: [" obs "],
      envio_x_mail: "S",
      envio_x_mail_direcciones: "direccion1@sudominio.com,direccion2@sudominio.com",
      micrositios: { cliente: "https://servicios.x.invalid/c/1", descarga: "url-del-micrositio" },
    });
    const answer = await service.issue("instant", VOUCHER);
    expect(sent).toEqual([{ method: "facturacion/nuevo", body: VOUCHER }]);
    expect(answer).toEqual({
      ok: true,
      state: "issued",
      comprobante_tipo: "FACTURA B",
      punto_venta: 3,
      numero: 74,
      cae: "75123456789012",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      qr: "https://www.afip.gob.ar/fe/qr/?p=abc",
      pdf_url: "https://x.invalid/a.pdf",
      ticket_url: "https://x.invalid/t.pdf",
      observations: ["obs"],
      envio_x_mail: true,
      envio_x_mail_direcciones: ["direccion1@sudominio.com", "direccion2@sudominio.com"],
      // The page's placeholder is no address to show.
      micrositios: { cliente: "https://servicios.x.invalid/c/1", descarga: null },
    });
  });

  it("a bare number, a batch item's cae_vencimiento and the tax_ name are read too", async () => {
    const { service } = fake({
      error: "n",
      comprobante_nro: "0000123",
      cae_vencimiento: "01/12/2026",
      tax_qr: "https://qr.invalid/x",
      observaciones: "approved with observations",
    });
    expect(await service.issue("instant", VOUCHER)).toMatchObject({
      ok: true,
      punto_venta: null,
      numero: 123,
      vencimiento_cae: "01/12/2026",
      qr: "https://qr.invalid/x",
      observations: ["approved with observations"],
      comprobante_tipo: null,
    });
  });

  it("a number 0 or none reads as no number", async () => {
    expect(
      await fake({ error: "N", comprobante_nro: "00003-00000000" }).service.issue("instant", VOUCHER),
    ).toMatchObject({
      punto_venta: 3,
      numero: null,
    });
    expect(await fake({ error: "N" }).service.issue("instant", VOUCHER)).toMatchObject({
      punto_venta: null,
      numero: null,
      cae: null,
      qr: null,
      pdf_url: null,
      ticket_url: null,
      vencimiento_pago: null,
      observations: [],
    });
  });

  it("queued: sent to nuevo_encola, and its placeholders of §6.7 read as not yet", async () => {
    const { service, sent } = fake({
      error: "N",
      errores: [],
      error_cod: [],
      error_details: [],
      requiere_fec: "NO",
      observaciones: "",
      rta: "El comprobante  se ha guardado correctamente ",
      cae: " ",
      vencimiento_cae: "01/01/2000",
      vencimiento_pago: "20/12/2026",
      comprobante_nro: "00003-00000075",
      comprobante_tipo: "FACTURA B",
      afip_qr: "",
      comprobante_pdf_url: "",
    });
    const answer = await service.issue("queued", VOUCHER);
    expect(sent.map((s) => s.method)).toEqual(["facturacion/nuevo_encola"]);
    expect(answer).toEqual({
      ok: true,
      state: "queued",
      comprobante_tipo: "FACTURA B",
      punto_venta: 3,
      numero: null,
      cae: null,
      vencimiento_cae: null,
      vencimiento_pago: "20/12/2026",
      qr: null,
      pdf_url: null,
      ticket_url: null,
      observations: [],
      envio_x_mail: null,
      envio_x_mail_direcciones: [],
      micrositios: { cliente: null, descarga: null },
    });
  });

  it("envio_x_mail as the service may write it: N, s, SI, a boolean; a blank or anything else says nothing", async () => {
    const read = async (extra: Record<string, unknown>) => {
      const answer = await fake({ error: "N", ...extra }).service.issue("instant", VOUCHER);
      return answer.ok ? [answer.envio_x_mail, answer.envio_x_mail_direcciones] : undefined;
    };
    expect(await read({ envio_x_mail: "N", envio_x_mail_direcciones: "" })).toEqual([false, []]);
    expect(
      await read({ envio_x_mail: " s ", envio_x_mail_direcciones: "a@x.invalid; b@x.invalid ,, no-address" }),
    ).toEqual([true, ["a@x.invalid", "b@x.invalid"]]);
    expect(await read({ envio_x_mail: "SI", envio_x_mail_direcciones: ["a@x.invalid", 7] })).toEqual([
      true,
      ["a@x.invalid"],
    ]);
    expect(await read({ envio_x_mail: true })).toEqual([true, []]);
    for (const odd of ["", "X", 1, null, {}]) expect(await read({ envio_x_mail: odd })).toEqual([null, []]);
  });

  it("refused (§6.4): the errors, their details, and whether the buyer needs a credit invoice", async () => {
    const { service } = fake({
      error: "S",
      errores: [" La condicion de IVA no permite B ", ""],
      error_cod: [],
      error_details: [
        { code: "TFC-8004", text: "La condicion de IVA no permite B" },
        null,
        "x",
        { code: "", text: "" },
      ],
      requiere_fec: "si ",
    });
    expect(await service.issue("instant", VOUCHER)).toEqual({
      ok: false,
      errors: ["La condicion de IVA no permite B"],
      details: [{ code: "TFC-8004", text: "La condicion de IVA no permite B" }],
      requiresFce: true,
    });
  });

  it('refused with errores [""]: the details\' texts are the errors; a detail with a code alone is kept', async () => {
    const { service } = fake({
      error: "S",
      errores: [""],
      error_details: [{ code: "TFC-8002", text: " referencia invalida " }, { code: "TFC-1" }, { text: "solo texto" }],
      requiere_fec: "NO",
    });
    expect(await service.issue("queued", VOUCHER)).toEqual({
      ok: false,
      errors: ["referencia invalida", "solo texto"],
      details: [
        { code: "TFC-8002", text: "referencia invalida" },
        { code: "TFC-1", text: "" },
        { code: "", text: "solo texto" },
      ],
      requiresFce: false,
    });
    expect(await fake({ error: "S", error_details: "none" }).service.issue("instant", VOUCHER)).toEqual({
      ok: false,
      errors: [],
      details: [],
      requiresFce: false,
    });
  });

  it("the authority being down is the service's failure, not the voucher's: AuthorityDownError", async () => {
    for (const errores of [
      ["El servicio de AFIP no esta disponible en este momento"],
      ["La autoridad fiscal no está disponible", "otra cosa"],
      ["La autoridad \t fiscal no  está  disponible"],
      ["AFIP  no  devolvio  el  CAE"],
      ["ARCA: no disponible"],
      ["AFIP No devolvio el CAE asociado. (Cod. Error #6661141.S1254)"],
      ["ARCA no devolvió el CAE", "AFIP No devolvio el CAE asociado"],
    ]) {
      const error = await failure(fake({ error: "S", errores }).service.issue("instant", VOUCHER));
      expect(error, errores.join()).toBeInstanceOf(AuthorityDownError);
      expect((error as AuthorityDownError).errors).toEqual(errores);
      expect(error.message).toBe(`the tax authority's service is down: ${errores.join("; ")}`);
      expect((error as AuthorityDownError).code).toBe("service.authority-down");
      expect((error as AuthorityDownError).hint).toMatch(
        /^nothing more was sent; run again later, or queue the vouchers/,
      );
      expect((error as AuthorityDownError).outcome).toBe("unavailable");
    }
    // Told in the details only, with a detail that has a code and no text.
    const error = await failure(
      fake({
        error: "S",
        errores: [""],
        error_details: [
          { code: "TFC-6661", text: "" },
          { code: "TFC-6661", text: "AFIP No devolvio el CAE asociado" },
        ],
      }).service.issue("instant", VOUCHER),
    );
    expect((error as AuthorityDownError).errors).toEqual(["AFIP No devolvio el CAE asociado"]);
  });

  it("no CAE came back together with something about the voucher is the voucher's refusal", async () => {
    for (const errores of [
      ["AFIP No devolvio el CAE asociado", "Cod. Error: #6661145.10016 - el numero no es el proximo a autorizar"],
      ["El CUIT no esta disponible para AFIP"],
      ["AFIP informa que el punto de venta esta dado de baja y no estará disponible"],
    ]) {
      const answer = await fake({ error: "S", errores }).service.issue("instant", VOUCHER);
      expect(answer, errores.join()).toMatchObject({ ok: false, errors: errores });
      expect(answer).not.toHaveProperty("unavailable");
    }
  });

  it("an answer whose outcome cannot be read is as lost as a timeout: TransportError, maybe delivered", async () => {
    for (const answer of [{ errores: ["x"] }, { error: "" }, { error: "X" }, { error: null }, { error: ["N"] }]) {
      const error = await failure(fake(answer).service.issue("instant", VOUCHER));
      expect(error, JSON.stringify(answer)).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ kind: "dropped", maybeDelivered: true });
      expect(error.message).toMatch(/^the service's answer to facturacion\/nuevo cannot be read: /);
    }
    const error = await failure(fake({ error: "x" }).service.issue("queued", VOUCHER));
    expect(error.message).toBe('the service\'s answer to facturacion/nuevo_encola cannot be read: error is "x"');
    const none = await failure(fake({ rta: "OK" }).service.issue("queued", VOUCHER));
    expect(none.message).toBe("the service's answer to facturacion/nuevo_encola cannot be read: it has no error field"); // Its words stay a message, for the reader's language (#27); `message` is their English.
    const batch = await failure(
      fake({ error: "N" }).service.issueBatch("instant", [VOUCHER, { comprobante: { external_reference: "R-2" } }]),
    );
    for (const lost of [error, none, batch]) expect(isMessage((lost as TransportError).text)).toBe(true);
  });

  it("PARCIAL to one voucher says nothing sure of it (documented for queue deletions only): a lost answer", async () => {
    const error = await failure(fake({ error: "parcial", errores: ["a medias"] }).service.issue("queued", VOUCHER));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/cannot be read: error is "parcial"/i);
  });
});

describe("issueAnswer read on its own", () => {
  it("an error value that is none of N, S, PARCIAL is malformed, quoted as the service sent it", () => {
    expect(() => issueAnswer("m", { error: " x " }, "instant")).toThrow(MalformedAnswerError);
    expect(() => issueAnswer("m", { error: 1 }, "instant")).toThrow(
      "the service's answer to m cannot be read: error is 1",
    );
    expect(issueAnswer("m", { error: " s ", errores: "uno" }, "instant")).toMatchObject({ ok: false, errors: ["uno"] });
  });
});

describe("issueBatch: lotes and lotes_encola (§6.8)", () => {
  const two = [VOUCHER, { comprobante: { tipo: "FACTURA B", external_reference: "R-2" } }];
  const nth = (n: number) => ({ comprobante: { tipo: "FACTURA B", external_reference: `R-${n}` } });
  const issued = (n: number, ref: unknown = `R-${n - 3}`) => ({
    error: "N",
    comprobante_nro: `00003-0000007${n}`,
    cae: `7512345678901${n}`,
    external_reference: ref,
  });

  it("sends the vouchers as `requests` and matches each item to its voucher by the reference it names", async () => {
    const { service, sent } = fake({ error: "N", errores: [], response: [issued(4), issued(5)] });
    const answer = await service.issueBatch("instant", two);
    expect(sent).toEqual([{ method: "facturacion/lotes", body: { requests: two } }]);
    expect(answer).toEqual({
      items: [
        expect.objectContaining({ ok: true, state: "issued", numero: 74, cae: "75123456789014" }),
        expect.objectContaining({ ok: true, state: "issued", numero: 75, cae: "75123456789015" }),
      ],
    });
    // In another order, each item is still its own voucher's.
    const reordered = await fake({ error: "N", response: [issued(5), issued(4)] }).service.issueBatch("instant", two);
    expect(reordered.items.map((i) => (i.ok ? i.numero : null))).toEqual([74, 75]);
  });

  it("queued: to lotes_encola, each item queued without a number; a reference echoed as a number is read", async () => {
    const numeric = [VOUCHER, { comprobante: { tipo: "FACTURA B", external_reference: "17032" } }];
    const { service, sent } = fake({
      error: "N",
      response: [
        { error: "N", comprobante_nro: "00003-00000000", external_reference: 17032 },
        {
          error: "N",
          comprobante_nro: "00003-00000000",
          cae: " ",
          vencimiento_cae: "01/01/2000",
          external_reference: "R-1",
        },
      ],
    });
    const answer = await service.issueBatch("queued", numeric);
    expect(sent.map((s) => s.method)).toEqual(["facturacion/lotes_encola"]);
    expect(answer.items).toEqual([
      expect.objectContaining({ ok: true, state: "queued", numero: null, cae: null, vencimiento_cae: null }),
      expect.objectContaining({ ok: true, state: "queued", numero: null }),
    ]);
  });

  it("a partial failure at the authority: the items after the failing one, in the order sent, were not processed", async () => {
    const refused = (n: number) => ({ error: "S", errores: ["rechazado"], external_reference: `R-${n}` });
    const four = [nth(1), nth(2), nth(3), nth(4)];
    const { service } = fake({ error: "S", response: [refused(4), issued(4), refused(3), refused(2)] });
    const answer = await service.issueBatch("instant", four);
    expect(answer.items.map((i) => i.ok)).toEqual([true, false, false, false]);
    expect(answer.items[1]).not.toHaveProperty("notProcessed");
    expect(answer.items[2]).toMatchObject({ notProcessed: true });
    expect(answer.items[3]).toMatchObject({ notProcessed: true });
  });

  it("queued items refused one by one are each their own refusal, none 'not processed'", async () => {
    const refused = (n: number) => ({ error: "S", errores: ["sin referencia"], external_reference: `R-${n}` });
    const { service } = fake({ error: "S", response: [refused(1), issued(5), refused(3)] });
    const answer = await service.issueBatch("queued", [nth(1), nth(2), nth(3)]);
    expect(answer.items.map((i) => i.ok)).toEqual([false, true, false]);
    for (const item of answer.items) expect(item).not.toHaveProperty("notProcessed");
  });

  it("refused whole naming a row (counted from 0): that row is the one at fault", async () => {
    const errores = ["El comprobante enviado en la fila 1 (comenzando en 0) tiene un tipo de comprobante diferente."];
    const { service } = fake({ error: "S", errores, response: [] });
    const answer = await service.issueBatch("instant", two);
    expect(answer.refusedRow).toBe(1);
    expect(answer.items).toHaveLength(2);
    for (const item of answer.items) expect(item).toMatchObject({ ok: false, errors: errores });
    expect((await fake({ error: "S", errores: ["FILA  0 mal"] }).service.issueBatch("instant", two)).refusedRow).toBe(
      0,
    );
    const split = await fake({ error: "S", errores: ["enviado en la fila", "1 (comenzando en 0)"] }).service.issueBatch(
      "instant",
      two,
    );
    expect(split.refusedRow).toBe(1);
    const thirteen = Array.from({ length: 13 }, (_, n) => nth(n));
    const late = await fake({ error: "S", errores: ["la fila 12 (comenzando en 0) no sirve"] }).service.issueBatch(
      "instant",
      thirteen,
    );
    expect(late.refusedRow).toBe(12);
  });

  it("an answer without items that names no voucher (a partial queueing, PARCIAL, a row not sent) is a lost answer", async () => {
    for (const answer of [
      { error: "S", errores: ["Esta enviando 300 requests, cuando el limite permitido es 100."], response: [] },
      { error: "S", errores: ["El lote se procesara parcialmente: enviados 2, aceptaron procesar: 1"], response: [] },
      { error: "PARCIAL", errores: ["parcial"], response: [] },
      { error: "S", errores: ["la fila 2 no sirve"] },
      { error: "S", errores: ["afila 1 no sirve"] },
    ]) {
      const error = await failure(fake(answer).service.issueBatch("queued", two));
      expect(error, JSON.stringify(answer)).toBeInstanceOf(TransportError);
      expect(error.message).toMatch(
        /^the service's answer to facturacion\/lotes_encola cannot be read: no item names the vouchers sent/,
      );
    }
  });

  it("refused whole because the authority is down: AuthorityDownError", async () => {
    const error = await failure(
      fake({ error: "S", errores: ["AFIP no esta disponible"], response: [] }).service.issueBatch("instant", two),
    );
    expect(error).toBeInstanceOf(AuthorityDownError);
  });

  it("an answer that does not account for each voucher sent, one to one, is a lost answer", async () => {
    const { external_reference: _, ...anonymous } = issued(4);
    for (const [answer, problem] of [
      [{ error: "N", response: [] }, "no item for the vouchers sent"],
      [{ error: "N", response: "ok" }, "no item for the vouchers sent"],
      [{ error: "N" }, "no item for the vouchers sent"],
      [{ error: "N", response: [issued(4)] }, "1 items for 2 vouchers sent"],
      [{ error: "N", response: [issued(4), null] }, "item 1 is not an answer"],
      [{ error: "N", response: ["x", issued(4)] }, "item 0 is not an answer"],
      [{ error: "N", response: [issued(4), [issued(5)]] }, "item 1 is not an answer"],
      [{ error: "N", response: [issued(4), { error: "?", external_reference: "R-2" }] }, 'error is "?"'],
      [{ error: "N", response: [anonymous, issued(5)] }, "item 0 names no voucher"],
      [{ error: "N", response: [issued(4), issued(5), issued(6)] }, "item 2 names R-3, which was not sent"],
      [{ error: "N", response: [issued(4), issued(5, "R-1")] }, "two items name R-1"],
      [{ error: "N", response: [issued(4), issued(5, 2)] }, "item 1 names 2, which was not sent"],
      [{ errores: [] }, "it has no error field"],
    ] as const) {
      const error = await failure(fake(answer).service.issueBatch("instant", two));
      expect(error, problem).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ kind: "dropped", maybeDelivered: true });
      expect(error.message).toBe(`the service's answer to facturacion/lotes cannot be read: ${problem}`);
    }
  });

  it("a failure other than an unreadable answer passes through as it is", async () => {
    const client = new ApiClient({
      baseUrl: "http://service.invalid/app/api/v2",
      credentials: CREDENTIALS,
      userAgent: "test",
      transport: async () => ({ status: 401, headers: {}, body: Buffer.from('{"error":"S"}') }),
    });
    const error = await failure(new HttpService(client).issueBatch("instant", two));
    expect(error).toBeInstanceOf(FacturarError);
    expect(error).toMatchObject({ code: "service.denied" });
    const single = await failure(new HttpService(client).issue("instant", VOUCHER));
    expect(single).toMatchObject({ code: "service.denied" });
  });
});

describe("consulta_avanzada: by reference, by date, by numbers", () => {
  const item = (ref: unknown, status = "EMITIDO", numero = 74) => ({
    cliente: { razon_social: "Ana" },
    comprobante: { external_reference: ref, status, numero, punto_venta: 3, tipo: "FACTURA B" },
  });

  it("findByReference asks by EXT_REF and keeps the exact matches (the service's search is looser)", async () => {
    const { service, sent } = fake({
      error: "N",
      total: 4,
      comprobantes: [item("R-1"), item("R-10"), item(17032), item(" R-1 ", "EN COLA", 0), { nope: 1 }],
    });
    const found = await service.findByReference("R-1");
    expect(sent).toEqual([
      {
        method: "facturacion/consulta_avanzada",
        body: {
          busqueda_tipo: "EXT_REF",
          comprobante: { external_reference: "R-1", operacion: "V" },
          pagina: 0,
          limite: 1000,
        },
      },
    ]);
    expect(found.map((v) => [v.external_reference, v.state])).toEqual([
      ["R-1", "issued"],
      ["R-1", "queued"],
    ]);
    const numeric = fake({ error: "N", comprobantes: [item(17032)] });
    expect(await numeric.service.findByReference("17032", "C")).toHaveLength(1);
    expect(numeric.sent[0]?.body.comprobante).toEqual({ external_reference: "17032", operacion: "C" });
  });

  it("nothing found is said with an error text: an empty list", async () => {
    expect(
      await fake({ error: "S", errores: ["No se han encontrado comprobantes."] }).service.findByReference("R"),
    ).toEqual([]);
    // Texts are read together, as one sentence: a message cut in two items still says it.
    expect(await fake({ error: "S", errores: ["No se", "encontraron"] }).service.findByReference("R")).toEqual([]);
    expect(await fake({ error: "S", errores: ["no se encontraron resultados"] }).service.findByReference("R")).toEqual(
      [],
    );
  });

  it("any other error stops the listing: the service is unavailable", async () => {
    const error = await failure(
      fake({ error: "S", errores: ["base caida", "reintente"] }).service.findByReference("R"),
    );
    expect(error).toBeInstanceOf(FacturarError);
    expect(error).toMatchObject({
      message: "consulta_avanzada failed: base caida; reintente",
      outcome: "unavailable",
      code: "service.query-failed",
    });
  });

  it("pages until `total` is reached, even when the service serves fewer a page than asked", async () => {
    const { service, sent } = fake(
      { error: "N", total: "3", comprobantes: [item("A"), item("B")] },
      { error: "N", total: 3, comprobantes: [item("C")] },
      { error: "N", total: 3, comprobantes: [item("D")] },
    );
    const got = await collect(service.listByDate("20/11/2026"));
    expect(got.map((v) => v.external_reference)).toEqual(["A", "B", "C"]);
    expect(sent.map((s) => s.body)).toEqual([
      { busqueda_tipo: "F", comprobante: { fecha: "20/11/2026", operacion: "V" }, pagina: 0, limite: 1000 },
      { busqueda_tipo: "F", comprobante: { fecha: "20/11/2026", operacion: "V" }, pagina: 1, limite: 1000 },
    ]);
  });

  it("without `total`, a page shorter than the limit is the last; an empty page ends it too", async () => {
    const full = Array.from({ length: 1000 }, (_, i) => item(`F-${i}`));
    const paged = fake({ error: "N", comprobantes: full }, { error: "N", comprobantes: [item("last")] });
    expect(await collect(paged.service.listByDate("20/11/2026", "C"))).toHaveLength(1001);
    expect(paged.sent.map((s) => s.body.pagina)).toEqual([0, 1]);
    expect(paged.sent[0]?.body.comprobante).toEqual({ fecha: "20/11/2026", operacion: "C" });

    const short = fake({ error: "N", comprobantes: [item("A")] }, { error: "N", comprobantes: [item("B")] });
    expect(await collect(short.service.listByDate("20/11/2026"))).toHaveLength(1);
    expect(short.sent).toHaveLength(1);

    const empty = fake({ error: "N", total: 5, comprobantes: [] }, { error: "N", comprobantes: [item("B")] });
    expect(await collect(empty.service.listByDate("20/11/2026"))).toEqual([]);
    expect(empty.sent).toHaveLength(1);

    const noList = fake({ error: "N", total: 5, comprobantes: "none" }, { error: "N", comprobantes: [item("B")] });
    expect(await collect(noList.service.listByDate("20/11/2026"))).toEqual([]);
    expect(noList.sent).toHaveLength(1);

    const exact = fake({ error: "N", total: 1000, comprobantes: full }, { error: "N", comprobantes: [item("x")] });
    expect(await collect(exact.service.listByDate("20/11/2026"))).toHaveLength(1000);
    expect(exact.sent).toHaveLength(1);
  });

  it("listByNumbers asks by type and number range", async () => {
    const { service, sent } = fake({ error: "N", comprobantes: [item("A")] });
    expect(await collect(service.listByNumbers("FACTURA B", 3, 70, 80))).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      busqueda_tipo: "TN",
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: 3, numero_desde: 70, numero_hasta: 80 },
      pagina: 0,
      limite: 1000,
    });
    const purchases = fake({ error: "N", comprobantes: [] });
    await collect(purchases.service.listByNumbers("FACTURA A", undefined, 1, 2, "C"));
    expect(purchases.sent[0]?.body.comprobante).toEqual({
      tipo: "FACTURA A",
      operacion: "C",
      numero_desde: 1,
      numero_hasta: 2,
    });
  });

  it("findSaleOrPurchase: a reference's sales, else its purchases", async () => {
    const sale = fake({ error: "N", comprobantes: [item("R")] });
    expect(await findSaleOrPurchase(sale.service, "R")).toHaveLength(1);
    expect(sale.sent.map((s) => (s.body.comprobante as { operacion: string }).operacion)).toEqual(["V"]);
    const purchase = fake({ error: "N", comprobantes: [] }, { error: "N", comprobantes: [item("R")] });
    expect(await findSaleOrPurchase(purchase.service, "R")).toHaveLength(1);
    expect(purchase.sent.map((s) => (s.body.comprobante as { operacion: string }).operacion)).toEqual(["V", "C"]);
  });
});

describe("consulta: one voucher by type, point of sale and number", () => {
  it("sends the voucher's keys and reads `cliente` and `comprobante` (§6.9)", async () => {
    const { service, sent } = fake({
      error: "N",
      errores: [""],
      rta: "OK",
      cliente: { razon_social: " Ana " },
      comprobante: { status: "EMITIDO", numero: 74, punto_venta: 3, external_reference: "R-1" },
    });
    const v = await service.voucher("FACTURA B", 3, 74);
    expect(sent).toEqual([
      {
        method: "facturacion/consulta",
        body: { comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: 3, numero: 74 } },
      },
    ]);
    expect(v).toMatchObject({ state: "issued", numero: 74, external_reference: "R-1" });
    expect(v?.raw.cliente).toEqual({ razon_social: "Ana" });
  });

  it("a purchase's answer names its supplier", async () => {
    const { service, sent } = fake({
      error: "N",
      proveedor: { razon_social: "Prov" },
      comprobante: { operacion: "C" },
    });
    const v = await service.voucher("FACTURA A", 2, 9, "C");
    expect(sent[0]?.body.comprobante).toMatchObject({ operacion: "C" });
    expect(v?.raw).toEqual({ proveedor: { razon_social: "Prov" }, comprobante: { operacion: "C" } });
  });

  it("not found is undefined; another refusal is ServiceRefusedError; no comprobante is malformed", async () => {
    expect(
      await fake({ error: "S", errores: ["No se encontro el comprobante"] }).service.voucher("FACTURA B", 3, 1),
    ).toBe(undefined);
    const refused = await failure(
      fake({ error: "S", errores: ["sin permiso", "otra"] }).service.voucher("FACTURA B", 3, 1),
    );
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("consulta failed: sin permiso; otra");
    const malformed = await failure(fake({ error: "N", cliente: {} }).service.voucher("FACTURA B", 3, 1));
    expect(malformed).toBeInstanceOf(MalformedAnswerError);
    expect(malformed.message).toBe(
      "the service's answer to facturacion/consulta cannot be read: it has no comprobante",
    );
    expect(malformed).toMatchObject({ code: "service.malformed", outcome: "unavailable" });
  });
});

describe("actions on an issued voucher", () => {
  const keys = { comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: 3, numero: 74 } };

  it("freshLinks: regenerar_pdf's two links, trimmed; none is null", async () => {
    const { service, sent } = fake({
      error: "N",
      comprobante_pdf_url: " https://x/a.pdf ",
      comprobante_ticket_url: "",
    });
    expect(await service.freshLinks("FACTURA B", 3, 74)).toEqual({ pdf: "https://x/a.pdf", ticket: null });
    expect(sent).toEqual([{ method: "facturacion/regenerar_pdf", body: keys }]);
    const purchase = fake({ error: "N" });
    await purchase.service.freshLinks("FACTURA B", 3, 74, "C");
    expect(purchase.sent[0]?.body.comprobante).toMatchObject({ operacion: "C" });
    const error = await failure(fake({ error: "S", errores: ["no existe"] }).service.freshLinks("FACTURA B", 3, 74));
    expect(error).toBeInstanceOf(ServiceRefusedError);
    expect(error.message).toBe("no documents for FACTURA B 3-74: no existe");
  });

  it("resend: reenviar, once", async () => {
    const { service, sent } = fake({ error: "N" });
    await expect(service.resend("FACTURA B", 3, 74)).resolves.toBeUndefined();
    expect(sent).toEqual([{ method: "facturacion/reenviar", body: keys }]);
    const purchase = fake({ error: "N" });
    await purchase.service.resend("FACTURA A", 3, 74, "C");
    expect(purchase.sent[0]?.body.comprobante).toMatchObject({ operacion: "C" });
    const error = await failure(fake({ error: "S", errores: ["sin email"] }).service.resend("FACTURA B", 3, 74));
    expect(error).toBeInstanceOf(ServiceRefusedError);
    expect(error.message).toBe("FACTURA B 00003-00000074 was not e-mailed again: sin email");
    const silent = await failure(fake({ error: "S", errores: [""] }).service.resend("FACTURA B", 3, 74));
    expect(silent.message).toBe("FACTURA B 00003-00000074 was not e-mailed again: the service said no");
    expect(silent).toMatchObject({ outcome: "rejected", code: "service.error", errors: [] });
  });

  it("pay: pagar with the amounts as numbers", async () => {
    const { service, sent } = fake({ error: "N", errores: [""] });
    await expect(
      service.pay("FACTURA B", 3, 74, [{ descripcion: "Efectivo", importe: "1200.50" }], "1200.50"),
    ).resolves.toBeUndefined();
    expect(sent).toEqual([
      {
        method: "facturacion/pagar",
        body: {
          comprobante: {
            ...keys.comprobante,
            pagos: { formas_pago: [{ descripcion: "Efectivo", importe: 1200.5 }], total: 1200.5 },
          },
        },
      },
    ]);
    const error = await failure(fake({ error: "S", errores: ["ya pagada"] }).service.pay("FACTURA B", 3, 74, [], "1"));
    expect(error).toBeInstanceOf(ServiceRefusedError);
    expect(error.message).toBe("the payment of FACTURA B 00003-00000074 was not recorded: ya pagada");
  });

  it("deletePurchase: comprobante_eliminar on a purchase, the service's text back", async () => {
    const { service, sent } = fake({ error: "N", errores: [], rta: " El comprobante fue eliminado. " });
    expect(await service.deletePurchase("FACTURA A", 2, 9)).toBe("El comprobante fue eliminado.");
    expect(sent).toEqual([
      {
        method: "facturacion/comprobante_eliminar",
        body: { comprobante: { tipo: "FACTURA A", operacion: "C", punto_venta: 2, numero: 9 } },
      },
    ]);
    const error = await failure(fake({ error: "S", errores: ["no existe"] }).service.deletePurchase("FACTURA A", 2, 9));
    expect(error).toBeInstanceOf(ServiceRefusedError);
    expect(error.message).toBe("the purchase FACTURA A 00002-00000009 was not deleted: no existe");
  });
});

describe("the registry, the plan, ledgers and products", () => {
  it("registry: afip-info's record, its condition also as a voucher's code", async () => {
    const { service, sent } = fake({
      error: "N",
      errores: ["ignored"],
      razon_social: " ACME SA ",
      condicion_impositiva: "responsable inscripto",
      direccion: "Calle 1 ",
      localidad: " CABA",
      codigopostal: 1000,
      provincia: "Ciudad de Buenos Aires",
      estado: "ACTIVO",
      actividad: [{ id: 620100, descripcion: " Software ", periodo: 201901, nomenclador: 883 }, null, "x"],
    });
    expect(await service.registry("30712345678")).toEqual({
      cuit: "30712345678",
      razon_social: "ACME SA",
      condicion_impositiva: "RESPONSABLE INSCRIPTO",
      condicion_iva: "RI",
      direccion: "Calle 1",
      localidad: "CABA",
      codigopostal: "1000",
      provincia: "Ciudad de Buenos Aires",
      estado: "ACTIVO",
      actividad: [{ id: "620100", descripcion: "Software", periodo: "201901" }],
      errors: [],
    });
    expect(sent).toEqual([
      { method: "clientes/afip-info", body: { cliente: { documento_tipo: "CUIT", documento_nro: "30712345678" } } },
    ]);
    for (const [condicion, code] of [
      ["MONOTRIBUTO", "M"],
      ["EXENTO", "E"],
      ["", null],
      ["toString", null],
    ] as const) {
      const r = await fake({ error: "N", razon_social: "X", condicion_impositiva: condicion }).service.registry("1");
      expect(r.condicion_iva, condicion).toBe(code);
      expect(r.actividad).toEqual([]);
    }
  });

  it("registry: registered in neither comes with its data and error S; a refusal without data throws", async () => {
    const neither = await fake({ error: "S", errores: ["no inscripto en IVA"], razon_social: "JUAN" }).service.registry(
      "20111111112",
    );
    expect(neither).toMatchObject({ razon_social: "JUAN", condicion_iva: null, errors: ["no inscripto en IVA"] });
    const refused = await failure(fake({ error: "S", errores: ["CUIT invalido"] }).service.registry("1"));
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("no registry record for CUIT 1: CUIT invalido");
    const empty = await failure(fake({ error: "N", razon_social: " " }).service.registry("1"));
    expect(empty).toBeInstanceOf(MalformedAnswerError);
    expect(empty.message).toMatch(/it has no razon_social$/);
  });

  it("registry: its double-encoded texts repaired (§6.3), Windows-1252 or Latin-1; correct ones as they came", async () => {
    const r = await fake({
      error: "N",
      razon_social: "MUÃ‘OZ MARIA",
      direccion: "AV. CÃ³RDOBA 1234",
      localidad: "SAN MARTÍN",
      provincia: "ENTRE RÃOS",
      condicion_impositiva: "MONOTRIBUTO",
      actividad: [
        { id: "620100", descripcion: "SERVICIOS DE CONSULTORES EN INFORM\u00c3\u0081TICA", periodo: "201311" },
      ],
    }).service.registry("27334445556");
    expect(r).toMatchObject({
      razon_social: "MUÑOZ MARIA",
      direccion: "AV. CóRDOBA 1234",
      localidad: "SAN MARTÍN",
      provincia: "ENTRE RÍOS",
      actividad: [{ descripcion: "SERVICIOS DE CONSULTORES EN INFORMÁTICA" }],
    });
  });

  it("usage: consumo's documented counts, no more; one missing is malformed", async () => {
    const { service, sent } = fake({
      error: "N",
      comprobantes_generados: "12",
      comprobantes_cupo: 100,
      comprobantes_disponibles: 88,
      plan_vencimiento: "31/12/2026",
    });
    // The documented fields alone: a plan end the page does not show is not read.
    expect(await service.usage()).toEqual({
      abonos_pendientes: 0,
      comprobantes_generados: 12,
      comprobantes_cupo: 100,
      comprobantes_disponibles: 88,
    });
    expect(sent).toEqual([{ method: "micuenta/consumo", body: {} }]);
    const full = { error: "N", abonos_pendientes: 2, comprobantes_generados: 1, comprobantes_cupo: 2 };
    const missing = await failure(fake(full).service.usage());
    expect(missing).toBeInstanceOf(MalformedAnswerError);
    expect(missing.message).toMatch(/it has no comprobantes_disponibles$/);
    expect(await fake({ ...full, comprobantes_disponibles: 1 }).service.usage()).toEqual({
      abonos_pendientes: 2,
      comprobantes_generados: 1,
      comprobantes_cupo: 2,
      comprobantes_disponibles: 1,
    });
    const refused = await failure(fake({ error: "S", errores: ["x"] }).service.usage());
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("consumo failed: x");
  });

  it("customerLedger: the rows of `resultados` (or a `response` list), amounts with 2 decimals", async () => {
    const row = { fecha: "01/11/2026 ", concepto: " FACTURA B", debe: 1210.5, haber: "0", saldo: "1210.5" };
    const { service, sent } = fake({ error: "N", resultados: [row, null, "x"], response: [row, row] });
    expect(await service.customerLedger("30712345678")).toEqual([
      {
        fecha: "01/11/2026",
        concepto: "FACTURA B",
        debe: "1210.50",
        haber: "0.00",
        resta_abonar_de_este_comprobante: "0.00",
        saldo: "1210.50",
      },
    ]);
    expect(sent).toEqual([
      {
        method: "clientes/cuenta-corriente",
        body: { cliente: { documento_tipo: "CUIT", documento_nro: "30712345678" } },
      },
    ]);
    expect(await fake({ error: "N", response: [row, row] }).service.customerLedger("1")).toHaveLength(2);
    expect(await fake({ error: "N", response: "none" }).service.customerLedger("1")).toEqual([]);
    const refused = await failure(fake({ error: "S", errores: ["x"] }).service.customerLedger("1"));
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("no ledger for CUIT 1: x");
  });

  it("products: one page, each product trimmed, its own error fields left out, pesos by default", async () => {
    const { service, sent } = fake({
      error: "N",
      total: "40",
      productos: [
        {
          codigo: " P1 ",
          lista_precios: "General",
          descripcion: "Cable ",
          precio_unitario_sin_iva: 100,
          alicuota: 21,
          moneda: "",
          unidad_medida: 7,
          error: "N",
          errores: [],
          stock: " 3 ",
        },
        null,
      ],
    });
    const page = { pagina: 1, limite: 20, orden: "ASC" as const };
    expect(await service.products(page)).toEqual({
      total: 40,
      productos: [
        {
          codigo: "P1",
          lista_precios: "General",
          descripcion: "Cable",
          precio_unitario_sin_iva: "100",
          alicuota: "21",
          moneda: "PES",
          unidad_medida: "7",
          stock: "3",
        },
      ],
    });
    expect(sent).toEqual([{ method: "productos/listar", body: page }]);
    const counted = await fake({ error: "N", productos: [{ moneda: "DOL" }, "x"] }).service.products(page);
    expect(counted.total).toBe(1);
    expect(counted.productos[0]?.moneda).toBe("DOL");
    expect(await fake({ error: "N", productos: {} }).service.products(page)).toEqual({ total: 0, productos: [] });
    const refused = await failure(fake({ error: "S", errores: ["x"] }).service.products(page));
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("productos/listar failed: x");
  });

  it("productsByCode: in the order asked, each a product or why not", async () => {
    const wanted = [
      { lista_precios: "General", codigo: "P1" },
      { lista_precios: "General", codigo: "P2" },
      { lista_precios: "General", codigo: "P3" },
      { lista_precios: "General", codigo: "P4" },
    ];
    const { service, sent } = fake({
      error: "S",
      productos: [
        { codigo: "P1", descripcion: "Uno", error: "N" },
        { codigo: "P2", error: " s ", errores: ["no existe", "de verdad"] },
        { codigo: "P3", error: "S", errores: [""] },
      ],
    });
    expect(await service.productsByCode(wanted)).toEqual([
      expect.objectContaining({ codigo: "P1", descripcion: "Uno" }),
      { error: "no existe; de verdad" },
      { error: "the service said no" },
      { error: "the service returned no item for it" },
    ]);
    expect(sent).toEqual([{ method: "productos/consultar", body: { productos: wanted } }]);
    const missing = await fake({ error: "N", productos: [null] }).service.productsByCode(wanted.slice(0, 1));
    expect(missing).toEqual([{ error: "the service returned no item for it" }]);
    expect(await fake({ error: "N" }).service.productsByCode(wanted.slice(0, 1))).toEqual([
      { error: "the service returned no item for it" },
    ]);
    const refused = await failure(
      fake({ error: "S", errores: ["x"], productos: "none" }).service.productsByCode(wanted),
    );
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("productos/consultar failed: x");
  });

  it("referenceTable: the documented items, read as records", async () => {
    const { service, sent } = fake({ error: "N", items: [{ id: 1, descripcion: " Pesos " }, null, "DOL"] });
    expect(await service.referenceTable("monedas")).toEqual({
      at: "items",
      items: [
        { id: "1", descripcion: "Pesos" },
        { id: "DOL", descripcion: "" },
      ],
      records: [{ id: 1, descripcion: " Pesos " }, "DOL"],
    });
    expect(sent).toEqual([{ method: "tablas_referencia/monedas", body: {} }]);
    const refused = await failure(fake({ error: "S", errores: ["x"] }).service.referenceTable("monedas"));
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("tablas_referencia/monedas failed: x");
  });

  it("referenceTable: any list of records, wherever it is and whatever its fields are called (§14.4)", async () => {
    const read = async (answer: unknown) => {
      const table = await fake(answer).service.referenceTable("provincias");
      return { at: table.at, items: table.items };
    };
    // The answer is the list itself.
    expect(
      await read([
        { codigo: 1, nombre: "CABA" },
        { codigo: "2", nombre: "Buenos Aires" },
      ]),
    ).toEqual({
      at: "",
      items: [
        { id: "1", descripcion: "CABA" },
        { id: "2", descripcion: "Buenos Aires" },
      ],
    });
    // Under another key, other field names, in any case and with accents.
    expect(await read({ error: "N", errores: [""], datos: [{ Code: 6, Descripción: "Córdoba" }] })).toEqual({
      at: "datos",
      items: [{ id: "6", descripcion: "Córdoba" }],
    });
    expect(await read({ error: "N", resultado: [{ id: 21, detalle: "Santa Fe" }] })).toMatchObject({
      items: [{ id: "21", descripcion: "Santa Fe" }],
    });
    // Nested, and records that are pairs.
    expect(await read({ error: "N", rta: "OK", resultado: { tabla: [["10", "Jujuy"]] } })).toEqual({
      at: "resultado.tabla",
      items: [{ id: "10", descripcion: "Jujuy" }],
    });
    // Fields with names of their own: the first is the code, the rest the description.
    expect(await read({ error: "N", lista: [{ prov: 17, texto_largo: "Salta", region: "NOA" }] })).toEqual({
      at: "lista",
      items: [{ id: "17", descripcion: "Salta - NOA" }],
    });
    // A code field and no description field: the other fields describe it.
    expect(await read({ error: "N", tabla: [{ valor: "CF", leyenda_corta: "Consumidor final" }] })).toMatchObject({
      items: [{ id: "CF", descripcion: "Consumidor final" }],
    });
    // No `error` field beside the list: the list all the same.
    expect(await read({ tabla: [{ id: "12", descripcion: "La Rioja" }] })).toMatchObject({
      items: [{ id: "12", descripcion: "La Rioja" }],
    });
    // The error texts are never the list; an empty list is a list.
    expect(await read({ error: "N", errores: ["", "aviso"], items: [] })).toEqual({ at: "items", items: [] });
  });

  it("referenceTable: an answer with no list of records says so, naming what it has", async () => {
    const none = await failure(
      fake({ error: "N", errores: [""], rta: "OK", items: "x" }).service.referenceTable("monedas"),
    );
    expect(none).toBeInstanceOf(MalformedAnswerError);
    expect(none.message).toBe(
      "the service's answer to tablas_referencia/monedas cannot be read: it holds no list of records (its fields: error, errores, rta, items)",
    );
  });
});

describe("a voucher that failed in the queue, as consulta_avanzada lists it", () => {
  const failed = (extra: Record<string, unknown>) =>
    serviceVoucher({
      comprobante: { tipo: "FACTURA B", status: "ENVIADO A PROCESAR - CON ERROR", numero: 0, ...extra },
    }) as ServiceVoucher;

  it("without a reason (the documented item has none): its status, the reason told missing", () => {
    expect(failed({})).toMatchObject({
      state: "queue-error",
      errors: ["ENVIADO A PROCESAR - CON ERROR"],
      reasonMissing: true,
    });
  });

  it("the authority's observations, a documented field, are the reason where they come", () => {
    expect(failed({ afip_observaciones: ["10015 - el CUIT no existe"] })).toMatchObject({
      errors: ["10015 - el CUIT no existe"],
      reasonMissing: false,
    });
  });

  it("an undocumented errores list is read too, where a service sends one", () => {
    expect(failed({ errores: ["", "CUIT invalido"] })).toMatchObject({
      errors: ["CUIT invalido"],
      reasonMissing: false,
    });
  });
});

describe("the queue's actions", () => {
  it("requeue, deleteQueued and reschedule send the reference (and dates) to their methods", async () => {
    const { service, sent } = fake({ error: "N", errores: [] });
    expect(await service.requeue("R-1")).toEqual({ partial: false, processed: [], errors: [] });
    await service.deleteQueued("R-1");
    await service.deleteQueued("R-1", "20/11/2026");
    await service.reschedule("R-1", "25/11/2026", "05/12/2026");
    expect(sent).toEqual([
      { method: "facturacion/reenviar_encolado", body: { external_reference: "R-1" } },
      { method: "facturacion/eliminar_encolado", body: { external_reference: "R-1" } },
      { method: "facturacion/eliminar_encolado", body: { external_reference: "R-1", fecha: "20/11/2026" } },
      {
        method: "facturacion/cambiar_fecha_encolado",
        body: { external_reference: "R-1", fecha: "25/11/2026", vencimiento: "05/12/2026" },
      },
    ]);
  });

  it("PARCIAL: some processed, with the texts of those that were and the errors of the rest", async () => {
    const { service } = fake({
      error: "PARCIAL",
      errores: ["uno no se pudo"],
      procesados_cant: 1,
      procesados: ["El comprobante FACTURA A 00010-00000000 se ha eliminado correctamente. ", "", 7],
    });
    expect(await service.deleteQueued("R-1")).toEqual({
      partial: true,
      processed: ["El comprobante FACTURA A 00010-00000000 se ha eliminado correctamente.", "7"],
      errors: ["uno no se pudo"],
    });
    expect((await fake({ error: "N", procesados: "x" }).service.deleteQueued("R")).processed).toEqual([]);
  });

  it("S: ServiceRefusedError naming the reference", async () => {
    const error = await failure(
      fake({ error: "S", errores: ["No se han encontrado comprobantes."] }).service.requeue("R-9"),
    );
    expect(error).toBeInstanceOf(ServiceRefusedError);
    expect(error.message).toBe("R-9: No se han encontrado comprobantes.");
    expect((error as ServiceRefusedError).errors).toEqual(["No se han encontrado comprobantes."]);
  });
});

describe("numbering, credit invoices, ceilings, rates and status", () => {
  it("nextNumber: numeracion's next number, sent as a number or a text", async () => {
    const { service, sent } = fake({
      error: "N",
      errores: [""],
      rta: "OK",
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: 3, numero: "75" },
    });
    expect(await service.nextNumber("FACTURA B", 3)).toBe(75);
    expect(sent).toEqual([
      {
        method: "facturacion/numeracion",
        body: { comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: 3 } },
      },
    ]);
    const none = await failure(fake({ error: "N" }).service.nextNumber("FACTURA B", 3));
    expect(none).toBeInstanceOf(MalformedAnswerError);
    expect(none.message).toMatch(/it has no number$/);
    const refused = await failure(fake({ error: "S", errores: ["x"] }).service.nextNumber("FACTURA B", 3));
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("numeracion failed: x");
  });

  it("requiresFce: the CUIT sent as a number, the answer read", async () => {
    const { service, sent } = fake({ error: "N", errores: [], rta: "", esta_obligado: "s ", importe_desde: 100000 });
    expect(await service.requiresFce("30712345678")).toEqual({ obligated: true, from: 100000 });
    await service.requiresFce("30712345678", "20/11/2026");
    expect(sent).toEqual([
      { method: "facturacion/requiere_fec", body: { cuit: 30712345678 } },
      { method: "facturacion/requiere_fec", body: { cuit: 30712345678, fecha: "20/11/2026" } },
    ]);
    expect(await fake({ error: "N", esta_obligado: "N" }).service.requiresFce("1")).toEqual({
      obligated: false,
      from: 0,
    });
    const refused = await failure(
      fake({ error: "S", errores: ["El CUIT enviado es invalido."] }).service.requiresFce("1"),
    );
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("requiere_fec failed: El CUIT enviado es invalido.");
  });

  it("ceiling: topecf's amount with 2 decimals; no positive amount is a refusal", async () => {
    const { service, sent } = fake({ error: "N", errores: [], monto: "191624.5" });
    expect(await service.ceiling()).toBe("191624.50");
    expect(sent).toEqual([{ method: "facturacion/topecf", body: {} }]);
    for (const [answer, said] of [
      [{ error: "N", monto: 0 }, "0"],
      [{ error: "N", monto: -1 }, "-1"],
      [{ error: "N" }, undefined],
      [{ error: "S", monto: 5, errores: ["sin tope", "hoy"] }, "sin tope; hoy"],
    ] as const) {
      const error = await failure(fake(answer).service.ceiling());
      expect(error).toBeInstanceOf(FacturarError);
      expect(error).toMatchObject({ outcome: "rejected", code: "service.topecf" });
      expect(error.message).toBe(`topecf did not answer a ceiling: ${said}`);
    }
    expect(await fake({ error: "N", monto: 0.01 }).service.ceiling()).toBe("0.01");
  });

  it("exchangeRate: cotizacion as the service writes it, a comma read as a point", async () => {
    const { service, sent } = fake({ error: "N", cotizacion: " 1015,50 " });
    expect(await service.exchangeRate("DOL")).toBe("1015.50");
    await service.exchangeRate("DOL", "01/11/2026");
    expect(sent).toEqual([
      { method: "tablas_referencia/cotizacion", body: { moneda: "DOL" } },
      { method: "tablas_referencia/cotizacion", body: { moneda: "DOL", fecha: "01/11/2026" } },
    ]);
    expect(await fake({ error: "N", cotizacion: 15 }).service.exchangeRate("DOL")).toBe("15");
    for (const [cotizacion, shown] of [
      ["0", '"0"'],
      ["0.00", '"0.00"'],
      ["abc", '"abc"'],
      ["1.2.3", '"1.2.3"'],
      ["x15.10", '"x15.10"'],
      ["15.10x", '"15.10x"'],
      ["15.", '"15."'],
      [undefined, "null"],
    ] as const) {
      const error = await failure(fake({ error: "N", cotizacion }).service.exchangeRate("DOL"));
      expect(error, String(cotizacion)).toBeInstanceOf(MalformedAnswerError);
      expect(error.message).toBe(
        `the service's answer to tablas_referencia/cotizacion cannot be read: cotizacion is ${shown}`,
      );
    }
    const refused = await failure(fake({ error: "S", errores: ["x"] }).service.exchangeRate("XYZ"));
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect(refused.message).toBe("no exchange rate for XYZ: x");
  });

  it("status: alertas OK, and its alert shape (§6.6)", async () => {
    const maintenance = { desde: "01/12/2026 00:00", hasta: "01/12/2026 02:00", titulo: "T", texto: "X" };
    const { service, sent } = fake({
      error: "N",
      errores: [""],
      rta: "OK",
      facturacion: "ok ",
      prox_mantenimientos_programados: [maintenance, null, "x"],
      novedades: " nada ",
    });
    expect(await service.status()).toEqual({
      ok: true,
      answered: true,
      facturacion: "ok",
      maintenance: [maintenance],
      novedades: "nada",
      errors: [],
    });
    expect(sent).toEqual([{ method: "estado_servicios/alertas", body: {} }]);
    expect(await fake({ error: "S", errores: [], facturacion: "OK", rta: "ERROR" }).service.status()).toMatchObject({
      ok: false,
      answered: false,
    });
    expect(
      await fake({ error: "N", facturacion: "Demoras en AFIP", prox_mantenimientos_programados: {} }).service.status(),
    ).toEqual({
      ok: false,
      answered: true,
      facturacion: "Demoras en AFIP",
      maintenance: [],
      novedades: "",
      errors: [],
    });
    expect(await fake({ error: "S", errores: ["caido"] }).service.status()).toEqual({
      ok: false,
      answered: false,
      facturacion: null,
      maintenance: [],
      novedades: "",
      errors: ["caido"],
    });
    expect(await fake({ error: "N" }).service.status()).toMatchObject({ ok: false, answered: true, facturacion: null });
  });
});

describe("the envelope every answer has", () => {
  it("no `error`, or one that is none of N, S, PARCIAL: MalformedAnswerError naming the method", async () => {
    const none = await failure(fake({ rta: "OK" }).service.usage());
    expect(none).toBeInstanceOf(MalformedAnswerError);
    expect(none).toBeInstanceOf(UnavailableError);
    expect(none.message).toBe("the service's answer to micuenta/consumo cannot be read: it has no error field");
    expect((none as MalformedAnswerError).hint).toBe(
      "the base URL may point at something else than the service, or a proxy is in the way",
    );
    const empty = await failure(fake({ error: " " }).service.usage());
    expect(empty.message).toMatch(/it has no error field$/);
    const odd = await failure(fake({ error: "maybe" }).service.usage());
    expect(odd.message).toBe('the service\'s answer to micuenta/consumo cannot be read: error is "maybe"');
    const numeric = await failure(fake({ error: 0 }).service.usage());
    expect(numeric.message).toBe('the service\'s answer to micuenta/consumo cannot be read: error is "0"');
  });

  it("the error value in any case and padded", async () => {
    expect(await fake({ error: " n ", monto: 1 }).service.ceiling()).toBe("1.00");
    const refused = await failure(fake({ error: "s", errores: ["x"] }).service.usage());
    expect(refused).toBeInstanceOf(ServiceRefusedError);
    expect((await fake({ error: "Parcial" }).service.deleteQueued("R")).partial).toBe(true);
  });

  it("baseUrl and download go to the client", async () => {
    const response: HttpResponse = { status: 200, headers: {}, body: Buffer.from("%PDF") };
    const asked: URL[] = [];
    const client = {
      baseUrl: new URL("http://service.invalid/app/api/v2/"),
      download: async (url: URL) => {
        asked.push(url);
        return response;
      },
    } as unknown as ApiClient;
    const service = new HttpService(client);
    expect(service.baseUrl.href).toBe("http://service.invalid/app/api/v2/");
    const url = new URL("http://service.invalid/a.pdf");
    expect(await service.download(url)).toBe(response);
    expect(asked).toEqual([url]);
  });
});

describe("refusalCauses: what a refusal's words say follows from it", () => {
  it("reads numbering and dates, a number not the next, queued vouchers, the VAT condition and FCE", () => {
    const causes = (errors: string[], codes: string[] = [], fce = false) =>
      [...refusalCauses(errors, codes, fce)].sort();
    expect(causes(["Error 10016: el numero no es el proximo a emitir"])).toEqual(["next-number", "sequence"]);
    expect(causes(["La fecha del comprobante es anterior a la del ultimo emitido (10015)"])).toEqual(["sequence"]);
    expect(causes(["El punto de venta tiene comprobantes encolados"])).toEqual(["queue-blocked"]);
    expect(causes(["La condicion frente al IVA no permite el tipo"], ["TFC-8004"])).toEqual(["vat-condition"]);
    expect(causes([], [], true)).toEqual(["requires-fce"]);
    expect(causes(["El CUIT es invalido"])).toEqual([]);
    expect(causes(["Tu CUIT+PDV no posee una direccion de Webhook valida."])).toEqual(["webhook-missing"]);
    // A customer's document number, a due date: the voucher's own, not its lane's sequence.
    expect(causes(["fila 1 (comenzando en 0): el numero de documento del cliente es invalido"])).toEqual([]);
    expect(causes(["El campo vencimiento debe tener el formato dd/mm/aaaa"])).toEqual([]);
    expect(causes(["Campo CbteFch debe estar comprendido en el rango N-5 y N+5"])).toEqual(["sequence"]);
    expect(
      causes(["El comprobante enviado en la fila 2 (comenzando en 0) no esta ordenado por fecha y numero."]),
    ).toEqual(["sequence"]);
  });
});

describe("a point of sale without a webhook URL (reference §6.7 Prerequisites, §12)", () => {
  const refusal = (extra: Record<string, unknown> = {}) => ({
    error: "S",
    errores: ["Tu CUIT+PDV no posee una direccion de webhook valida."],
    error_cod: [],
    error_details: [],
    ...extra,
  });

  it("nuevo_encola refused for it: a typed error with the hint, not one voucher's refusal", async () => {
    const { service } = fake(refusal({ external_reference: "R-1" }));
    const error = await failure(service.issue("queued", VOUCHER));
    expect(error).toBeInstanceOf(WebhookRequiredError);
    expect((error as WebhookRequiredError).outcome).toBe("rejected");
    expect(error.message).toMatch(/refuses queued vouchers at this point of sale: Tu CUIT\+PDV no posee/);
    expect((error as WebhookRequiredError).hint).toMatch(/webhook URL on the point of sale.*does not replace/);
    // An instant call has no webhook to want: a refusal that speaks of one is the voucher's.
    const instant = await fake(refusal({ external_reference: "R-1" })).service.issue("instant", VOUCHER);
    expect(instant).toMatchObject({ ok: false, errors: ["Tu CUIT+PDV no posee una direccion de webhook valida."] });
  });

  it("lotes_encola refused whole for it (no items): the typed error, no lost answer", async () => {
    const { service } = fake(refusal({ response: [] }));
    const error = await failure(
      service.issueBatch("queued", [VOUCHER, { comprobante: { external_reference: "R-2" } }]),
    );
    expect(error).toBeInstanceOf(WebhookRequiredError);
    // An item that speaks of it is that voucher's refusal, among the others' answers.
    const { service: items } = fake({
      error: "S",
      errores: [],
      response: [
        { error: "S", errores: ["Sin direccion de webhook."], external_reference: "R-1" },
        { error: "N", errores: [], external_reference: "R-2", comprobante_nro: "00679-00000000", cae: " " },
      ],
    });
    const batch = await items.issueBatch("queued", [VOUCHER, { comprobante: { external_reference: "R-2" } }]);
    expect(batch.items.map((i) => i.ok)).toEqual([false, true]);
  });
});
