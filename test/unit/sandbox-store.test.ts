import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DurableWriteError } from "../../src/durable/append-log.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { readLock, SandboxInUseError, Store, VOUCHERS } from "../../src/sandbox/store.js";
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

describe("sandbox storage", () => {
  it("keeps each quota apart (spec §8), and reads a log of the one pool as the vouchers' quota", async () => {
    const dataDir = tempDir();
    const s = await sandbox(dataDir, () => new Date("2026-11-20T15:00:00Z"));
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    await post(s, "facturacion/nuevo", envelope(pv, {}, {}));
    await post(s, "facturacion/topecf", {});
    await post(s, "facturacion/topecf", {});
    await s.close();
    open = [];
    // A log written when the quota was one pool: its last count stands for the vouchers'.
    appendFileSync(join(dataDir, "sandbox.log"), '{"t":"quota","used":7}\n');
    const store = await Store.open(dataDir);
    expect([store.quotaUsed(VOUCHERS), store.quotaUsed("facturacion/topecf")]).toEqual([7, 2]);
    await store.close();
  });

  it("a corrupt line in the middle of the log is an error naming it, and leaves the folder unlocked", async () => {
    const dataDir = tempDir();
    const s = await sandbox(dataDir, () => new Date("2026-11-20T15:00:00Z"));
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    await post(s, "facturacion/nuevo", envelope(pv, {}, {}));
    await s.close();
    open = [];
    const path = join(dataDir, "sandbox.log");
    const lines = readFileSync(path, "utf8").split("\n");
    const good = lines[1] as string;
    lines[1] = good.slice(0, 20);
    writeFileSync(path, lines.join("\n"));
    await expect(Store.open(dataDir)).rejects.toThrow(`${path}: line 2 is corrupt`);
    expect(readLock(dataDir)).toBeUndefined();
    lines[1] = good;
    writeFileSync(path, lines.join("\n"));
    const store = await Store.open(dataDir);
    expect(store.count()).toBe(1);
    await store.close();
  });

  it("announces where it listens to a second process, and unlocks on close", async () => {
    const dataDir = tempDir();
    const s = await sandbox(dataDir, () => new Date("2026-11-20T15:00:00Z"));
    // With its settle window: a second CLI waits as long as this sandbox may take to store (no faults: 1 s).
    expect(readLock(dataDir)).toEqual({ pid: process.pid, base_url: s.baseUrl, settle_window_ms: 1000 });
    const second = await Store.open(dataDir).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(SandboxInUseError);
    expect((second as SandboxInUseError).holder).toEqual({
      pid: process.pid,
      base_url: s.baseUrl,
      settle_window_ms: 1000,
    });
    await s.close();
    open = [];
    expect(readLock(dataDir)).toBeUndefined();
  });

  it("once a write failed, answers 503 to everything and stops issuing from the queue", async () => {
    let clock = new Date("2026-11-20T15:00:00Z");
    const s = await sandbox(tempDir(), () => clock);
    const pv = s.pointsOfSale[0]?.punto_venta ?? 0;
    const queue = (ref: string, fecha: string) =>
      post(s, "facturacion/nuevo_encola", envelope(pv, {}, {}, { external_reference: ref, fecha }));
    expect((await queue("Q-1", "21/11/2026")).body.error).toBe("N");
    expect((await queue("Q-2", "22/11/2026")).body.error).toBe("N");
    const waitFor = async (done: () => boolean) => {
      for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const issued = (ref: string) => s.store.findByReference(pv, ref)[0]?.status === "EMITIDO";
    clock = new Date("2026-11-21T15:00:00Z");
    await waitFor(() => issued("Q-1"));
    expect(issued("Q-1")).toBe(true); // the worker runs
    // A write fails (what the log's DurableWriteError does to the store):
    s.store.failure = new DurableWriteError(join(s.store.dataDir, "sandbox.log"), "ENOSPC: no space left", "ENOSPC");
    clock = new Date("2026-11-22T15:00:00Z");
    // The worker's next tick sees the failure and stops; no pass can follow it.
    await s.queueStopped;
    expect(issued("Q-2")).toBe(false);
    for (const [method, body] of [
      ["facturacion/nuevo", envelope(pv, {}, {}, { external_reference: "AFTER" })],
      ["facturacion/consulta_avanzada", { busqueda_tipo: "EXT_REF", comprobante: { external_reference: "Q-1" } }],
      ["facturacion/topecf", {}],
    ] as const) {
      const reply = await post(s, method, body);
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({
        error: "S",
        errores: [expect.stringMatching(/^Error de almacenamiento del sandbox: .*sandbox\.log: ENOSPC: no space left/)],
      });
    }
    expect(s.store.findByReference(pv, "AFTER")).toEqual([]);
  });
});
