/** The store a run keeps its vouchers in between reading and sending them. */
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { EnvelopeStore, SpillError } from "../../src/batch/spill.js";
import type { Envelope } from "../../src/voucher/schema.js";

const envelope = (n: number) =>
  ({
    cliente: { documento_tipo: "DNI", documento_nro: String(30_000_000 + n), razon_social: `Cliente ñ ${n}` },
    comprobante: { tipo: "FACTURA B", external_reference: `R-${n}`, total: `${n}.50`, detalle: [] },
  }) as unknown as Envelope;

const spillFiles = () => readdirSync(tmpdir()).filter((f) => f.startsWith(`facturar-vouchers-${process.pid}-`));

describe("EnvelopeStore", () => {
  it("gives back every voucher as it was added, those kept in memory and those written to disk", async () => {
    const store = new EnvelopeStore(3);
    const slots: number[] = [];
    for (let n = 0; n < 5000; n++) slots.push(await store.add(envelope(n)));
    await store.seal();
    expect(store.size).toBe(5000);
    expect(slots).toEqual(slots.map((_, i) => i));
    // Out of order, as lanes ask for them, and at once.
    const asked = [4999, 0, 2, 3, 2500, 17, 4998];
    expect(await Promise.all(asked.map((slot) => store.get(slot)))).toEqual(asked.map(envelope));
    await store.close();
  });

  it("leaves no file behind: the spill file is unlinked as soon as it is opened", async () => {
    const store = new EnvelopeStore(0);
    await store.add(envelope(1));
    await store.seal();
    expect(spillFiles()).toEqual([]);
    expect(await store.get(0)).toEqual(envelope(1));
    await store.close();
  });

  it("a temporary folder it cannot write is a clear error naming it (exit 6's outcome)", async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = "/nonexistent/facturar-tmp";
    try {
      const store = new EnvelopeStore(0);
      const error = await store
        .add(envelope(1))
        .then(() => store.seal())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpillError);
      expect((error as SpillError).outcome).toBe("unavailable");
      expect((error as SpillError).message).toMatch(/\/nonexistent\/facturar-tmp: ENOENT/);
      await store.close();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it("a small run never touches the disk", async () => {
    const store = new EnvelopeStore();
    const kept = envelope(7);
    await store.add(kept);
    await store.seal();
    // The very object: nothing was serialised.
    expect(await store.get(0)).toBe(kept);
    await store.close();
  });
});
