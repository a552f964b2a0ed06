/**
 * What the batch benchmarks share: a `facturar sandbox` process on loopback, a CSV of simple
 * vouchers (FACTURA A and B alternating, one item), and the environment of an env-only profile
 * with its own home (journal, config, data) pointed at that sandbox.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** dd/mm/yyyy, `offset` days before today in Argentina (UTC-3); negative is after. */
export function argentinaDay(offset = 0) {
  return new Date(Date.now() - 3 * 3600_000 - offset * 86400_000)
    .toISOString()
    .slice(0, 10)
    .split("-")
    .reverse()
    .join("/");
}

export async function startSandbox(dataDir, extra = []) {
  const server = spawn(
    process.execPath,
    ["bin/facturar.js", "--json", "sandbox", "--port", "0", "--data-dir", dataDir, "--quota", "10000000", ...extra],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const info = JSON.parse(
    await new Promise((resolve) => createInterface({ input: server.stdout }).once("line", resolve)),
  );
  return {
    baseUrl: info.base_url,
    pv: info.points_of_sale[0],
    async stop() {
      server.kill("SIGTERM");
      await new Promise((r) => server.on("exit", r));
    },
  };
}

const HEADER =
  "comprobante.external_reference,comprobante.tipo,comprobante.fecha,comprobante.vencimiento,comprobante.rubro,comprobante.rubro_grupo_contable,comprobante.punto_venta,cliente.documento_tipo,cliente.documento_nro,cliente.razon_social,cliente.condicion_iva,comprobante.detalle.cantidad,comprobante.detalle.producto.descripcion,comprobante.detalle.producto.precio_unitario_sin_iva,comprobante.detalle.producto.alicuota";

/** FACTURA A and B alternating, one item each, `days` dates (oldest first: lanes go in date order). */
export function voucherCsv(path, { prefix, count, puntoVenta, days = 1, cantidad = 2 }) {
  const rows = [HEADER];
  for (let i = 0; i < count; i++) {
    const tipo = i % 2 ? "FACTURA B" : "FACTURA A";
    const party = tipo === "FACTURA A" ? ["CUIT", "30712293841", "RI"] : ["DNI", "30123456", "CF"];
    const offset = days - 1 - Math.floor((i * days) / count);
    rows.push(
      [
        `${prefix}-${i}`,
        tipo,
        argentinaDay(offset),
        argentinaDay(-27),
        "Ventas",
        "Ventas",
        puntoVenta,
        party[0],
        party[1],
        `Cliente ${i}`,
        party[2],
        cantidad,
        `Articulo ${i}`,
        "100.50",
        21,
      ].join(","),
    );
  }
  writeFileSync(path, `${rows.join("\n")}\n`);
  return path;
}

/** An env-only profile at the sandbox, with its own home. */
export function profileEnv(home, sandbox) {
  return {
    ...process.env,
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    FACTURAR_BASE_URL: sandbox.baseUrl,
    FACTURAR_USERTOKEN: sandbox.pv.usertoken,
    FACTURAR_APIKEY: sandbox.pv.apikey,
    FACTURAR_APITOKEN: sandbox.pv.apitoken,
  };
}

/** A config-file profile `bench` at the sandbox, with no spacing between requests (`rate_ms: 0`). */
export function writeProfileConfig(home, sandbox) {
  mkdirSync(join(home, "config", "facturar"), { recursive: true });
  writeFileSync(
    join(home, "config", "facturar", "config.json"),
    JSON.stringify({
      default_profile: "bench",
      profiles: {
        bench: {
          base_url: sandbox.baseUrl,
          usertoken: sandbox.pv.usertoken,
          apikey: sandbox.pv.apikey,
          apitoken: sandbox.pv.apitoken,
          punto_venta: sandbox.pv.punto_venta,
          rate_ms: 0,
        },
      },
    }),
    { mode: 0o600 },
  );
}
