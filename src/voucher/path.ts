import type { Path } from "./rules.js";

/** `comprobante.detalle[3].producto.alicuota`: the JSON path people read in errors. */
export function formatPath(path: Path): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out === "" ? "(voucher)" : out;
}
