/** The sandbox's state and time rules, in-process with a controlled clock. */
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { Store } from "../../src/sandbox/store.js";
import { tempDir } from "../sandbox-process.js";

let open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function sandbox(dataDir: string, now: () => Date) {
  const s = await startSandbox({ dataDir, now, queueIntervalMs: 50 });
  open.push(s);
  return s;
}

function envelope(
  pv: number,
  cliente: Record<string, unknown>,
  producto: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    cliente: {
      documento_tipo: "DNI",
      documento_nro: "30123456",
      razon_social: "Juana",
      condicion_iva: "CF",
      ...cliente,
    },
    comprobante: {
      tipo: "FACTURA B",
      operacion: "V",
      fecha: "20/11/2026",
      vencimiento: "20/12/2026",
      moneda: "PES",
      cotizacion: 1,
      idioma: 1,
      punto_venta: pv,
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      total: 121,
      detalle: [
        {
          cantidad: 1,
          producto: {
            descripcion: "Yerba mate",
            lista_precios: "General",
            codigo: "YER1",
            precio_unitario_sin_iva: 100,
            alicuota: 21,
            ...producto,
          },
        },
      ],
      ...extra,
    },
  };
}

async function post(s: Sandbox, method: string, body: Record<string, unknown>) {
  const pv = s.pointsOfSale[0];
  const res = await fetch(`${s.baseUrl}/${method}`, { method: "POST", body: JSON.stringify({ ...pv, ...body }) });
  return { status: res.status, body: (await res.json()) as any };
}

describe("sandbox state", () => {
  it("PDF links work only on the day they were handed out; regenerar_pdf gives fresh ones", async () => {
    let clock = new Date("2026-11-20T15:00:00Z");
    const s = await sandbox(tempDir(), () => clock);
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    const issued = await post(s, "facturacion/nuevo", envelope(pv, {}, {}));
    expect((await fetch(issued.body.comprobante_pdf_url)).status).toBe(200);
    clock = new Date("2026-11-21T03:30:00Z"); // 00:30 the next day in Argentina
    const expired = await fetch(issued.body.comprobante_pdf_url);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as any).errores[0]).toMatch(/regenerar_pdf/);
    const fresh = await post(s, "facturacion/regenerar_pdf", {
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta: pv, numero: 1 },
    });
    expect((await fetch(fresh.body.comprobante_pdf_url)).status).toBe(200);
  });

  it("updates a stored customer except its document and VAT condition (spec 2.2 rule 2)", async () => {
    const s = await sandbox(tempDir(), () => new Date("2026-11-20T15:00:00Z"));
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    await post(s, "facturacion/nuevo", envelope(pv, { razon_social: "Juana", email: "a@example.com" }, {}));
    await post(
      s,
      "facturacion/nuevo",
      envelope(
        pv,
        {
          razon_social: "Juana Pérez",
          email: "b@example.com",
          condicion_iva: "E",
          documento_tipo: "CUIT",
          documento_nro: "20111111112",
        },
        {},
        {
          tipo: "FACTURA C",
          detalle: [{ cantidad: 1, producto: { descripcion: "Clase", precio_unitario_sin_iva: 121, alicuota: 0 } }],
        },
      ),
    );
    await post(
      s,
      "facturacion/nuevo",
      envelope(pv, { razon_social: "Juana Pérez", email: "c@example.com", condicion_iva: "IVNA" }, {}),
    );
    expect(s.store.customers.get("doc:DNI:30123456")).toMatchObject({
      razon_social: "Juana Pérez",
      email: "c@example.com",
      condicion_iva: "CF",
    });
  });

  it("replaces a stored product only when actualiza_precio is S (spec 2.4 rule 5)", async () => {
    const s = await sandbox(tempDir(), () => new Date("2026-11-20T15:00:00Z"));
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    await post(s, "facturacion/nuevo", envelope(pv, {}, { precio_unitario_sin_iva: 100 }));
    const kept = await post(
      s,
      "facturacion/nuevo",
      envelope(pv, {}, { precio_unitario_sin_iva: 200, actualiza_precio: "N" }, { total: 242 }),
    );
    expect(kept.body.error).toBe("N");
    expect(s.store.products.get("General|YER1")).toMatchObject({ precio_unitario_sin_iva: 100 });
    await post(
      s,
      "facturacion/nuevo",
      envelope(pv, {}, { precio_unitario_sin_iva: 200, actualiza_precio: "S" }, { total: 242 }),
    );
    expect(s.store.products.get("General|YER1")).toMatchObject({ precio_unitario_sin_iva: 200 });
  });

  it("drops a write torn by a crash and goes on from the last whole record", async () => {
    const dataDir = tempDir();
    const s = await sandbox(dataDir, () => new Date("2026-11-20T15:00:00Z"));
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    await post(s, "facturacion/nuevo", envelope(pv, {}, {}));
    await s.close();
    open = [];
    appendFileSync(join(dataDir, "sandbox.log"), '{"t":"voucher","voucher":{"id":99,"punto_ven');
    const store = await Store.open(dataDir);
    expect(store.count()).toBe(1);
    expect(store.nextNumber(pv, "FACTURA B")).toBe(2);
    await store.close();
    expect(readFileSync(join(dataDir, "sandbox.log"), "utf8").endsWith("\n")).toBe(true);
  });
});
