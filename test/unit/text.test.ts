import { describe, expect, it } from "vitest";
import { escapeEnvelope, escapeText, unescapeText } from "../../src/voucher/text.js";
import { baseVoucher, check } from "../helpers.js";

describe("text escaping for the service", () => {
  it("writes % as #&# and line breaks as #@#", () => {
    expect(escapeText("Descuento 10% pago\ncontado\r\nen 2 líneas\rfin")).toBe(
      "Descuento 10#&# pago#@#contado#@#en 2 líneas#@#fin",
    );
    expect(unescapeText(escapeText("50% off\nya"))).toBe("50% off\nya");
  });

  it("escapes every printed text of an envelope and leaves the original alone", () => {
    const raw = baseVoucher();
    raw.cliente.razon_social = "Ana 100%\nSRL";
    raw.comprobante.leyenda_gral = "IVA 21%";
    raw.comprobante.detalle[0].producto.descripcion = "Bebida 27%";
    raw.comprobante.detalle[0].leyenda = "línea 1\nlínea 2";
    const env = check(raw).envelope;
    if (!env) throw new Error("base voucher must validate");
    const out = escapeEnvelope(env);
    expect(out.cliente?.razon_social).toBe("Ana 100#&##@#SRL");
    expect(out.comprobante.leyenda_gral).toBe("IVA 21#&#");
    expect(out.comprobante.detalle[0]?.producto.descripcion).toBe("Bebida 27#&#");
    expect(out.comprobante.detalle[0]?.leyenda).toBe("línea 1#@#línea 2");
    expect(env.comprobante.detalle[0]?.producto.descripcion).toBe("Bebida 27%");
  });
});
