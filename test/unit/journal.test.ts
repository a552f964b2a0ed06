/**
 * The journal keeps in memory only where each reference's lines are, and reads an entry back
 * when asked: what it says must be what the lines say, merged in order, before and after a reopen.
 */
import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Journal } from "../../src/batch/journal.js";
import { tempDir } from "../sandbox-process.js";

const KEY = { service: "http://127.0.0.1:1/app/api/v2", punto_venta: 679, usertoken: "u" };

describe("Journal", () => {
  it("merges a reference's lines in order, however many, and says the same after a reopen", async () => {
    const dir = tempDir("facturar-journal-");
    const journal = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    await journal.record({ ref: "A", state: "sending", mode: "instant", tipo: "FACTURA B", source: "a.csv:row 2" });
    await journal.record({ ref: "B", state: "sending", mode: "instant", tipo: "FACTURA A" });
    await journal.record({ ref: "A", state: "unknown", mode: "instant", errors: ["no answer"] });
    await journal.record({ ref: "A", state: "sending", mode: "instant", sent_at: "2026-11-23T10:00:00.000Z" });
    const last = await journal.record({ ref: "A", state: "issued", mode: "instant", numero: 12, cae: "7512" });
    expect(last).toMatchObject({ ref: "A", state: "issued", tipo: "FACTURA B", source: "a.csv:row 2", numero: 12 });
    await journal.recordAll([
      { ref: "B", state: "issued", mode: "instant", numero: 3, documents_missing: true, out_dir: "/x" },
      { ref: "Ñandú-€", state: "rejected", mode: "instant", errors: ["texto con ñ y €"] },
    ]);
    const before = ["A", "B", "Ñandú-€"].map((ref) => journal.get(ref));
    await journal.close();

    const again = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    expect(["A", "B", "Ñandú-€"].map((ref) => again.get(ref))).toEqual(before);
    expect(again.get("A")).toMatchObject({
      state: "issued",
      errors: ["no answer"],
      sent_at: "2026-11-23T10:00:00.000Z",
    });
    expect(again.get("nope")).toBeUndefined();
    // The state alone, as the pre-send survey asks it, agrees without reading the file.
    for (const ref of ["A", "B", "Ñandú-€"]) expect(again.stateOf(ref)).toEqual({ state: again.get(ref)?.state });
    expect(again.stateOf("nope")).toBeUndefined();
    expect(again.all().map((e) => e.ref)).toEqual(["A", "B", "Ñandú-€"]);
    expect(again.withMissingDocuments().map((e) => e.ref)).toEqual(["B"]);
    await again.record({ ref: "B", state: "issued", mode: "instant", documents_missing: false, pdf: "/x/b.pdf" });
    expect(again.withMissingDocuments()).toEqual([]);
    await again.close();

    // A torn last line (a crash mid-write) is cut off; the rest reads back the same.
    appendFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl")) as string), '{"ref":"A","sta');
    const read = await Journal.open(dir, KEY, { lock: false, readOnly: true, profile: "p" });
    expect(read.get("A")).toEqual(before[0]);
    expect(read.get("B")).toMatchObject({ documents_missing: false, pdf: "/x/b.pdf" });
    await read.close();
  });

  it("reads back entries of a journal of many thousands, each its own", async () => {
    const dir = tempDir("facturar-journal-many-");
    const journal = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    for (let i = 0; i < 5000; i += 100) {
      const refs = Array.from({ length: 100 }, (_, k) => `R-${i + k}`);
      await journal.recordAll(
        refs.map((ref) => ({ ref, state: "sending" as const, mode: "instant" as const, total: ref })),
      );
      await journal.recordAll(
        refs.map((ref, k) => ({ ref, state: "issued" as const, mode: "instant" as const, numero: i + k })),
      );
    }
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    for (const n of [0, 1, 2047, 2048, 4999])
      expect(again.get(`R-${n}`)).toMatchObject({ state: "issued", numero: n, total: `R-${n}` });
    await again.close();
  });
});
