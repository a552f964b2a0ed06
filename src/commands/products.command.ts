/** `facturar products`: flags, help and examples; the action is ./products.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** products' options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      code: o.list(o.text(t("a product code of up to 50 characters"), 50)).optional(),
      list: o.text(t("a price list")).optional(),
      sort: o.oneOf(["fecha_creacion", "descripcion", "codigo"]).default("fecha_creacion"),
      desc: o.bool(),
    })
    .superRefine((flags, ctx) => {
      if ((flags.code?.length ?? 0) > 50) o.rule(ctx, t("at most 50 --code in one call"));
      else if (flags.list !== undefined && flags.code === undefined) o.rule(ctx, t("--list goes with --code"));
    });
export type ProductsOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("products")
    .description(t("the products of the price lists (productos/listar), or some by code (productos/consultar)"))
    .option(`--code ${t("<code>")}`, t("only these codes (repeat it, at most 50)"), (v: string, all: string[] = []) => [
      ...all,
      v,
    ])
    .option(`--list ${t("<price list>")}`, t("the price list of --code (default: every list)"))
    .option(`--sort ${t("<field>")}`, t("fecha_creacion, descripcion or codigo (default fecha_creacion)"))
    .option("--desc", t("newest (or last) first"))
    .action(run(async () => (await import("./products.js")).productsCommand, options));
  examples(command, [
    [t("every product the vouchers carried"), "facturar products --sort descripcion"],
    [t("one product's price, in every price list"), "facturar products --code NB14"],
    [t("in one price list"), "facturar products --code NB14 --list General"],
  ]);
};
