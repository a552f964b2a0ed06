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

  it("escapes every occurrence, and reads every one back", () => {
    expect(escapeText("5% + 10%\n\n")).toBe("5#&# + 10#&##@##@#");
    expect(unescapeText("5#&# + 10#&##@##@#")).toBe("5% + 10%\n\n");
  });

  it("escapes a supplier's texts, the comment and the export payment legend; leaves absent ones absent", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA E";
    raw.comprobante.operacion = "C";
    raw.proveedor = { ...raw.cliente, domicilio: "Calle 5%", condicion_pago_otra: 0 };
    delete raw.cliente;
    raw.comprobante.comentario = "nota\r\nal pie";
    raw.comprobante.fex = { tipo_exportacion: 1, forma_pago_leyenda: "100% anticipado" };
    const env = check(raw).envelope;
    if (!env) throw new Error(JSON.stringify(check(raw).findings));
    const out = escapeEnvelope(env);
    expect(out.cliente).toBeUndefined();
    expect(out.proveedor).toMatchObject({
      razon_social: "Juana Pérez",
      domicilio: "Calle 5#&#",
      condicion_pago_otra: 0,
    });
    expect(out.comprobante.comentario).toBe("nota#@#al pie");
    expect(out.comprobante.fex?.forma_pago_leyenda).toBe("100#&# anticipado");
    expect(out.comprobante.fex?.tipo_exportacion).toBe(1);
    expect(out.comprobante.leyenda_gral).toBeUndefined();
    expect(out.comprobante.detalle[0]?.leyenda).toBeUndefined();

    const customer = baseVoucher();
    customer.cliente.condicion_pago_otra = "a 30% días\nfecha factura";
    const plain = check(customer).envelope;
    if (!plain) throw new Error("base voucher must validate");
    const escaped = escapeEnvelope(plain);
    expect(escaped.cliente?.condicion_pago_otra).toBe("a 30#&# días#@#fecha factura");
    expect(escaped.cliente?.domicilio).toBeUndefined();
    expect(escaped.proveedor).toBeUndefined();
    expect(escaped.comprobante.fex).toBeUndefined();
  });
});
