#!/usr/bin/env node
/**
 * Instant issues per second against `facturar sandbox` on loopback, with 1k, 10k and 100k vouchers
 * already stored (filled through `lotes`, 20 per request). Target: ≥ 1,000/s, flat as the store grows.
 * The sandbox runs in its own process; this one is the client (8 concurrent keep-alive connections).
 * Usage: node bench/sandbox-issue.mjs [requestsPerLevel]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const perLevel = Number(process.argv[2] ?? 3000);
const concurrency = 8;
const dataDir = mkdtempSync(join(tmpdir(), "facturar-bench-"));
const child = spawn(
  process.execPath,
  ["bin/facturar.js", "--json", "sandbox", "--port", "0", "--data-dir", dataDir, "--quota", "100000000"],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const info = JSON.parse(await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve)));
const pv = info.points_of_sale[0];
const url = new URL(info.base_url);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function voucher(ref) {
  return {
    cliente: {
      documento_tipo: "DNI",
      documento_nro: "30123456",
      razon_social: "Cliente de prueba",
      condicion_iva: "CF",
    },
    comprobante: {
      tipo: "FACTURA B",
      operacion: "V",
      // Today in Argentina (UTC-3): the sandbox refuses dates outside the authority's window.
      fecha: new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10).split("-").reverse().join("/"),
      vencimiento: new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10).split("-").reverse().join("/"),
      moneda: "PES",
      cotizacion: 1,
      idioma: 1,
      punto_venta: pv.punto_venta,
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      external_reference: ref,
      total: "121",
      detalle: [
        { cantidad: "1", producto: { descripcion: "Yerba mate 1 kg", precio_unitario_sin_iva: "100", alicuota: "21" } },
      ],
    },
  };
}

function post(method, body) {
  const payload = JSON.stringify({ usertoken: pv.usertoken, apikey: pv.apikey, apitoken: pv.apitoken, ...body });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}/${method}`,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve(JSON.parse(text)));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

let stored = 0;
async function fillTo(target) {
  while (stored < target) {
    const n = Math.min(20, target - stored);
    const reply = await post("facturacion/lotes", {
      requests: Array.from({ length: n }, (_, i) => voucher(`FILL-${stored + i}`)),
    });
    if (reply.error !== "N") throw new Error(JSON.stringify(reply));
    stored += n;
  }
}

async function measure(count) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        const reply = await post("facturacion/nuevo", voucher(`BENCH-${stored}-${i}`));
        latencies.push(performance.now() - t);
        if (reply.error !== "N") throw new Error(JSON.stringify(reply));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  stored += count;
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
  return { rate: Math.round(count / seconds), p50: q(0.5), p99: q(0.99) };
}

console.log(`${perLevel} instant issues per level, ${concurrency} concurrent connections, node ${process.version}`);
for (const level of [1_000, 10_000, 100_000]) {
  await fillTo(level);
  const r = await measure(perLevel);
  console.log(`${String(level).padStart(7)} stored: ${r.rate} issues/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
}
agent.destroy();
child.kill("SIGTERM");
await new Promise((r) => child.on("exit", r));
rmSync(dataDir, { recursive: true, force: true });
