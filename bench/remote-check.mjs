#!/usr/bin/env node
/**
 * What the service check before each send costs (design.md "Never twice, never lost"): service
 * calls per 1,000 vouchers, counted from `--verbose` request lines, for a first run, a run again
 * with the journal, and a run again with the journal deleted (another machine), one by one and
 * batched, on one day or spread over many. Against one `facturar sandbox` process on loopback.
 * Usage: node bench/remote-check.mjs [vouchers]   (default 1000; `npm run build` first)
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1000);
const day = (offset) =>
  new Date(Date.now() - 3 * 3600_000 - offset * 86400_000).toISOString().slice(0, 10).split("-").reverse().join("/");
const work = mkdtempSync(join(tmpdir(), "facturar-check-bench-"));
const server = spawn(
  process.execPath,
  ["bin/facturar.js", "--json", "sandbox", "--port", "0", "--data-dir", join(work, "sandbox"), "--quota", "10000000"],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const info = JSON.parse(
  await new Promise((resolve) => createInterface({ input: server.stdout }).once("line", resolve)),
);
const pv = info.points_of_sale[0];

const header =
  "comprobante.external_reference,comprobante.tipo,comprobante.fecha,comprobante.vencimiento,comprobante.rubro,comprobante.rubro_grupo_contable,comprobante.punto_venta,cliente.documento_tipo,cliente.documento_nro,cliente.razon_social,cliente.condicion_iva,comprobante.detalle.cantidad,comprobante.detalle.producto.descripcion,comprobante.detalle.producto.precio_unitario_sin_iva,comprobante.detalle.producto.alicuota";

/** `days` dates, oldest first (lanes go in date order). */
function csv(prefix, days) {
  const rows = [header];
  for (let i = 0; i < count; i++) {
    const tipo = i % 2 ? "FACTURA B" : "FACTURA A";
    const party = tipo === "FACTURA A" ? ["CUIT", "30712293841", "RI"] : ["DNI", "30123456", "CF"];
    const offset = days - 1 - Math.floor((i * days) / count);
    rows.push(
      [
        `${prefix}-${i}`,
        tipo,
        day(offset),
        day(-30),
        "Ventas",
        "Ventas",
        pv.punto_venta,
        ...party.slice(0, 2),
        `Cliente ${i}`,
        party[2],
        1,
        `Articulo ${i}`,
        "100.50",
        21,
      ].join(","),
    );
  }
  const path = join(work, `${prefix}.csv`);
  writeFileSync(path, `${rows.join("\n")}\n`);
  return path;
}

function run(home, file, extra) {
  const env = {
    ...process.env,
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    FACTURAR_BASE_URL: info.base_url,
    FACTURAR_USERTOKEN: pv.usertoken,
    FACTURAR_APIKEY: pv.apikey,
    FACTURAR_APITOKEN: pv.apitoken,
  };
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    ["bin/facturar.js", "--verbose", "issue", "-q", "--no-pdf", "--rate", "0", ...extra, file],
    { env, encoding: "utf8", maxBuffer: 1 << 30 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`facturar exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const calls = {};
  for (const m of r.stderr.matchAll(/POST \S+\/app\/api\/v2\/(\S+)/g)) calls[m[1]] = (calls[m[1]] ?? 0) + 1;
  return { calls, seconds };
}

const per1000 = (n) => ((n ?? 0) * 1000) / count;
const show = (label, { calls, seconds }) => {
  const checks = calls["facturacion/consulta_avanzada"] ?? 0;
  const issuing = (calls["facturacion/nuevo"] ?? 0) + (calls["facturacion/lotes"] ?? 0);
  console.log(
    `| ${label} | ${per1000(checks).toFixed(1)} | ${per1000(issuing).toFixed(1)} | ${seconds.toFixed(2)} s |`,
  );
};

console.log(`${count} vouchers (FACTURA A and B), sandbox on loopback, node ${process.version}`);
console.log("| run | check calls per 1,000 | issuing calls per 1,000 | time |");
console.log("|---|---|---|---|");
for (const [days, batch] of [
  [1, []],
  [1, ["--batch-size", "20"]],
  [10, []],
]) {
  const name = `d${days}${batch.length ? "b" : ""}`;
  const file = csv(name, days);
  const home = join(work, `home-${name}`);
  mkdirSync(home, { recursive: true });
  const mode = `${days} day${days > 1 ? "s" : ""}${batch.length ? ", --batch-size 20" : ", one by one"}`;
  show(`first run, ${mode}`, run(home, file, batch));
  show(`again, journal kept, ${mode}`, run(home, file, batch));
  rmSync(join(home, "state"), { recursive: true });
  show(`again, journal deleted, ${mode}`, run(home, file, batch));
}
server.kill("SIGTERM");
await new Promise((r) => server.on("exit", r));
rmSync(work, { recursive: true, force: true });
