/**
 * The test of fidelity (issue 14): the vendor's documentation examples, posted as published to a
 * running `facturar sandbox` with only the credentials, point of sale, dates and clashing numbers
 * replaced (test/vendor-examples.ts). Those the references judge correct are accepted, and
 * `facturar validate` accepts them too; each of the others is refused with the reason the real
 * service gives it (test/fixtures/vendor-examples/README.md lists them).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHere } from "../cli-here.js";
import { freshUser, TODAY } from "../helpers.js";
import { type RunningSandbox, startSandboxProcess } from "../sandbox-process.js";
import {
  adaptVendorExample,
  haveVendorExamples,
  readVendorExample,
  requestsOf,
  vendorExampleFiles,
} from "../vendor-examples.js";

const ACCEPTED = "accepted";
const OLD_CODES = "La condicion de pago enviada no es valida.";
const NO_DUE_DATE = "El campo vencimiento debe tener el formato dd/mm/aaaa.";
const SHORT_TEXT = "la descripcion del producto debe tener entre 4 y 255 caracteres.";
const BAD_CUIT = "El CUIT enviado es invalido.";
const MONOTRIBUTO_B = "La condicion frente al IVA del cliente (M) no permite emitir un comprobante tipo B.";

/** Every example, the method its page posts it to, and what the real service does with it. */
const EXPECTED: Record<string, { method: string; outcome: string[] | typeof ACCEPTED }> = {
  "d24--README.json": { method: "nuevo", outcome: ["#6661145.10119"] },
  "d24--como-empiezo.json": { method: "nuevo", outcome: ACCEPTED },
  "d24--factura-a-nota-de-debito-a-nota-de-credito-a.json": { method: "nuevo", outcome: ACCEPTED },
  "d24--factura-a-nota-de-debito-a-nota-de-credito-a-2.json": { method: "nuevo", outcome: ACCEPTED },
  "d24--factura-a-nota-de-debito-a-nota-de-credito-a-3.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-a-nota-de-debito-a-nota-de-credito-a-4.json": { method: "nuevo", outcome: ACCEPTED },
  "d24--factura-c-nota-de-debito-c-nota-de-credito-c.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-c-nota-de-debito-c-nota-de-credito-c-2.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-c-nota-de-debito-c-nota-de-credito-c-3.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-c-nota-de-debito-c-nota-de-credito-c-4.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-electronica-afip-exportacion.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-nota-de-debito-b-nota-de-credito-bb.json": { method: "nuevo", outcome: ACCEPTED },
  "d24--factura-nota-de-debito-b-nota-de-credito-bb-2.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "d24--factura-nota-de-debito-b-nota-de-credito-bb-3.json": { method: "nuevo", outcome: [SHORT_TEXT] },
  "dh--README.json": {
    method: "nuevo",
    outcome: ["Las notas de credito y debito deben informar comprobantes asociados o un periodo."],
  },
  "dh--api-facturacion-por-lotes.json": { method: "lotes", outcome: [NO_DUE_DATE, MONOTRIBUTO_B, BAD_CUIT] },
  "dh--factura-a-nota-de-debito-a-nota-de-credito-a.json": { method: "nuevo", outcome: [NO_DUE_DATE, SHORT_TEXT] },
  "dh--factura-c-nota-de-debito-c-nota-de-credito-c.json": { method: "nuevo", outcome: [NO_DUE_DATE, BAD_CUIT] },
  "dh--factura-de-credito-electronica-mipyme-fce.json": {
    method: "nuevo",
    outcome: [NO_DUE_DATE, SHORT_TEXT, OLD_CODES],
  },
  "dh--factura-electronica-afip-exportacion.json": {
    method: "nuevo",
    outcome: [NO_DUE_DATE, OLD_CODES, "El CUIT del comprobante asociado es invalido."],
  },
  "dh--factura-nota-de-debito-b-nota-de-credito-bb.json": {
    method: "nuevo",
    outcome: [NO_DUE_DATE, MONOTRIBUTO_B, BAD_CUIT],
  },
  "dh--nuevo-comprobante-de-venta-async.json": {
    method: "lotes",
    outcome: [NO_DUE_DATE, MONOTRIBUTO_B, BAD_CUIT, OLD_CODES],
  },
};

describe.skipIf(!haveVendorExamples)("the vendor's documentation examples, posted as published", () => {
  let sbx: RunningSandbox;
  beforeAll(async () => {
    sbx = await startSandboxProcess();
  });
  afterAll(async () => {
    expect(await sbx.stop()).toBe(0);
  });

  it("are all accounted for: every file has its expected outcome, and every outcome its file", () => {
    expect(vendorExampleFiles()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, { method, outcome }] of Object.entries(EXPECTED)) {
    it(`${file}: ${outcome === ACCEPTED ? "accepted" : "refused as the real service refuses it"}`, async () => {
      const published = readVendorExample(file);
      const pv = sbx.pointsOfSale[0]?.punto_venta ?? 0;
      const next = new Map<string, number>();
      for (const r of requestsOf(published)) {
        const tipo = r.comprobante.tipo;
        if (next.has(tipo)) continue;
        const answer = await sbx.call("facturacion/numeracion", {
          comprobante: { tipo, operacion: "V", punto_venta: pv },
        });
        next.set(tipo, answer.body.comprobante.numero);
      }
      const {
        usertoken: _u,
        apikey: _k,
        apitoken: _t,
        ...body
      } = adaptVendorExample(published, pv, (tipo) => next.get(tipo) ?? 1);
      const reply = await sbx.call(`facturacion/${method}`, body);
      if (outcome === ACCEPTED) {
        expect(reply.body.errores, JSON.stringify(reply.body)).toEqual([""]);
        expect(reply.body.error).toBe("N");
        // What a user copies from the vendor, our client accepts too.
        const { cwd, env } = freshUser("facturar-vendor-");
        const path = join(cwd, file);
        writeFileSync(path, JSON.stringify(adaptVendorExample(published, pv, (tipo) => next.get(tipo) ?? 1)));
        const validated = await runHere(["--json", "validate", path], { ...env, FACTURAR_TODAY: TODAY });
        expect(validated.code, validated.stdout + validated.stderr).toBe(0);
      } else {
        expect(reply.body.error).toBe("S");
        const errores: string[] = reply.body.errores;
        for (const reason of outcome)
          expect(
            errores.some((e) => e.includes(reason)),
            JSON.stringify(errores),
          ).toBe(true);
        // Refused means nothing was issued.
        for (const r of requestsOf(published)) {
          const tipo = r.comprobante.tipo;
          const answer = await sbx.call("facturacion/numeracion", {
            comprobante: { tipo, operacion: "V", punto_venta: pv },
          });
          expect(answer.body.comprobante.numero).toBe(next.get(tipo));
        }
      }
    });
  }
});
