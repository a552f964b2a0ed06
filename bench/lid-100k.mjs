#!/usr/bin/env node
/**
 * Memory and time of `facturar vat-book --lid` over a month of N vouchers (default 100,000), served
 * by a loopback service that answers `consulta_avanzada` by date as the real one does (pages of
 * 1,000, newest first), FACTURA A and B alternating, two rates each. Prints the CLI's wall time,
 * CPU and peak RSS for `--lid` (written a day at a time) and, to compare, for `--json` (the whole
 * book held to print it). The service's own memory is another process's.
 * Usage: node bench/lid-100k.mjs [vouchers] [--days D]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const daysAt = process.argv.indexOf("--days");
const days = daysAt > 0 ? Number(process.argv[daysAt + 1]) : 30;
const perDay = Math.ceil(count / days);
const work = mkdtempSync(join(tmpdir(), "facturar-lid-bench-"));

/** `x` hundredths of a cent, to the cent, half to even (as the authority rounds). */
function halfEven(x) {
  const q = Math.floor(x / 100);
  const rest = x - q * 100;
  return rest > 50 || (rest === 50 && q % 2 === 1) ? q + 1 : q;
}

const day = (d) => `${String(d).padStart(2, "0")}/11/2026`;
function voucher(d, i) {
  const a = i % 2 === 0;
  const net21 = 1000 + (i % 997);
  const net105 = 250 + (i % 89);
  const vat21 = halfEven(net21 * 2100) / 100;
  const vat105 = halfEven(net105 * 1050) / 100;
  return {
    cliente: a
      ? { documento_tipo: "CUIT", documento_nro: "30712293841", razon_social: "Distribuidora del Sur SA" }
      : { documento_tipo: "DNI", documento_nro: "30123456", razon_social: "Juana Pérez" },
    comprobante: {
      tipo: a ? "FACTURA A" : "FACTURA B",
      punto_venta: 679,
      numero: d * 100_000 + i + 1,
      fecha: day(d),
      external_reference: `LID-${d}-${i}`,
      moneda: "PES",
      cotizacion: 1,
      status: "EMITIDO",
      detalle: [
        { cantidad: 1, producto: { precio_unitario: net21, precio_total: net21, alicuota: 21 } },
        { cantidad: 1, producto: { precio_unitario: net105, precio_total: net105, alicuota: 10.5 } },
      ],
      total: (net21 + vat21 + net105 + vat105).toFixed(2),
    },
  };
}

let requests = 0;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    requests++;
    const ask = JSON.parse(body || "{}");
    const d = Number(String(ask.comprobante?.fecha ?? "").slice(0, 2));
    const limit = Number(ask.limite ?? 1000);
    const page = Number(ask.pagina ?? 0);
    const onDay = d >= 1 && d <= days ? Math.min(perDay, count - (d - 1) * perDay) : 0;
    const from = page * limit;
    const list = [];
    // Newest first, as the service lists a day.
    for (let k = from; k < Math.min(onDay, from + limit); k++) list.push(voucher(d, onDay - 1 - k));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        list.length > 0 || from === 0
          ? onDay === 0
            ? { error: "S", errores: ["No se han encontrado comprobantes."] }
            : { rta: "OK", error: "N", total: onDay, errores: [], comprobantes: list }
          : { rta: "OK", error: "N", total: onDay, errores: [], comprobantes: [] },
      ),
    );
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const baseUrl = `http://127.0.0.1:${server.address().port}/app/api/v2`;

function run(args) {
  const home = join(work, "home");
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_STATE_HOME: join(home, ".state"),
    FACTURAR_BASE_URL: baseUrl,
    FACTURAR_USERTOKEN: "bench",
    FACTURAR_APIKEY: "1234",
    FACTURAR_APITOKEN: "bench",
    FACTURAR_PUNTO_VENTA: "679",
    LANG: "C",
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["bench/run-cli.mjs", ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("exit", () => {
      try {
        resolve(JSON.parse(err.trim().split("\n").pop()));
      } catch {
        resolve({ error: err.slice(-2000) });
      }
    });
  });
}

const range = ["--from", day(1), "--to", day(days)];
console.log(`${count} vouchers over ${days} days (${perDay} a day), node ${process.version}`);
requests = 0;
const lid = await run(["vat-book", ...range, "--lid", join(work, "lid")]);
const size = statSync(join(work, "lid", "LIBRO_IVA_DIGITAL_VENTAS_CBTE.txt")).size;
console.log(
  `--lid: ${lid.seconds?.toFixed(1)} s, CPU ${lid.cpuSeconds?.toFixed(1)} s, peak RSS ${lid.maxRssMB?.toFixed(0)} MB, exit ${lid.code}, ${requests} requests, CBTE ${(size / 1e6).toFixed(1)} MB (${size / 268} records)`,
);
requests = 0;
const json = await run(["--json", "vat-book", ...range]);
console.log(
  `--json (the whole book held): ${json.seconds?.toFixed(1)} s, CPU ${json.cpuSeconds?.toFixed(1)} s, peak RSS ${json.maxRssMB?.toFixed(0)} MB, exit ${json.code}`,
);
server.close();
rmSync(work, { recursive: true, force: true });
