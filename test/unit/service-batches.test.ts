/**
 * The client's reading of the sandbox's batch answers (src/api/protocol.ts issueBatch): lotes_encola
 * where every voucher fails and where some do, and lotes' partial failure (reference §6.8).
 */
import { describe, expect, it } from "vitest";
import { TransportError } from "../../src/api/http.js";
import { dayNumber, formatDay } from "../../src/voucher/dates.js";
import { baseVoucher, TODAY } from "../helpers.js";
import { world } from "../inprocess.js";

function body(pv: number, reference: string | undefined, fecha = TODAY): Record<string, unknown> {
  const raw = baseVoucher();
  raw.comprobante.operacion = "V";
  raw.comprobante.punto_venta = pv;
  raw.comprobante.fecha = fecha;
  if (reference === undefined) delete raw.comprobante.external_reference;
  else raw.comprobante.external_reference = reference;
  return raw;
}

describe("batch answers as the client reads them", () => {
  it("lotes_encola refusing every voucher names none of them: a lost answer, asked about voucher by voucher", async () => {
    const w = await world();
    const pv = w.sandbox.store.account.points_of_sale[0]?.punto_venta ?? 0;
    const error = await w.service.issueBatch("queued", [body(pv, "Q 1"), body(pv, "Q 2")]).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/no item names the vouchers sent \(El lote no se procesara .* aceptaron procesar: 0/);
    expect(w.sandbox.store.queuedVouchers()).toHaveLength(0);
    w.close();
  });

  it("lotes_encola taking part of the batch: the accepted ones are queued, the others refused, each by its reference", async () => {
    const w = await world();
    const pv = w.sandbox.store.account.points_of_sale[0]?.punto_venta ?? 0;
    const answer = await w.service.issueBatch("queued", [body(pv, "Q 2"), body(pv, "Q-1")]);
    expect(answer.items.map((i) => i.ok)).toEqual([false, true]);
    expect(answer.items[1]).toMatchObject({ ok: true, state: "queued" });
    expect(w.held("Q-1")).toBe(1);
    w.close();
  });

  it("lotes failing at the authority midway (like production): the earlier ones issued, the failing one refused, the later ones not processed", async () => {
    // The authority's dates are production's: the development plan skips them (spec §1).
    const w = await world({ authorityChecks: true });
    const pv = w.sandbox.store.account.points_of_sale[0]?.punto_venta ?? 0;
    const late = formatDay(dayNumber(TODAY) + 6);
    const answer = await w.service.issueBatch("instant", [
      body(pv, "L-1"),
      body(pv, "L-2", late),
      body(pv, "L-3", late),
    ]);
    expect(answer.items.map((i) => i.ok)).toEqual([true, false, false]);
    expect(answer.items[0]).toMatchObject({ state: "issued" });
    expect(answer.items[1]).toMatchObject({ ok: false });
    expect(answer.items[1]).not.toHaveProperty("notProcessed", true);
    expect(answer.items[2]).toMatchObject({ ok: false, notProcessed: true });
    w.close();
  });
});
