#!/usr/bin/env node
/**
 * `facturar issue` with default flags against a sandbox that behaves like the real service under
 * load (`facturar sandbox --like-production`: 80 ms away, 100 ms between requests or 429), on N
 * vouchers of two types, without and with PDFs. The figure is wall time against the physical
 * limit of a client that never issues twice (the fewest calls the service allows, `lotes` of 20
 * of one type, plus one lookup by reference per voucher it has not asked about, × 100 ms), and against a
 * sequential loop measured in the same run (one `nuevo` per voucher, each after the last one's
 * answer, 100 ms apart). Calls per voucher are counted from `--verbose` request lines, the service
 * check before sending (the date listing) included.
 * Usage: node bench/real-limits.mjs [vouchers] [--loop N]   (`npm run build` first)
 *   --loop N: time the sequential loop on the first N vouchers and scale it to all of them
 *   (default: all; at 2,000 it takes about 3.5 minutes).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argentinaDay, profileEnv, startSandbox, voucherCsv } from "./sandbox.mjs";

const args = process.argv.slice(2);
const loopAt = args.indexOf("--loop");
const count = Number(args.find((a, i) => /^\d+$/.test(a) && i !== loopAt + 1) ?? 2000);
const loopCount = loopAt >= 0 ? Number(args[loopAt + 1]) : count;
const SPACING = 100;
const BATCH = 20;
const work = mkdtempSync(join(tmpdir(), "facturar-limits-bench-"));
const sandbox = await startSandbox(join(work, "sandbox"), ["--like-production"]);
const pv = sandbox.pv;

// voucherCsv alternates FACTURA A and B: two lanes.
const perType = [Math.ceil(count / 2), Math.floor(count / 2)];
const fewestCalls = perType.reduce((n, k) => n + Math.ceil(k / BATCH), 0);
/** What issuing alone needs: the fewest calls the service allows. */
const issuingSeconds = (fewestCalls * SPACING) / 1000;
// Never twice: a reference the service has not been asked about is asked for before it is sent
// (a listing by date proves presence, never absence), one lookup each on a first run.
const askingCalls = count;
const limitSeconds = ((fewestCalls + askingCalls) * SPACING) / 1000;

function facturar(prefix, extra) {
  const home = join(work, `home-${prefix}`);
  mkdirSync(join(home, "out"), { recursive: true });
  const file = voucherCsv(join(work, `${prefix}.csv`), { prefix, count, puntoVenta: pv.punto_venta });
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    ["bin/facturar.js", "--verbose", "issue", "-q", "--out", join(home, "out"), ...extra, file],
    { env: profileEnv(home, sandbox), encoding: "utf8", maxBuffer: 1 << 30 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`facturar exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const calls = {};
  for (const m of r.stderr.matchAll(/^POST \S+\/app\/api\/v2\/(\S+)/gm)) calls[m[1]] = (calls[m[1]] ?? 0) + 1;
  const refused = (r.stderr.match(/^\s+429 in /gm) ?? []).length;
  const downloads = (r.stderr.match(/^GET /gm) ?? []).length;
  return { seconds, calls, refused, downloads };
}

/** What a careful hand-written client does: one voucher per call, in order, 100 ms apart. */
async function sequentialLoop(n) {
  const tipos = ["FACTURA A", "FACTURA B"];
  let refused = 0;
  let last = Number.NEGATIVE_INFINITY;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const tipo = tipos[i % 2];
    const cliente =
      tipo === "FACTURA A"
        ? { documento_tipo: "CUIT", documento_nro: "30712293841", razon_social: `Cliente ${i}`, condicion_iva: "RI" }
        : { documento_tipo: "DNI", documento_nro: "30123456", razon_social: `Cliente ${i}`, condicion_iva: "CF" };
    const body = JSON.stringify({
      usertoken: pv.usertoken,
      apikey: pv.apikey,
      apitoken: pv.apitoken,
      cliente,
      comprobante: {
        external_reference: `LOOP-${i}`,
        tipo,
        operacion: "V",
        fecha: argentinaDay(0),
        vencimiento: argentinaDay(-27),
        moneda: "PES",
        cotizacion: 1,
        idioma: 1,
        punto_venta: pv.punto_venta,
        rubro: "Ventas",
        rubro_grupo_contable: "Ventas",
        total: 243.21,
        detalle: [
          { cantidad: 2, producto: { descripcion: `Articulo ${i}`, precio_unitario_sin_iva: 100.5, alicuota: 21 } },
        ],
      },
    });
    for (;;) {
      // The same margin facturar's limiter keeps (SPACING_MARGIN_MS in src/api/client.ts), for a fair comparison.
      const wait = last + SPACING + 5 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      last = performance.now();
      const res = await fetch(`${sandbox.baseUrl}/facturacion/nuevo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const answer = await res.json();
      if (res.status === 429) {
        refused++;
        await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
        continue;
      }
      if (answer.error !== "N") throw new Error(JSON.stringify(answer));
      break;
    }
  }
  return { seconds: ((performance.now() - started) / 1000) * (count / n), refused, measured: n };
}

const show = (label, r) => {
  const perVoucher = Object.entries(r.calls)
    .map(([m, n]) => `${m.replace("facturacion/", "")} ${(n / count).toFixed(3)}`)
    .join(", ");
  const total = Object.values(r.calls).reduce((a, b) => a + b, 0);
  console.log(
    `| ${label} | ${r.seconds.toFixed(2)} s | ${(r.seconds / limitSeconds).toFixed(2)}× | ${(count / r.seconds).toFixed(0)}/s | ${total} (${perVoucher}) | ${r.refused} |`,
  );
  return r;
};

console.log(
  `${count} vouchers (FACTURA A and B, one day), \`facturar sandbox --like-production\` (latency 80 ms, spacing 100 ms), node ${process.version}`,
);
console.log(
  `physical limit of a client that asks before it sends: (${fewestCalls} issuing calls, lotes of ${BATCH} of one type, + ${askingCalls} lookups by reference) × ${SPACING} ms = ${limitSeconds.toFixed(1)} s; issuing alone: ${issuingSeconds.toFixed(1)} s`,
);
console.log("| run | wall time | × limit | vouchers/s | calls (per voucher) | 429s answered |");
console.log("|---|---|---|---|---|---|");
const noPdf = show("`facturar issue --no-pdf` (default flags otherwise)", facturar("nopdf", ["--no-pdf"]));
const withPdf = facturar("pdf", []);
show(
  `\`facturar issue\` (PDF and ticket saved: ${withPdf.downloads} downloads, 4 at a time in the API's waits)`,
  withPdf,
);
const loop = await sequentialLoop(Math.min(loopCount, count));
console.log(
  `| sequential loop, one \`nuevo\` per voucher, 100 ms apart${loop.measured < count ? ` (${loop.measured} timed, scaled)` : ""} | ${loop.seconds.toFixed(2)} s | ${(loop.seconds / limitSeconds).toFixed(2)}× | ${(count / loop.seconds).toFixed(0)}/s | ${count} (nuevo 1.000) | ${loop.refused} |`,
);
console.log(
  `facturar without PDFs: ${(noPdf.seconds / limitSeconds).toFixed(2)}× the limit (target ≤ 1.25×), ` +
    `${(noPdf.seconds / issuingSeconds).toFixed(2)}× issuing alone, ` +
    `${(loop.seconds / noPdf.seconds).toFixed(1)}× the sequential loop`,
);
await sandbox.stop();
rmSync(work, { recursive: true, force: true });
