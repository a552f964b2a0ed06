/**
 * The service's escapes for printed text: a literal `%` is not allowed (it is written `#&#`)
 * and a line break is written `#@#`. Applied on the way out only, so files stay readable.
 */
import type { Envelope } from "./schema.js";

export function escapeText(text: string): string {
  return text.replace(/%/g, "#&#").replace(/\r\n|\r|\n/g, "#@#");
}

export function unescapeText(text: string): string {
  return text.replace(/#&#/g, "%").replace(/#@#/g, "\n");
}

const escapeOptional = (text: string | undefined) => (text === undefined ? undefined : escapeText(text));

/** A copy of the envelope with every printed free-text field escaped for the service. */
export function escapeEnvelope(env: Envelope): Envelope {
  const c = env.comprobante;
  const escapeParty = <P extends { razon_social?: string; domicilio?: string; condicion_pago_otra?: string | 0 }>(
    p: P,
  ): P => ({
    ...p,
    razon_social: escapeOptional(p.razon_social),
    domicilio: escapeOptional(p.domicilio),
    // A supplier's 0 (no condition, as the service's example sends it) is no text.
    condicion_pago_otra: p.condicion_pago_otra === 0 ? 0 : escapeOptional(p.condicion_pago_otra),
  });
  return {
    ...env,
    ...(env.cliente ? { cliente: escapeParty(env.cliente) } : {}),
    ...(env.proveedor ? { proveedor: escapeParty(env.proveedor) } : {}),
    comprobante: {
      ...c,
      leyenda_gral: escapeOptional(c.leyenda_gral),
      comentario: escapeOptional(c.comentario),
      detalle: c.detalle.map((d) => ({
        ...d,
        leyenda: escapeOptional(d.leyenda),
        producto: { ...d.producto, descripcion: escapeText(d.producto.descripcion) },
      })),
      ...(c.fex ? { fex: { ...c.fex, forma_pago_leyenda: escapeOptional(c.fex.forma_pago_leyenda) } } : {}),
    },
  };
}
