/** `facturar products [--code X] [--list L]`: products of the price lists (productos/listar, productos/consultar). */

import type { Product } from "../api/protocol.js";
import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { say, t } from "../i18n/index.js";
import { jsonText } from "../output/json.js";
import { unescapeText } from "../voucher/text.js";
import { withConnection } from "./online.js";
import type { ProductsOptions } from "./products.command.js";

/** The most `productos/listar` gives a page; each page costs a request of the quota. */
const PAGE = 1000;

export async function productsCommand(ctx: Context, flags: ProductsOptions): Promise<Outcome> {
  const { sort } = flags;
  const codes = flags.code ?? [];
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    let products: Product[] = [];
    let missing: { codigo: string; error: string }[] = [];
    const everything = async (): Promise<Product[]> => {
      const all: Product[] = [];
      for (let pagina = 0; ; pagina++) {
        const page = await connection.service.products({
          pagina,
          limite: PAGE,
          orden_criterio: sort,
          orden: flags.desc ? "DESC" : "ASC",
        });
        all.push(...page.productos);
        if (page.productos.length < PAGE || all.length >= page.total) return all;
      }
    };
    if (codes.length > 0 && flags.list !== undefined) {
      const lista = flags.list;
      const found = await connection.service.productsByCode(codes.map((codigo) => ({ lista_precios: lista, codigo })));
      products = found.filter((p): p is Product => "codigo" in p);
      missing = found.flatMap((p, i) => ("codigo" in p ? [] : [{ codigo: codes[i] as string, error: say(p.error) }]));
    } else if (codes.length > 0) {
      // No list named: the codes in every list (productos/consultar asks one list at a time).
      const all = await everything();
      products = all.filter((p) => codes.includes(p.codigo.trim()));
      missing = codes
        .filter((codigo) => !products.some((p) => p.codigo.trim() === codigo))
        .map((codigo) => ({ codigo, error: t("in no price list") }));
    } else {
      products = await everything();
    }
    if (ctx.json) {
      await ctx.out(jsonText({ ok: missing.length === 0, productos: products, missing }));
    } else {
      for (const p of products)
        await ctx.out(
          [
            p.codigo,
            p.lista_precios || "-",
            unescapeText(p.descripcion),
            `${p.moneda} ${p.precio_unitario_sin_iva}`,
            `IVA ${p.alicuota}`,
          ].join("  "),
        );
      if (products.length === 0 && missing.length === 0)
        ctx.err(t("no products yet: they are stored from the items of issued vouchers that have a codigo"));
      for (const m of missing) ctx.err(`${ctx.errColor.yellow(t("not found:"))} ${m.codigo}: ${m.error}`);
    }
    return missing.length === 0 ? "done" : "notFound";
  });
}
