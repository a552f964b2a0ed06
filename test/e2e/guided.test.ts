/** `facturar issue --interactive` in a pseudo-terminal: asked, totalled, confirmed, issued, saved. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, inTerminal, runCli } from "../helpers.js";

const ENTER = "\r";

describe("facturar issue --interactive", () => {
  it("asks for a FACTURA B to a consumer, shows its totals, issues it with its PDF and keeps the JSON", async () => {
    const u = freshUser("facturar-guided-");
    const env = { ...process.env, ...u.env, CI: "" };
    const before = new Set(readdirSync(tmpdir()));
    const screen = await inTerminal(["issue", "--interactive"], { cwd: u.cwd, env }, [
      [/Voucher type/, ENTER],
      [/Unidentified final consumer/, ENTER],
      [/Customer's document/, ENTER],
      [/DNI number/, `30123456${ENTER}`],
      [/Customer's name/, `Juana Perez${ENTER}`],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, `Av. Corrientes 1234${ENTER}`],
      [/Customer's e-mail/, `juana@example.com${ENTER}`],
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
    expect(screen).toMatch(/net 21% 3001\.00 \+ VAT 630\.21 = 3631\.21/);
    expect(screen).toMatch(/✔ FACTURA B 00679-00000001/);
    expect(screen).toMatch(/EXIT=0/);
    expect(existsSync(join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001.pdf"))).toBe(true);
    const saved = screen.match(/saved to (\S+\.json)/)?.[1] as string;
    expect(JSON.parse(readFileSync(saved, "utf8"))).toMatchObject({
      cliente: { documento_nro: "30123456", domicilio: "Av. Corrientes 1234", email: "juana@example.com" },
      comprobante: { tipo: "FACTURA B", total: "3631.21", external_reference: "VENTA-1" },
    });
    // Nothing with the customer's data is left in a temporary folder.
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith("facturar-guided-") && !before.has(f))).toEqual([]);
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
  }, 60_000);

  it("wants a terminal, and takes no files", async () => {
    const u = freshUser("facturar-guided-");
    expect((await runCli(["issue", "--interactive"], { cwd: u.cwd, env: u.env })).code).toBe(2);
    expect((await runCli(["issue"], { cwd: u.cwd, env: u.env })).code).toBe(2);
  });
});
