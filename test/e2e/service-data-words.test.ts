/**
 * The service's data is data: a JSON renderer says only the messages facturar made (#27), never
 * an object of the service's answer that happens to look like one ({"template": …}). A fake
 * service on loopback answers a query with such objects: one that would be translated, and one
 * that would say terabytes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshUser, ndjson, ROOT, runCli } from "../helpers.js";
import { type Loopback, serveLoopback } from "../loopback.js";

const SAMPLE = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
let bomb: unknown = { template: "xxxxxxxxxx" };
for (let i = 0; i < 7; i++) bomb = { template: "{a}".repeat(40), params: { a: bomb } };
const LOOKALIKE = { template: "not at the service" };

let service: Loopback;
beforeAll(async () => {
  service = await serveLoopback((_req, res) => {
    const comprobante = {
      ...SAMPLE.comprobante,
      punto_venta: 3,
      numero: 7,
      status: "EMITIDO",
      cae: "71234567890123",
      vencimiento_cae: "30/11/2026",
      comprobante_pdf_url: "",
      comprobante_ticket_url: "",
      micrositios: LOOKALIKE,
      datos_de_otro_sistema: bomb,
    };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        rta: "OK",
        error: "N",
        total: 1,
        errores: [],
        comprobantes: [{ cliente: SAMPLE.cliente, comprobante }],
      }),
    );
  });
});
afterAll(() => service?.close());

describe("an answer holding objects shaped like messages", () => {
  it("is passed on by query --json as the service sent it, in any language", async () => {
    const u = freshUser("facturar-service-words-");
    for (const lang of ["C.UTF-8", "es_AR.UTF-8"]) {
      const r = await runCli(["--json", "query", "--ref", SAMPLE.comprobante.external_reference], {
        cwd: u.cwd,
        env: {
          ...u.env,
          LANG: lang,
          FACTURAR_BASE_URL: service.baseUrl,
          FACTURAR_USERTOKEN: "u",
          FACTURAR_APIKEY: "k",
          FACTURAR_APITOKEN: "t",
        },
      });
      expect(r.code, r.stderr).toBe(0);
      const [found] = ndjson(r.stdout);
      expect(found.comprobante.micrositios).toEqual(LOOKALIKE);
      expect(found.comprobante.datos_de_otro_sistema).toEqual(bomb);
    }
  });
});
