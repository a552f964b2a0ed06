/**
 * dropFromPlan (src/batch/plan.ts): refused vouchers leave the plan, a first with its repeats, a
 * repeat alone (found with the mutation run of plan.ts: no in-process run refused a repeat).
 */
import { describe, expect, it } from "vitest";
import { dropFromPlan, holdRefused, type Planned, type ReadPlan } from "../../src/batch/plan.js";
import type { VoucherResult } from "../../src/batch/result.js";

const v = (reference: string, source: string) => ({ reference, source }) as unknown as Planned;

function plan() {
  const a = v("A", "a.json");
  const b = v("B", "b.json");
  const b1 = v("B", "b1.json");
  const b2 = v("B", "b2.json");
  const a1 = v("A", "a1.json");
  const repeats = new Map([
    ["A", [a1]],
    ["B", [b1, b2]],
  ]);
  return { p: { planned: [a, b], repeats } as unknown as ReadPlan, a, b, a1, b1, b2 };
}

describe("dropFromPlan", () => {
  it("nothing refused: the plan as it was, its lists untouched", () => {
    const { p } = plan();
    const lists = [...p.repeats.values()];
    dropFromPlan(p, new Set());
    expect(p.planned.map((x) => x.source)).toEqual(["a.json", "b.json"]);
    expect([...p.repeats.values()]).toEqual(lists);
    expect(p.repeats.get("B")).toBe(lists[1]);
  });

  it("a first refused takes its repeats with it", () => {
    const { p, a } = plan();
    dropFromPlan(p, new Set([a]));
    expect(p.planned.map((x) => x.source)).toEqual(["b.json"]);
    expect([...p.repeats.keys()]).toEqual(["B"]);
  });

  it("a repeat refused alone: the first and the other repeats stay", () => {
    const { p, b2 } = plan();
    dropFromPlan(p, new Set([b2]));
    expect(p.planned.map((x) => x.source)).toEqual(["a.json", "b.json"]);
    expect(p.repeats.get("B")?.map((x) => x.source)).toEqual(["b1.json"]);
    expect(p.repeats.get("A")?.map((x) => x.source)).toEqual(["a1.json"]);
  });

  it("every repeat of a reference refused: its list goes", () => {
    const { p, b1, b2 } = plan();
    dropFromPlan(p, new Set([b1, b2]));
    expect([...p.repeats.keys()]).toEqual(["A"]);
    expect(p.planned).toHaveLength(2);
  });
});

describe("holdRefused", () => {
  it("tells each valid voucher not refused as held under its reference; a derived one still waiting for its point, without", async () => {
    const heading = { tipo: "FACTURA B", fecha: "27/11/2026", total: "121.00", slot: 0, notes: -1 };
    const own = { ...heading, reference: "R1", source: "a.json", punto_venta: 2, pointPending: false } as Planned;
    const derived = { ...heading, reference: "pending", source: "b.json", pointPending: true } as Planned;
    const refused = { ...heading, reference: "R3", source: "c.json", punto_venta: 2, pointPending: false } as Planned;
    const told: VoucherResult[] = [];
    const p = { valids: [own, derived, refused] } as unknown as ReadPlan;
    const n = await holdRefused(p, new Set([refused]), 1, async (r) => {
      told.push(r);
    });
    expect(n).toBe(2);
    expect(told.map((r) => [r.status, r.external_reference])).toEqual([
      ["held", "R1"],
      ["held", ""],
    ]);
  });
});
