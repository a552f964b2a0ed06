#!/usr/bin/env node
/**
 * Writes a batch CSV of N vouchers × M items (default 100,000 × 10 = 1,000,000 rows) with
 * correct totals, for the validate benchmark. Deterministic: the same arguments give the same file.
 * Usage: node bench/generate-csv.mjs [out.csv] [vouchers] [itemsPerVoucher]
 */
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";

const out = process.argv[2] ?? "bench/data/1m.csv";
const vouchers = Number(process.argv[3] ?? 100_000);
const items = Number(process.argv[4] ?? 10);
/** Today in Argentina (UTC-3): a fixed date would fall out of the authority's window. */
const TODAY = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10).split("-").reverse().join("/");

const header = [
  "comprobante.external_reference",
  "comprobante.tipo",
  "comprobante.fecha",
  "comprobante.vencimiento",
  "comprobante.rubro",
  "comprobante.rubro_grupo_contable",
  "comprobante.total",
  "cliente.documento_tipo",
  "cliente.documento_nro",
  "cliente.razon_social",
  "cliente.condicion_iva",
  "comprobante.detalle.cantidad",
  "comprobante.detalle.producto.descripcion",
  "comprobante.detalle.producto.codigo",
  "comprobante.detalle.producto.precio_unitario_sin_iva",
  "comprobante.detalle.producto.alicuota",
];
const products = [
  ["Yerba mate 1 kg", "YER1", 485050, 21],
  ["Harina 000 1 kg", "HAR1", 98025, 10.5],
  ["Aceite girasol 900 ml", "ACE9", 265000, 21],
  ["Leche entera 1 l", "LEC1", 145000, 10.5],
  ["Libro de cuentos", "LIBC", 1580000, -1],
  ["Gaseosa cola 2.25 l", "GAS2", 312000, 27],
];

/** Half-even rounding of an integer amount in 1/10^extra cents down to cents. */
function roundCents(value, extraDigits) {
  const div = 10n ** BigInt(extraDigits);
  let q = value / div;
  const r2 = (value % div) * 2n;
  if (r2 > div || (r2 === div && q % 2n === 1n)) q += 1n;
  return q;
}
const money = (cents) => `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;

mkdirSync(dirname(out), { recursive: true });
const stream = createWriteStream(out);
let buffer = `${header.join(",")}\n`;
for (let v = 0; v < vouchers; v++) {
  const ref = `BENCH-${String(v).padStart(7, "0")}`;
  const bases = new Map();
  const lines = [];
  for (let i = 0; i < items; i++) {
    const [desc, code, priceMilli, rate] = products[(v + i) % products.length];
    const qty = ((v * 7 + i * 3) % 5) + 1;
    const net = roundCents(BigInt(qty) * BigInt(priceMilli), 1); // price has 3 decimals
    bases.set(rate, (bases.get(rate) ?? 0n) + net);
    lines.push([qty, desc, code, (priceMilli / 1000).toFixed(3), rate]);
  }
  let total = 0n;
  for (const [rate, base] of bases) {
    total += base;
    if (rate > 0) total += roundCents(base * BigInt(Math.round(rate * 10)), 3); // rate/100, rate has 1 decimal
  }
  lines.forEach(([qty, desc, code, price, rate], i) => {
    const head =
      i === 0
        ? [
            ref,
            "FACTURA B",
            TODAY,
            TODAY,
            "Almacén",
            "Ventas",
            money(total),
            "DNI",
            String(20000000 + (v % 9000000)),
            `Cliente ${v}`,
            "CF",
          ]
        : [ref, "", "", "", "", "", "", "", "", "", ""];
    buffer += `${[...head, qty, desc, code, price, rate].join(",")}\n`;
  });
  if (buffer.length > 1 << 20) {
    if (!stream.write(buffer)) await new Promise((r) => stream.once("drain", r));
    buffer = "";
  }
}
stream.end(buffer);
await new Promise((r) => stream.once("finish", r));
process.stderr.write(`wrote ${out}: ${vouchers} vouchers × ${items} items\n`);
