/** The batch progress bar: what it counts, and output kept above it. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { blankResult, type VoucherStatus } from "../../src/batch/result.js";
import { Progress } from "../../src/output/progress.js";

/** A terminal's stderr as cli-progress sees one: a TTY with a width, everything written kept. */
function terminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120, rows: 40 });
  let screen = "";
  stream.on("data", (d: Buffer) => {
    screen += d.toString();
  });
  return { stream, screen: () => screen };
}

const result = (status: VoucherStatus) =>
  blankResult(status, { source: "x.json", reference: "R", tipo: "FACTURA B", punto_venta: 679, total: "1.00" });

describe("the progress bar", () => {
  it("counts issued and queued as issued, rejected, already issued, and the rest only in the total", () => {
    const t = terminal();
    const bar = new Progress(t.stream, 7);
    for (const status of ["issued", "queued", "rejected", "skipped-duplicate", "unknown", "held"] as const)
      bar.tick(result(status));
    bar.stop();
    const last = t.screen().split(/\r|\n/).filter(Boolean).at(-1) ?? "";
    expect(last).toMatch(/ 6\/7 \| issued 2 rejected 1 skipped 1 \| /);
  });

  it("clears its line before output written above it, and draws itself again after", async () => {
    const t = terminal();
    const bar = new Progress(t.stream, 2);
    bar.tick(result("issued"));
    const before = t.screen().length;
    await bar.above(async () => {
      t.stream.write("✔ FACTURA B 00679-00000001\n");
    });
    const after = t.screen().slice(before);
    expect(after.startsWith("\r\u001b[2K✔ FACTURA B 00679-00000001\n")).toBe(true);
    expect(after.slice("\r\u001b[2K✔ FACTURA B 00679-00000001\n".length)).toMatch(
      / 1\/2 \| issued 1 rejected 0 skipped 0/,
    );
    bar.stop();
  });
});
