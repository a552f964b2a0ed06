#!/usr/bin/env node
/**
 * Batch throughput: `facturar issue` on a CSV of N vouchers (with and without saving PDFs) against a
 * plain shell loop of `curl` calls over the same vouchers (what a user would write without this
 * tool: one POST per voucher, nothing checked, nothing saved). All against one `facturar sandbox`
 * process on loopback. Target: facturar ≥ 10× the curl loop, with its journal, validation and
 * exactly-once handling on.
 * Usage: node bench/batch-vs-curl.mjs [vouchers] [--quick]   (--quick: no curl loop, no PDF runs)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argentinaDay, profileEnv, startSandbox, voucherCsv } from "./sandbox.mjs";

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 500);
const quick = process.argv.includes("--quick");
// Today in Argentina: vouchers dated outside the authority's window would be refused.
const today = argentinaDay(0);
const due = argentinaDay(-27);
const work = mkdtempSync(join(tmpdir(), "facturar-batch-bench-"));
const sandbox = await startSandbox(join(work, "sandbox"));
const info = { base_url: sandbox.baseUrl };
const pv = sandbox.pv;
const tipos = ["FACTURA A", "FACTURA B"];

const csv = (prefix) => voucherCsv(join(work, `${prefix}.csv`), { prefix, count, puntoVenta: pv.punto_venta });

function curlBodies(prefix) {
  const dir = join(work, prefix);
  mkdirSync(dir);
  for (let i = 0; i < count; i++) {
    const tipo = tipos[i % 2];
    const cliente =
      tipo === "FACTURA A"
        ? { documento_tipo: "CUIT", documento_nro: "30712293841", razon_social: `Cliente ${i}`, condicion_iva: "RI" }
        : { documento_tipo: "DNI", documento_nro: "30123456", razon_social: `Cliente ${i}`, condicion_iva: "CF" };
    const body = {
      usertoken: pv.usertoken,
      apikey: pv.apikey,
      apitoken: pv.apitoken,
      cliente,
      comprobante: {
        external_reference: `${prefix}-${i}`,
        tipo,
        operacion: "V",
        fecha: today,
        vencimiento: due,
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
    };
    writeFileSync(join(dir, `${String(i).padStart(6, "0")}.json`), JSON.stringify(body));
  }
  return dir;
}

/** `prepare` writes the inputs and returns the work to time. */
function timeIt(label, prepare) {
  const fn = prepare();
  const started = performance.now();
  fn();
  const seconds = (performance.now() - started) / 1000;
  const rate = count / seconds;
  console.log(`${label}: ${seconds.toFixed(2)} s, ${rate.toFixed(0)} vouchers/s`);
  return rate;
}

function facturar(prefix, extra) {
  const home = join(work, `home-${prefix}`);
  mkdirSync(join(home, "out"), { recursive: true });
  const env = profileEnv(home, sandbox);
  const file = csv(prefix);
  return () => {
    const r = spawnSync(
      process.execPath,
      ["bin/facturar.js", "issue", "-q", "--rate", "0", "--out", join(home, "out"), ...extra, file],
      { env, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`facturar exited ${r.status}: ${r.stderr}`);
  };
}

console.log(`${count} vouchers (FACTURA A and B, one item), sandbox on loopback, node ${process.version}`);
const curl = quick
  ? undefined
  : timeIt("shell loop of curl (one POST per voucher, no PDF)", () => {
      const dir = curlBodies("curl");
      return () =>
        execFileSync("bash", [
          "-c",
          `for f in "${dir}"/*.json; do curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data @"$f" "${info.base_url}/facturacion/nuevo"; done`,
        ]);
    });
const noPdf = timeIt("facturar issue --no-pdf --batch-size 1 (one by one, concurrency 4)", () =>
  facturar("nopdf", ["--no-pdf", "--batch-size", "1"]),
);
const batched = timeIt("facturar issue --no-pdf --batch-size 20 (lotes)", () =>
  facturar("batched", ["--no-pdf", "--batch-size", "20"]),
);
if (curl !== undefined) {
  const withPdf = timeIt("facturar issue --batch-size 1, PDF and ticket saved (concurrency 4)", () =>
    facturar("pdf", ["--batch-size", "1"]),
  );
  const batchedPdf = timeIt("facturar issue --batch-size 20, PDF and ticket saved", () =>
    facturar("batchedpdf", ["--batch-size", "20"]),
  );
  const ratio = (r) => `${(r / curl).toFixed(1)}×`;
  console.log(
    `ratio to the curl loop: ${ratio(noPdf)} one by one, ${ratio(batched)} batched (no PDFs); ` +
      `${ratio(withPdf)} one by one, ${ratio(batchedPdf)} batched, with PDFs and tickets saved`,
  );
}
await sandbox.stop();
rmSync(work, { recursive: true, force: true });
