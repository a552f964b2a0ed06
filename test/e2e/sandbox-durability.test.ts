/**
 * `facturar sandbox` on a disk that fills up (`ulimit -f`: short writes, then EFBIG): a voucher
 * it answered as issued is on disk, one it could not store is answered 5xx (never 200), and from
 * then on it answers 503 to everything until restarted; a restart replays what is on disk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { escapeEnvelope } from "../../src/voucher/text.js";
import { validateEnvelope } from "../../src/voucher/validate.js";
import { ROOT } from "../helpers.js";
import { type RunningSandbox, startSandboxProcess, tempDir } from "../sandbox-process.js";

const NOW = { now: new Date("2026-11-20T15:00:00Z") };

/** The sample FACTURA B as the CLI would send it, with its own reference. */
function voucher(pv: number, ref: string): Record<string, any> {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
  raw.comprobante.external_reference = ref;
  const result = validateEnvelope(raw, NOW);
  if (!result.envelope) throw new Error(JSON.stringify(result.findings));
  const { $schema: _, ...env } = escapeEnvelope(result.envelope) as any;
  env.comprobante.punto_venta = pv;
  return env;
}

const running: RunningSandbox[] = [];
afterEach(async () => {
  // A failed assertion must not leave a sandbox running.
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
});

const STORAGE_FAILURE = /^Error de almacenamiento del sandbox: .*sandbox\.log.*EFBIG/;

describe("the sandbox on a disk that fills up", () => {
  it("answers 'issued' only for vouchers on disk, 5xx for the rest, then 503 until restarted", async () => {
    const dataDir = tempDir();
    const full = await startSandboxProcess({ dataDir, fileSizeLimitKiB: 48 });
    running.push(full);
    const pv = full.pointsOfSale[0]?.punto_venta ?? 0;
    const answers: { ref: string; status: number; body: any }[] = [];
    let failedAt: number | undefined;
    // Waves of 4 concurrent requests (so that a group commit holds several vouchers), until the
    // limit refuses a write, and two more waves after it.
    for (let wave = 0; wave < 60 && (failedAt === undefined || wave < failedAt + 3); wave++) {
      const refs = Array.from({ length: 4 }, (_, i) => `FULL-${wave}-${i}`);
      const replies = await Promise.all(refs.map((ref) => full.call("facturacion/nuevo", voucher(pv, ref))));
      answers.push(...replies.map((r, i) => ({ ref: refs[i] as string, ...r })));
      if (failedAt === undefined && replies.some((r) => r.status !== 200)) failedAt = wave;
      if (failedAt !== undefined && wave > failedAt) {
        // Once broken, nothing more is taken.
        expect(replies.map((r) => r.status)).toEqual([503, 503, 503, 503]);
      }
    }
    expect(failedAt).toBeDefined();
    const issued = answers.filter((a) => a.status === 200 && a.body.error === "N");
    const refused = answers.filter((a) => !(a.status === 200 && a.body.error === "N"));
    expect(issued.length).toBeGreaterThan(5);
    expect(refused.length).toBeGreaterThanOrEqual(9);
    for (const a of refused) {
      expect(a.status).toBe(503);
      expect(a.body).toMatchObject({ error: "S" });
      expect(a.body.errores[0]).toMatch(STORAGE_FAILURE);
    }
    // Every request is refused now, reads and documents included: memory is ahead of the disk.
    const read = await full.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: issued[0]?.ref },
    });
    expect(read.status).toBe(503);
    expect(read.body.errores[0]).toMatch(STORAGE_FAILURE);
    expect((await fetch(issued[0]?.body.comprobante_pdf_url)).status).toBe(503);

    // The log holds whole records only: the write that hit the limit was cut back.
    const log = readFileSync(join(dataDir, "sandbox.log"), "utf8");
    expect(log.endsWith("\n")).toBe(true);
    for (const line of log.slice(0, -1).split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(48 * 1024);

    await full.stop("SIGKILL");
    const again = await startSandboxProcess({ dataDir });
    running.push(again);
    for (const a of issued) {
      const found = await again.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: a.ref },
      });
      expect(found.body.total, a.ref).toBe(1);
      expect(found.body.comprobantes[0].comprobante.numero, a.ref).toBe(Number(a.body.comprobante_nro));
    }
    // What was refused was not stored, not even in part.
    for (const a of refused) {
      const found = await again.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: a.ref },
      });
      expect(found.body.total, a.ref).toBe(0);
    }
    // Numbering goes on right after the last voucher that was answered: no gap, no repeat.
    const numbers = issued.map((a) => Number(a.body.comprobante_nro)).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: issued.length }, (_, i) => i + 1));
    const next = await again.call("facturacion/nuevo", voucher(pv, "AFTER-RESTART"));
    expect(next.body.error).toBe("N");
    expect(Number(next.body.comprobante_nro)).toBe(issued.length + 1);
  });
});
