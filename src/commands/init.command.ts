/** `facturar init`: flags, help and examples; the action is ./init.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** init's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      name: o.profileName().optional(),
      sandbox: o.bool(),
      baseUrl: o.string(),
      usertoken: o.string(),
      apikey: o.string(),
      apitoken: o.string(),
      usertokenEnv: o.string(),
      apikeyEnv: o.string(),
      apitokenEnv: o.string(),
      usertokenFile: o.string(),
      apikeyFile: o.string(),
      apitokenFile: o.string(),
      puntoVenta: o.pointOfSale().optional(),
      pdfDir: o.string(),
      production: o.bool(),
      default: o.bool(),
      file: o.string(),
      check: o.bool(),
    })
    .superRefine((flags, ctx) => {
      for (const key of ["usertoken", "apikey", "apitoken"] as const) {
        const ways = [flags[key], flags[`${key}Env`], flags[`${key}File`]].filter((v) => v !== undefined);
        if (ways.length > 1) o.rule(ctx, t("give {key} one way: --{key}, --{key}-env or --{key}-file", { key }));
      }
    });
export type InitOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("init")
    .description(t("create or edit a profile (asks on a terminal; every answer also a flag), then check it"))
    .option(`--name ${t("<profile>")}`, t("profile name (default sandbox)"))
    .option("--sandbox", t("use the embedded development-mode service"))
    .option(`--base-url ${t("<url>")}`, t("the API's base URL, https://<host>/app/api/v2"))
    .option(`--usertoken ${t("<value>")}`, t("credential, kept in the config file (mode 0600)"))
    .option(`--apikey ${t("<value>")}`, t("credential, kept in the config file"))
    .option(`--apitoken ${t("<value>")}`, t("credential, kept in the config file"))
    .option(`--usertoken-env ${t("<name>")}`, t("credential read from this environment variable"))
    .option(`--apikey-env ${t("<name>")}`, t("credential read from this environment variable"))
    .option(`--apitoken-env ${t("<name>")}`, t("credential read from this environment variable"))
    .option(`--usertoken-file ${t("<path>")}`, t("credential read from this file"))
    .option(`--apikey-file ${t("<path>")}`, t("credential read from this file"))
    .option(`--apitoken-file ${t("<path>")}`, t("credential read from this file"))
    .option(`--punto-venta ${t("<n>")}`, t("point of sale"))
    .option(`--pdf-dir ${t("<dir>")}`, t("folder for PDFs"))
    .option("--production", t("real vouchers: ask before issuing on a terminal"))
    .option("--no-production", t("not production"))
    .option("--default", t("make it the default profile"))
    .option("--no-default", t("do not make it the default profile"))
    .option(`--file ${t("<path>")}`, t("the config file to write (default $XDG_CONFIG_HOME/facturar/config.json)"))
    .option("--no-check", t("do not check the profile with the service afterwards"))
    .action(run(async () => (await import("./init.js")).initCommand, options));
  examples(command, [
    [t("answer questions on the terminal"), "facturar init"],
    [t("a profile for the embedded sandbox, made the default"), "facturar init --name pruebas --sandbox --default"],
    [
      t("a real account, credentials read from the environment"),
      "facturar init --name pv3 --base-url https://<host>/app/api/v2 --usertoken-env PV3_USERTOKEN --apikey-env PV3_APIKEY --apitoken-env PV3_APITOKEN --punto-venta 3 --production",
    ],
  ]);
};
