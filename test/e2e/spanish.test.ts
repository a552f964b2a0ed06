/**
 * Spanish, as an Argentine accountant's machine asks for it: LANG=es_AR.UTF-8, then `init` and a
 * guided FACTURA B in a pseudo-terminal; and the language chosen by --lang, LC_ALL and LANG.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, inTerminal, journalText, ndjson, ROOT, runCli, SPANISH, TODAY } from "../helpers.js";

const ENTER = "\r";

describe("in Spanish", () => {
  it("takes a new user from init to a FACTURA B to a consumer, PDF saved, every prompt in Spanish", async () => {
    const u = freshUser("facturar-es-");
    const env = { ...process.env, ...u.env, ...SPANISH, CI: "" };
    const setUp = await inTerminal(["init"], { cwd: u.cwd, env }, [
      [/Nombre del perfil/, `estudio${ENTER}`],
      [/¿Qué servicio\?/, ENTER],
      [/Carpeta para los PDF/, `facturas${ENTER}`],
      [/¿Usar estudio por defecto\? \(S\/n\)/, `s${ENTER}`],
    ]);
    expect(setUp).toMatch(/El sandbox incorporado/);
    expect(setUp).toMatch(/perfil estudio escrito en .*config\.json \(el perfil por defecto\)/);
    expect(setUp).toMatch(/✔ estudio: sandbox incorporado responde, facturación OK/);
    expect(setUp).toMatch(/EXIT=0/);

    const screen = await inTerminal(["issue", "--interactive"], { cwd: u.cwd, env }, [
      [/Tipo de comprobante/, ENTER],
      [/¿Consumidor final no identificado \(sin nombre ni documento\)\? \(s\/N\)/, `s${ENTER}`],
      [/Domicilio del cliente/, ENTER],
      [/E-mail del cliente/, ENTER],
      [/Condición de venta/, ENTER],
      [/Ítem 1: descripción/, `Honorarios de noviembre${ENTER}`],
      [/Cantidad/, ENTER],
      // As es-AR writes it: 10.00 is ambiguous (ten, or ten thousand?) and asked again; 10.000 is ten thousand.
      [/Precio unitario sin IVA/, `10.00${ENTER}`],
      [/coma decimal; el punto separa los miles/, `${"\u007f".repeat(5)}10.000${ENTER}`],
      [/Alícuota de IVA/, ENTER],
      [/¿Agregar otro ítem\?/, ENTER],
      [/Fecha del comprobante/, ENTER],
      [/Referencia/, ENTER],
      [/¿Emitirlo\? \(S\/n\)/, ENTER],
      [/¿Guardarlo como archivo JSON/, `n${ENTER}`],
    ]);
    expect(screen).toMatch(/FACTURA B a Consumidor final \(OTRO 0\), 1 ítem/);
    expect(screen).toMatch(/neto 21 % 10\.000,00 \+ IVA 2\.100,00 = 12\.100,00/);
    expect(screen).toMatch(/✔ FACTURA B 00679-00000001 .*emitido/);
    expect(screen).toMatch(/PDF: facturas\/FACTURA_B-00679-00000001\.pdf/);
    expect(screen).toMatch(/emitidos: 1/);
    expect(screen).not.toMatch(/Voucher type|Issue it|issued/);
    expect(screen).toMatch(/EXIT=0/);
    expect(existsSync(join(u.cwd, "facturas", "FACTURA_B-00679-00000001.pdf"))).toBe(true);
  }, 60_000);

  it("explains a broken voucher in Spanish, with the same codes and exit status", async () => {
    const u = freshUser("facturar-es-");
    const file = join(ROOT, "samples", "invalid", "anonymous-condition.json");
    const r = await runCli(["validate", file], { cwd: u.cwd, env: { ...u.env, ...SPANISH } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /un cliente no identificado \(OTRO\) debe ser consumidor final \(CF\), no IVNA \[anonymous\.condition\]/,
    );
    expect(r.stderr).toMatch(/1 comprobante: válidos 0, inválidos 1/);
    // zod's own messages too (a wrong JSON type), in its Spanish locale.
    const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    raw.comprobante.detalle = "una caja";
    writeFileSync(join(u.cwd, "tipo.json"), JSON.stringify(raw));
    const typed = await runCli(["validate", "tipo.json"], { cwd: u.cwd, env: { ...u.env, ...SPANISH } });
    expect(typed.code).toBe(3);
    expect(typed.stdout).toMatch(/comprobante\.detalle: Entrada inválida: se esperaba arreglo, recibido texto/);
    // Machines read the same codes in either language.
    const json = await runCli(["--json", "validate", file], { cwd: u.cwd, env: { ...u.env, ...SPANISH } });
    expect(JSON.parse(json.stdout).error_details[0]).toMatchObject({ code: "anonymous.condition" });
    expect(JSON.parse(json.stdout).error_details[0].message).toMatch(/consumidor final/);
    // A CSV voucher's source label is a locator scripts read: the same in every language.
    const csv = await runCli(["--json", "validate", join(ROOT, "samples", "batch-nightly.csv")], {
      cwd: u.cwd,
      env: { ...u.env, ...SPANISH },
    });
    expect(JSON.parse(csv.stdout.split("\n")[0] as string).source).toMatch(/batch-nightly\.csv:rows 2-\d+$/);
  });

  it("a spreadsheet export with 7.000 issues seven thousand, not seven; 7.00 is refused at its cell, --decimal point reads it", async () => {
    const u = freshUser("facturar-es-decimal-");
    // The tests' today (the CLIs run on FACTURAR_TODAY): the authority refuses dates far from it.
    const today = TODAY;
    const header =
      "comprobante.external_reference;comprobante.tipo;comprobante.fecha;comprobante.vencimiento;comprobante.rubro;comprobante.rubro_grupo_contable;cliente.documento_tipo;cliente.documento_nro;cliente.razon_social;cliente.condicion_iva;comprobante.detalle.cantidad;comprobante.detalle.producto.descripcion;comprobante.detalle.producto.precio_unitario_sin_iva;comprobante.detalle.producto.alicuota";
    const csv = (ref: string, price: string) =>
      `${header}\n${ref};FACTURA B;${today};${today};Ventas;Ventas;DNI;30123456;Juana Pérez;CF;1;Yerba mate 1 kg;${price};21\n`;
    writeFileSync(join(u.cwd, "miles.csv"), csv("MILES-1", "7.000"));
    writeFileSync(join(u.cwd, "ambiguo.csv"), csv("MILES-2", "7.00"));
    const issued = await runCli(["--json", "issue", "--no-pdf", "miles.csv"], { cwd: u.cwd, env: u.env });
    expect(issued.code, issued.stderr).toBe(0);
    expect(ndjson(issued.stdout)[0]).toMatchObject({ status: "issued", total: "8470.00" });

    const refused = await runCli(["issue", "--no-pdf", "ambiguo.csv"], { cwd: u.cwd, env: u.env });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toMatch(
      /ambiguo\.csv:row 2, column comprobante\.detalle\.producto\.precio_unitario_sin_iva: "7\.00" is ambiguous .*\[csv\.ambiguous-number\]/,
    );
    expect(journalText(u.env.XDG_STATE_HOME)).not.toMatch(/MILES-2/);
    const point = await runCli(["--json", "validate", "--decimal", "point", "ambiguo.csv"], { cwd: u.cwd, env: u.env });
    expect(point.code, point.stdout).toBe(0);
    expect(ndjson(point.stdout)[0]).toMatchObject({ ok: true, totals: { total: "8.47" } });
  });

  it("follows --lang first, then LC_ALL, LC_MESSAGES and LANG", async () => {
    const u = freshUser("facturar-es-");
    const missing = ["validate", "no-such-file.json"];
    const say = async (args: string[], locale: Record<string, string>) =>
      (await runCli(args, { cwd: u.cwd, env: { ...u.env, ...locale } })).stderr;
    expect(await say(missing, SPANISH)).toMatch(/no existe el archivo/);
    expect(await say(["--lang", "en", ...missing], SPANISH)).toMatch(/no such file/);
    expect(await say(["--lang=es", ...missing], {})).toMatch(/no existe el archivo/);
    expect(await say(missing, { ...SPANISH, LC_ALL: "C" })).toMatch(/no such file/);
    expect(await say(missing, { LANG: "en_US.UTF-8", LC_MESSAGES: "es_ES.UTF-8" })).toMatch(/no existe el archivo/);
    expect(await say(["--bogus"], SPANISH)).toMatch(/error: opción desconocida '--bogus'/);
    const help = await runCli(["--help"], { cwd: u.cwd, env: { ...u.env, ...SPANISH } });
    expect(help.stdout).toMatch(/^Uso: facturar/);
    expect(help.stdout).toMatch(/emite comprobantes ahora/);
    const unknown = await runCli(["--lang", "fr", "--version"], { cwd: u.cwd, env: u.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--lang takes es or en, not "fr"/);
    // Told in the environment's language, the one the user reads.
    const inSpanish = await runCli(["--lang", "fr", "--version"], { cwd: u.cwd, env: { ...u.env, ...SPANISH } });
    expect(inSpanish.stderr).toMatch(/--lang acepta es o en, no "fr"/);
    expect(readdirSync(u.cwd)).toEqual([]);
  });
});
