/** `facturar issue --interactive` in a pseudo-terminal: asked, totalled, confirmed, issued, saved. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dayNumber, formatDay } from "../../src/voucher/dates.js";
import { decodeQr } from "../../src/voucher/qr.js";
import { freshUser, inTerminal, journalText, ndjson, ROOT, runCli, SPANISH, TODAY } from "../helpers.js";

const ENTER = "\r";
const DOWN = "\u001b[B";
const erase = (n: number) => "\u007f".repeat(n);

/** A day `days` from the tests' today (the CLIs run on FACTURAR_TODAY), dd/mm/yyyy. */
function argentinaDay(days = 0): string {
  return formatDay(dayNumber(TODAY) + days);
}

describe("facturar issue --interactive", () => {
  it("asks for a FACTURA B to a consumer, shows its totals, issues it with its PDF and keeps the JSON", async () => {
    const u = freshUser("facturar-guided-");
    // A temporary folder of its own: what the run leaves there is the run's alone.
    const temp = join(u.home, "tmp");
    mkdirSync(temp);
    const env = { ...process.env, ...u.env, CI: "", TMPDIR: temp };
    const screen = await inTerminal(["issue", "--interactive"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, ENTER],
      [/Customer's document/, ENTER],
      [/DNI number/, `30123456${ENTER}`],
      [/Customer's name/, `Juana Perez${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, `Av. Corrientes 1234${ENTER}`],
      [/Customer's e-mail/, `juana@example.com${ENTER}`],
      [/E-mail the voucher to juana@example\.com once issued\?/, ENTER],
      // The sale condition the PDF prints; "30 días" makes it due in 30 days, as a file would be.
      [/Sale condition/, `${DOWN}${ENTER}`],
      [/Item 1: description/, `Yerba mate 1 kg${ENTER}`],
      [/Quantity/, `2${ENTER}`],
      [/Unit price without VAT/, `1500.50${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, `VENTA-1${ENTER}`],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, `y${ENTER}`],
      [/\? File/, ENTER],
    ]);
    expect(screen).toMatch(/FACTURA B to Juana Perez \(DNI 30123456\), 1 item/);
    expect(screen).toMatch(/net 21% 3,001\.00 \+ VAT 630\.21 = 3,631\.21/);
    expect(screen).toMatch(/✔ FACTURA B 00679-00000001/);
    expect(screen).toMatch(/EXIT=0/);
    expect(existsSync(join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001.pdf"))).toBe(true);
    const saved = screen.match(/saved to (\S+\.json)/)?.[1] as string;
    expect(JSON.parse(readFileSync(saved, "utf8"))).toMatchObject({
      cliente: { documento_nro: "30123456", domicilio: "Av. Corrientes 1234", email: "juana@example.com" },
      comprobante: { tipo: "FACTURA B", total: "3631.21", external_reference: "VENTA-1" },
    });
    expect(JSON.parse(readFileSync(saved, "utf8"))).toMatchObject({
      cliente: { condicion_pago: 202 },
      comprobante: { fecha: argentinaDay(), vencimiento: argentinaDay(30) },
    });
    // Nothing with the customer's data is left in a temporary folder.
    expect(readdirSync(temp)).toEqual([]);
    // E-mailed when issued, as asked: support can send it again.
    expect(JSON.parse(readFileSync(saved, "utf8")).cliente.envia_por_mail).toBe("S");
    const resent = await runCli(["resend", "--ref", "VENTA-1"], { cwd: u.cwd, env: u.env });
    expect(resent.code, resent.stderr).toBe(0);
    // The saved file issues the same voucher: already issued, nothing sent.
    const again = await runCli(["issue", saved], { cwd: u.cwd, env: u.env });
    expect(again.stdout).toMatch(/already issued, not sent again/);
  }, 60_000);

  it("issues from memory when not saved: the journal names it `guided`", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, ENTER],
      [/Customer's document/, ENTER],
      [/DNI number/, `30123457${ENTER}`],
      [/Customer's name/, `Pedro Gomez${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/Sale condition/, ENTER],
      [/Item 1: description/, `Cafe 1 kg${ENTER}`],
      [/Quantity/, `1${ENTER}`],
      [/Unit price without VAT/, `100${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, ENTER],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, ENTER],
    ]);
    expect(screen).toMatch(/✔ FACTURA B 00679-00000001/);
    expect(screen).toMatch(/EXIT=0/);
    const journal = readdirSync(join(u.env.XDG_STATE_HOME, "facturar"))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => readFileSync(join(u.env.XDG_STATE_HOME, "facturar", f), "utf8"))
      .join("");
    expect(journal).toMatch(/"source":"guided"/);
    expect(journal).not.toMatch(/voucher\.json/);
    // The reference taken by default is one to read out on the phone: type, day and month, a code.
    const [day, month] = argentinaDay().split("/");
    const reference = new RegExp(`FB-${day}${month}-[0-9A-HJKMNP-TV-Z]{5}`);
    expect(screen).toMatch(reference);
    expect(journal).toMatch(reference);
  }, 60_000);

  it("a CUIT typed: the registry's name and VAT condition are offered; a failing lookup just asks (--verbose tells why)", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    // The sandbox's registry: this CUIT is a monotributo taxpayer, GOMEZ PABLO.
    const steps = (cuit: string, name: string): [RegExp, string][] => [
      [/Voucher type/, `${DOWN}${ENTER}`],
      [/CUIT number/, `${cuit}${ENTER}`],
      [/Customer's name/, `${name}${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/Sale condition/, ENTER],
      [/Item 1: description/, `Cafe 1 kg${ENTER}`],
      [/Quantity/, `1${ENTER}`],
      [/Unit price without VAT/, `100${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, `${cuit}${ENTER}`],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, `y${ENTER}`],
      [/\? File/, `${cuit}.json${ENTER}`],
    ];
    const screen = await inTerminal(
      ["issue", "--interactive", "--no-pdf"],
      { cwd: u.cwd, env },
      steps("27334445556", ""),
    );
    expect(screen).toMatch(/registry: GOMEZ PABLO, MONOTRIBUTO/);
    expect(screen).toMatch(/EXIT=0/);
    // Both defaults taken with Enter: the name, and M (not RI, the first choice of a FACTURA A).
    const saved = JSON.parse(readFileSync(screen.match(/saved to (\S+\.json)/)?.[1] as string, "utf8"));
    expect(saved.cliente).toMatchObject({ razon_social: "GOMEZ PABLO", condicion_iva: "M", condicion_pago: 201 });
    // The registry's address was offered, and Enter took it.
    // (the sandbox's registry: ITALIA 3444, CIUDAD AUTONOMA BUENOS AIRES 1406, both locality and province)
    expect(saved.cliente.domicilio).toBe("ITALIA 3444, CIUDAD AUTONOMA BUENOS AIRES (1406)");
    // Cash is due on the voucher's date, as a file without vencimiento is.
    expect(saved.comprobante.vencimiento).toBe(saved.comprobante.fecha);
    const [issued] = ndjson(
      (await runCli(["--json", "query", "--ref", "27334445556"], { cwd: u.cwd, env: u.env })).stdout,
    );
    expect(issued).toMatchObject({ status: "issued", cliente: { razon_social: "GOMEZ PABLO" } });
    // The lookup fails (the registry has no such person): asked as before, nothing offered.
    const unknown = await inTerminal(
      ["--verbose", "issue", "--interactive", "--no-pdf"],
      { cwd: u.cwd, env },
      steps("55000000018", "Foreign Co"),
    );
    expect(unknown).not.toMatch(/registry:/);
    // --verbose says why nothing was offered.
    expect(unknown).toMatch(/registry lookup failed: /);
    expect(unknown).toMatch(/EXIT=0/);
    expect(JSON.parse(readFileSync(join(u.cwd, "55000000018.json"), "utf8")).cliente).toMatchObject({
      razon_social: "Foreign Co",
      condicion_iva: "RI",
    });
  }, 60_000);

  it("a monotributo customer on a FACTURA B: the registry's condition is said not to fit, not silently replaced", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    // The sandbox's registry: 27334445556 is GOMEZ PABLO, MONOTRIBUTO (M), whom a B does not take.
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, `n${ENTER}`],
      [/Customer's document/, `${DOWN}${ENTER}`],
      [/CUIT number/, `27334445556${ENTER}`],
      [/Customer's name/, ENTER],
      [/Customer's VAT condition/, "\u0003"],
    ]);
    expect(screen).toMatch(/warning: the registry says M, which a FACTURA B does not take \(it takes CF, E/);
    expect(screen).toMatch(/EXIT=130/);
  }, 60_000);

  it("Ctrl-C at a prompt cancels: nothing sent, exit 130", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const screen = await inTerminal(["issue", "--interactive"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, "\u0003"],
    ]);
    expect(screen).toMatch(/facturar: cancelled/);
    expect(screen).toMatch(/EXIT=130/);
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  });

  it("wants a terminal, and takes no files", async () => {
    const u = freshUser("facturar-guided-");
    expect((await runCli(["issue", "--interactive"], { cwd: u.cwd, env: u.env })).code).toBe(2);
    expect((await runCli(["issue"], { cwd: u.cwd, env: u.env })).code).toBe(2);
  });

  it("en español: a wrong date, the ceiling and a wrong CUIT are each asked again at their prompt, every other answer kept", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, ...SPANISH, CI: "" };
    const stale = argentinaDay(-20);
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Tipo de comprobante/, ENTER],
      [/¿Consumidor final no identificado/, `s${ENTER}`],
      [/Domicilio del cliente/, ENTER],
      [/E-mail del cliente/, `no-es-un-mail${ENTER}`],
      [/no parece una dirección de correo/, `${erase(13)}${ENTER}`],
      [/Condición de venta/, ENTER],
      [/Ítem 1: descripción/, `Tractor usado${ENTER}`],
      [/Cantidad/, ENTER],
      [/Precio unitario sin IVA/, `9.000.000${ENTER}`],
      [/Alícuota de IVA/, ENTER],
      [/¿Agregar otro ítem\?/, ENTER],
      // Twenty days back is outside the window for goods: refused where it is typed.
      [/Fecha del comprobante/, `${erase(10)}${stale}${ENTER}`],
      [/dentro de los 5 días/, `${erase(10)}${ENTER}`],
      [/Referencia/, `TRACTOR-1${ENTER}`],
      // Only the whole sale shows it reaches the ceiling: the customer is asked for, the rest kept.
      [/alcanza el tope para consumidores no identificados/, ""],
      [/Documento del cliente/, `${DOWN}${ENTER}`],
      [/Número de CUIT/, `20111111113${ENTER}`],
      [/no es válida: su dígito verificador no coincide/, `${erase(1)}2${ENTER}`],
      [/Nombre o razón social del cliente/, `Campo SA${ENTER}`],
      [/Condición frente al IVA del cliente/, ENTER],
      [/¿Emitirlo\?/, ENTER],
      [/¿Guardarlo como archivo JSON/, ENTER],
    ]);
    expect(screen).toMatch(/FACTURA B a Campo SA \(CUIT 20111111112\), 1 ítem/);
    expect(screen).toMatch(/neto 21 % 9\.000\.000,00 \+ IVA 1\.890\.000,00 = 10\.890\.000,00/);
    expect(screen).toMatch(/✔ FACTURA B 00679-00000001 .*emitido/);
    expect(screen).toMatch(/EXIT=0/);
    const found = await runCli(["--json", "query", "--ref", "TRACTOR-1"], { cwd: u.cwd, env: u.env });
    expect(ndjson(found.stdout)[0]).toMatchObject({
      status: "issued",
      cliente: { documento_tipo: "CUIT", documento_nro: "20111111112" },
      comprobante: { fecha: argentinaDay(), total: 10890000 },
    });
  }, 60_000);

  it("--from-ref: a partial NOTA DE CREDITO B of an issued FACTURA B, associated with it at the service; once", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const today = argentinaDay();
    const invoice = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    Object.assign(invoice.comprobante, { fecha: today, vencimiento: today, external_reference: "VENTA-9" });
    writeFileSync(join(u.cwd, "venta.json"), JSON.stringify(invoice));
    const issued = await runCli(["issue", "--no-pdf", "venta.json"], { cwd: u.cwd, env: u.env });
    expect(issued.code, issued.stderr).toBe(0);

    const screen = await inTerminal(
      ["--lang", "es", "issue", "--from-ref", "VENTA-9", "--no-pdf"],
      { cwd: u.cwd, env },
      [
        [/FACTURA B 00679-00000001 del \S+ a Juana Pérez \(DNI 30123456\), total 133\.463,00/, ""],
        [/¿Qué nota\?/, ENTER],
        [/NOTA DE CREDITO B a partir de él/, ""],
        // The service does not say the customer's VAT condition: asked, the class's usual one offered.
        [/Condición frente al IVA del cliente/, ENTER],
        [/Domicilio del cliente/, ENTER],
        [/E-mail del cliente/, ENTER],
        [/once issued\?|una vez emitido\?/, ENTER],
        [/Ítem 1: Zapatillas running/, ""],
        [/Cantidad \(0 deja el ítem afuera\)/, `${erase(1)}0${ENTER}`],
        [/Ítem 1: Medias deportivas x3/, ""],
        // A credit note cannot credit more than the voucher had.
        [/Cantidad \(0 deja el ítem afuera\)/, `${erase(1)}3${ENTER}`],
        [/como máximo 2, lo que tenía el comprobante/, `${erase(1)}1${ENTER}`],
        [/Precio unitario sin IVA/, ENTER],
        [/Fecha del comprobante/, ENTER],
        [/Referencia/, ENTER],
        [/¿Emitirlo\?/, ENTER],
        [/¿Guardarlo como archivo JSON/, `s${ENTER}`],
        [/Archivo/, ENTER],
      ],
    );
    expect(screen).toMatch(/NOTA DE CREDITO B a Juana Pérez \(DNI 30123456\), 1 ítem/);
    expect(screen).toMatch(/total 9\.256,50/);
    expect(screen).toMatch(/✔ NOTA DE CREDITO B 00679-00000001 .*ref VENTA-9-NC1 .*emitido/);
    expect(screen).toMatch(/EXIT=0/);

    // The note at the service: the customer and the amount credited.
    const note = ndjson((await runCli(["--json", "query", "--ref", "VENTA-9-NC1"], { cwd: u.cwd, env: u.env })).stdout);
    expect(note).toHaveLength(1);
    expect(note[0]).toMatchObject({
      status: "issued",
      cliente: { documento_tipo: "DNI", documento_nro: "30123456", razon_social: "Juana Pérez" },
      comprobante: { tipo: "NOTA DE CREDITO B", total: 9256.5 },
    });
    // Its association names the invoice the service holds: type, point of sale, number, date, issuer.
    const saved = JSON.parse(readFileSync(screen.match(/guardado en (\S+\.json)/)?.[1] as string, "utf8"));
    const [association] = saved.comprobante.comprobantes_asociados;
    expect(association).toMatchObject({
      tipo_comprobante: "FACTURA B",
      punto_venta: 679,
      numero: 1,
      comprobante_fecha: today,
    });
    const held = ndjson(
      (
        await runCli(
          ["--json", "query", "--type", association.tipo_comprobante, "--number", String(association.numero)],
          {
            cwd: u.cwd,
            env: u.env,
          },
        )
      ).stdout,
    )[0];
    expect(held).toMatchObject({
      external_reference: "VENTA-9",
      comprobante: { fecha: association.comprobante_fecha },
    });
    expect(String(decodeQr(held.comprobante.afip_qr)?.cuit)).toBe(association.cuit);
    // A second run does not issue a second note: its reference is already at the service.
    const again = await runCli(["issue", "--no-pdf", screen.match(/guardado en (\S+\.json)/)?.[1] as string], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(again.stdout).toMatch(/NOTA DE CREDITO B 00679-00000001 .*already issued, not sent again/);
    // --from-ref again: told at once that the note exists, and nothing made unless asked for.
    const second = await inTerminal(
      ["--lang", "es", "issue", "--from-ref", "VENTA-9", "--no-pdf"],
      { cwd: u.cwd, env },
      [
        [/¿Qué nota\?/, ENTER],
        [/VENTA-9-NC1 ya está emitido: NOTA DE CREDITO B 00679-00000001/, ""],
        [/¿Hacer otra nota de este comprobante\?/, ENTER],
      ],
    );
    expect(second).not.toMatch(/Cantidad/);
    expect(second).toMatch(/EXIT=0/);
    const notes = await runCli(["--json", "query", "--type", "NOTA DE CREDITO B", "--from", "1", "--to", "9"], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(ndjson(notes.stdout)).toHaveLength(1);
  }, 90_000);

  it("--from-ref of a reference the service does not hold ends before asking anything", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const screen = await inTerminal(["issue", "--from-ref", "NO-EXISTE"], { cwd: u.cwd, env }, []);
    expect(screen).toMatch(/the service holds no voucher with reference NO-EXISTE/);
    expect(screen).toMatch(/EXIT=9/);
  }, 60_000);

  /** The first prompts of a NOTA DE CREDITO B typed from scratch, to an unidentified consumer, one item of 100 + VAT. */
  const creditNoteStart: [RegExp, string][] = [
    [/Voucher type/, `${DOWN.repeat(4)}${ENTER}`],
    [/Unidentified final consumer/, `y${ENTER}`],
    [/Customer's address/, ENTER],
    [/Customer's e-mail/, ENTER],
    [/Sale condition/, ENTER],
    [/Item 1: description/, `Devolucion parcial${ENTER}`],
    [/Quantity/, ENTER],
    [/Unit price without VAT/, `100${ENTER}`],
    [/VAT rate/, ENTER],
    [/Add another item\?/, ENTER],
    [/Voucher date/, ENTER],
  ];

  it("a note typed without a voucher asks the period it adjusts; a period that ends before it starts is asked again", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      ...creditNoteStart,
      // Each day alone is fine; only the two together show the period reversed.
      [/Period the note adjusts: from/, `${erase(10)}${argentinaDay(-5)}${ENTER}`],
      [/to \(dd\/mm\/yyyy\)/, `${erase(10)}${argentinaDay(-10)}${ENTER}`],
      [/Reference/, `NC-PERIODO${ENTER}`],
      [/error: the period ends \(\S+\) before it starts \(\S+\) \[period\.order\]/, ""],
      // Back at the period, the first answer kept as the default.
      [/Period the note adjusts: from/, ENTER],
      [/to \(dd\/mm\/yyyy\)/, `${erase(10)}${argentinaDay()}${ENTER}`],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, `y${ENTER}`],
      [/\? File/, ENTER],
    ]);
    expect(screen).toMatch(/NOTA DE CREDITO B to Consumidor final \(OTRO 0\), 1 item/);
    expect(screen).toMatch(/✔ NOTA DE CREDITO B 00679-00000001 .*ref NC-PERIODO/);
    expect(screen).toMatch(/EXIT=0/);
    const saved = JSON.parse(readFileSync(screen.match(/saved to (\S+\.json)/)?.[1] as string, "utf8"));
    expect(saved.comprobante.comprobantes_asociados_periodo).toEqual({
      fecha_desde: argentinaDay(-5),
      fecha_hasta: argentinaDay(),
    });
    expect(saved.comprobante.total).toBe("121.00");
  }, 60_000);

  it("an item the whole voucher refuses sends the user back to that item; a warning is shown before the totals", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const long = `Cafe ${"x".repeat(251)}`;
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, ENTER],
      [/Customer's document/, ENTER],
      [/DNI number/, `123456${ENTER}`],
      [/Customer's name/, `Ana Diaz${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/Sale condition/, ENTER],
      [/Item 1: description/, `${long}${ENTER}`],
      [/Quantity/, `2${ENTER}`],
      [/Unit price without VAT/, `100${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, `LARGO-1${ENTER}`],
      // 256 characters: only the whole voucher's rules say so; back at the item, its other answers offered.
      [/error: .*at most 255 characters/, ""],
      [/Item 1: description/, `Cafe molido${ENTER}`],
      [/Quantity/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/VAT rate/, ENTER],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, ENTER],
    ]);
    expect(screen).toMatch(/warning: a DNI has 7 or 8 digits; got 123456/);
    expect(screen).toMatch(/FACTURA B to Ana Diaz \(DNI 123456\), 1 item/);
    expect(screen).toMatch(/net 21% 200\.00 \+ VAT 42\.00 = 242\.00/);
    expect(screen).toMatch(/✔ FACTURA B 00679-00000001 .*ref LARGO-1/);
    expect(screen).toMatch(/EXIT=0/);
    const [issued] = ndjson((await runCli(["--json", "query", "--ref", "LARGO-1"], { cwd: u.cwd, env: u.env })).stdout);
    expect(issued.comprobante.detalle).toMatchObject([{ cantidad: 2, producto: { descripcion: "Cafe molido" } }]);
  }, 60_000);

  it("a name or an address with a hidden direction control: back at the customer, then at the address, the rest kept", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const RLO = "\u202e";
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, ENTER],
      [/Customer's document/, ENTER],
      [/DNI number/, `30123458${ENTER}`],
      [/Customer's name/, `Ana${RLO} Diaz${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, `Calle${RLO} 12${ENTER}`],
      [/Customer's e-mail/, ENTER],
      [/Sale condition/, ENTER],
      [/Item 1: description/, `Cafe molido${ENTER}`],
      [/Quantity/, ENTER],
      [/Unit price without VAT/, `100${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, `OCULTO-1${ENTER}`],
      [/error: .*direction controls.* \[schema/, ""],
      // The whole customer again, each answer offered; only the name typed anew.
      [/Unidentified final consumer/, ENTER],
      [/Customer's document/, ENTER],
      [/DNI number/, ENTER],
      [/Customer's name/, `${erase(20)}Ana Diaz${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/error: .*direction controls.* \[schema/, ""],
      [/Customer's address/, `${erase(20)}Calle 12${ENTER}`],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, ENTER],
    ]);
    expect(screen).toMatch(/FACTURA B to Ana Diaz \(DNI 30123458\), 1 item/);
    expect(screen).toMatch(/EXIT=0/);
    const [issued] = ndjson(
      (await runCli(["--json", "query", "--ref", "OCULTO-1"], { cwd: u.cwd, env: u.env })).stdout,
    );
    expect(issued).toMatchObject({ status: "issued", cliente: { razon_social: "Ana Diaz" } });
  }, 60_000);

  it("the same wrong answer given round after round: the guide gives up, shows the error, sends nothing", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const again: [RegExp, string][] = [];
    // Twenty rounds back to the period, each answered with the reversed one kept as the default.
    for (let round = 0; round < 20; round++)
      again.push([/Period the note adjusts: from/, ENTER], [/to \(dd\/mm\/yyyy\)/, ENTER]);
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      ...creditNoteStart,
      [/Period the note adjusts: from/, `${erase(10)}${argentinaDay(-5)}${ENTER}`],
      [/to \(dd\/mm\/yyyy\)/, `${erase(10)}${argentinaDay(-10)}${ENTER}`],
      [/Reference/, `NC-TERCO${ENTER}`],
      ...again,
    ]);
    expect(screen.match(/\[period\.order\]/g)).toHaveLength(21);
    expect(screen).not.toMatch(/Issue it\?/);
    expect(screen).toMatch(/EXIT=3\b/);
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  }, 90_000);

  it("the ceiling cannot be had from the service: a warning, the documented default used", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, FACTURAR_SANDBOX_FAULTS: "plan-ended", CI: "" };
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, `y${ENTER}`],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/Sale condition/, ENTER],
      [/Item 1: description/, `Cafe 1 kg${ENTER}`],
      [/Quantity/, ENTER],
      [/Unit price without VAT/, `100${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, ENTER],
      [/Issue it\?/, `n${ENTER}`],
    ]);
    expect(screen).toMatch(/warning: could not get the current final-consumer ceiling \(.+\); using \d+/);
    expect(screen).toMatch(/FACTURA B to Consumidor final \(OTRO 0\), 1 item/);
    expect(screen).toMatch(/nothing sent/);
    expect(screen).toMatch(/EXIT=0/);
  }, 60_000);

  /** A user who issued the sample FACTURA B (items: 1 × 95000, 2 × 8500 less 10 %) as `ref`. */
  async function issuedInvoice(ref: string) {
    const u = freshUser("facturar-guided-");
    const today = argentinaDay();
    const invoice = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    Object.assign(invoice.comprobante, { fecha: today, vencimiento: today, external_reference: ref });
    writeFileSync(join(u.cwd, "venta.json"), JSON.stringify(invoice));
    const issued = await runCli(["issue", "--no-pdf", "venta.json"], { cwd: u.cwd, env: u.env });
    expect(issued.code, issued.stderr).toBe(0);
    return { u, env: { ...process.env, ...u.env, CI: "" } };
  }

  it("--from-ref: a credit note's price is capped at the voucher's; another note is the next in sequence; a condition the document cannot take is shown, nothing sent", async () => {
    const { u, env } = await issuedInvoice("VENTA-7");
    const first = await inTerminal(["issue", "--from-ref", "VENTA-7", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Which note\?/, ENTER],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/once issued\?|una vez emitido\?/, ENTER],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, `${erase(5)}95001${ENTER}`],
      [/at most 95000, what the voucher had/, `${erase(5)}90000${ENTER}`],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, ENTER],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, ENTER],
    ]);
    // 90000 × 1.21 + 2 × 8500 × 0.9 × 1.21
    expect(first).toMatch(/total 127,413\.00/);
    expect(first).toMatch(/✔ NOTA DE CREDITO B 00679-00000001 .*ref VENTA-7-NC1/);
    expect(first).toMatch(/EXIT=0/);

    // Another note asked for: VENTA-7-NC2. An exempt customer with a DNI cannot take a B, and a
    // note keeps the voucher's customer: no prompt can fix it, so it is shown and nothing is sent.
    const second = await inTerminal(["issue", "--from-ref", "VENTA-7", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Which note\?/, ENTER],
      [/VENTA-7-NC1 is issued already: NOTA DE CREDITO B 00679-00000001/, ""],
      [/Make another note of this voucher\?/, `y${ENTER}`],
      [/Customer's VAT condition/, `${DOWN}${ENTER}`],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/once issued\?|una vez emitido\?/, ENTER],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, ENTER],
    ]);
    expect(second).toMatch(/VENTA-7-NC2/);
    expect(second).toMatch(/error: .*not DNI \[document\.class\]/);
    expect(second).not.toMatch(/Issue it\?/);
    expect(second).toMatch(/EXIT=3\b/);
    const held = await runCli(["--json", "query", "--ref", "VENTA-7-NC2"], { cwd: u.cwd, env: u.env });
    expect(ndjson(held.stdout)).toMatchObject([{ ok: false, error: { code: "service.not-found" } }]);
  }, 90_000);

  it("--from-ref while the voucher's latest note is still queued: that note is the one made, under its reference", async () => {
    const { u, env } = await issuedInvoice("VENTA-6");
    const asNote: [RegExp, string][] = [
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/once issued\?|una vez emitido\?/, ENTER],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/Voucher date/, ENTER],
    ];
    const first = await inTerminal(["issue", "--from-ref", "VENTA-6", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Which note\?/, ENTER],
      ...asNote,
      [/Reference/, ENTER],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, `y${ENTER}`],
      [/\? File/, `nc1.json${ENTER}`],
    ]);
    expect(first).toMatch(/✔ NOTA DE CREDITO B 00679-00000001 .*ref VENTA-6-NC1/);
    // A second note, queued while the authority is down: at the service, not issued.
    const down = { FACTURAR_SANDBOX_FAULTS: "authority-down" };
    const second = JSON.parse(readFileSync(join(u.cwd, "nc1.json"), "utf8"));
    second.comprobante.external_reference = "VENTA-6-NC2";
    writeFileSync(join(u.cwd, "nc2.json"), JSON.stringify(second));
    const queued = await runCli(["issue-queued", "--no-pdf", "nc2.json"], { cwd: u.cwd, env: { ...u.env, ...down } });
    expect(queued.stdout + queued.stderr).toMatch(/VENTA-6-NC2/);
    const screen = await inTerminal(
      ["issue", "--from-ref", "VENTA-6", "--no-pdf"],
      { cwd: u.cwd, env: { ...env, ...down } },
      [[/Which note\?/, ENTER], ...asNote, [/Reference/, ENTER], [/Issue it\?/, `n${ENTER}`]],
    );
    expect(screen).not.toMatch(/is issued already/);
    expect(screen).toMatch(/Reference \(external_reference\) \(VENTA-6-NC2\)/);
    expect(screen).toMatch(/nothing sent/);
  }, 90_000);

  it("--from-ref: a debit note charges more than the voucher had: its amounts are not capped", async () => {
    const { u, env } = await issuedInvoice("VENTA-8");
    const screen = await inTerminal(["issue", "--from-ref", "VENTA-8", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Which note\?/, `${DOWN}${ENTER}`],
      [/NOTA DE DEBITO B from it/, ""],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/once issued\?|una vez emitido\?/, ENTER],
      [/Quantity \(0 leaves the item out\)/, `${erase(1)}3${ENTER}`],
      [/Unit price without VAT/, `${erase(5)}100000${ENTER}`],
      [/Quantity \(0 leaves the item out\)/, `${erase(1)}0${ENTER}`],
      [/Voucher date/, ENTER],
      [/Reference/, ENTER],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, ENTER],
    ]);
    expect(screen).not.toMatch(/at most/);
    expect(screen).toMatch(/NOTA DE DEBITO B to Juana Pérez \(DNI 30123456\), 1 item/);
    // 3 × 100000 × 1.21
    expect(screen).toMatch(/total 363,000\.00/);
    expect(screen).toMatch(/✔ NOTA DE DEBITO B 00679-00000001 .*ref VENTA-8-ND1/);
    expect(screen).toMatch(/EXIT=0/);
  }, 60_000);

  it("--from-ref of an FCE invoice asks whether the note annuls it (rejected by the buyer)", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const fce = JSON.parse(readFileSync(join(ROOT, "samples", "fce-b.json"), "utf8"));
    Object.assign(fce.comprobante, {
      fecha: argentinaDay(),
      vencimiento: argentinaDay(30),
      external_reference: "FCE-1",
    });
    writeFileSync(join(u.cwd, "fce.json"), JSON.stringify(fce));
    const issued = await runCli(["issue", "--no-pdf", "fce.json"], { cwd: u.cwd, env: u.env });
    expect(issued.code, issued.stderr).toBe(0);
    const screen = await inTerminal(["issue", "--from-ref", "FCE-1", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Which note\?/, ENTER],
      [/Customer's VAT condition/, ENTER],
      [/Does the note annul the invoice \(rejected by the buyer\)\?/, `y${ENTER}`],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/once issued\?|una vez emitido\?/, ENTER],
      [/Quantity \(0 leaves the item out\)/, ENTER],
      [/Unit price without VAT/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, ENTER],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, `y${ENTER}`],
      [/\? File/, `nota.json${ENTER}`],
    ]);
    expect(screen).toMatch(/EXIT=0/);
    const saved = JSON.parse(readFileSync(join(u.cwd, "nota.json"), "utf8"));
    expect(saved.comprobante.tipo).toMatch(/NOTA DE CREDITO ELECTRONICA MiPyME \(FCE\) B/);
    expect(saved.comprobante.rg_especiales.datos).toContainEqual({ id: 22, valor: "S" });
  }, 60_000);
});
