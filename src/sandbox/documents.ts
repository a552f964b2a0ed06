/**
 * The documents behind `comprobante_pdf_url` and `comprobante_ticket_url`: an A4 PDF laid out like
 * an Argentine voucher and an 80 mm ticket, both marked as development documents with no fiscal
 * validity. pdfkit draws them; qrcode draws the QR.
 */
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { rateIn } from "../i18n/message.js";
import { VAT_CONDITION_NAMES, type VatCondition, voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { printsSmallTaxpayerLegend, SMALL_TAXPAYER_LEGEND, withoutSmallTaxpayerLegend } from "../voucher/legends.js";
import type { Totals } from "../voucher/totals.js";

export interface DocumentLine {
  codigo: string;
  descripcion: string;
  leyenda: string;
  cantidad: string;
  precio: string;
  bonificacion: string;
  alicuota: string;
  subtotal: string;
}

export interface DocumentView {
  issuer: { razon_social: string; cuit: string };
  tipo: string;
  punto_venta: number;
  numero: number;
  fecha: string;
  vencimiento: string;
  periodo?: { desde: string; hasta: string };
  party: {
    label: "Cliente" | "Proveedor";
    razon_social: string;
    documento_tipo: string;
    documento_nro: string;
    condicion_iva: string;
    domicilio: string;
    condicion_pago: string;
  };
  moneda: string;
  cotizacion: string;
  lines: DocumentLine[];
  totals?: Totals;
  declaredTotal: string;
  leyenda_gral: string;
  cae: string;
  vencimiento_cae: string;
  qr: string;
}

const WATERMARK = "DESARROLLO — SIN VALIDEZ FISCAL";
const CLASS_M_LEGEND = "OPERACIÓN SUJETA A RETENCIÓN";

/**
 * Draws the QR as vector squares: sharper than a bitmap at any zoom, and about ten times cheaper
 * than encoding a PNG for every document.
 */
const qrCache = new Map<string, ReturnType<typeof QRCode.create>>();

function qrMatrix(text: string): ReturnType<typeof QRCode.create> {
  let qr = qrCache.get(text);
  if (!qr) {
    // One byte-mode segment: the URL is ASCII, and searching for the best mix of modes costs more
    // than the whole rest of the page.
    // A fixed mask: any of the eight is valid and every reader tries them all; scoring all eight
    // to pick the "best" took 3 ms a voucher, more than drawing the page.
    qr = QRCode.create([{ data: Buffer.from(text, "latin1"), mode: "byte" }], {
      errorCorrectionLevel: "M",
      maskPattern: 0,
    });
    // The A4 and the ticket of a voucher share it; a handful is enough.
    if (qrCache.size > 16) qrCache.clear();
    qrCache.set(text, qr);
  }
  return qr;
}

/**
 * The QR's dark modules as one PDF path, a rectangle per horizontal run: a few hundred operators
 * written once, instead of a pdfkit call per module (that was a fifth of the sandbox's time when
 * a batch downloads its documents).
 */
function qrPath(text: string, x: number, y: number, size: number): string {
  const qr = qrMatrix(text);
  const count = qr.modules.size;
  const quiet = 2;
  const cell = size / (count + 2 * quiet);
  const n = (v: number) => Math.round(v * 1000) / 1000;
  const parts: string[] = [];
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; ) {
      if (!qr.modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && qr.modules.get(row, col)) col++;
      parts.push(
        `${n(x + (start + quiet) * cell)} ${n(y + (row + quiet) * cell)} ${n((col - start) * cell)} ${n(cell)} re`,
      );
    }
  }
  return parts.join("\n");
}

function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  doc.save().rect(x, y, size, size).fill("white");
  doc.addContent(qrPath(text, x, y, size));
  doc.fill("black").restore();
}

function render(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

const MONEY = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const UNIT_PRICE = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 3 });

/** es-AR amounts: 1.234,56 (unit prices may have three decimals). */
function money(value: string | undefined, maxDecimals = 2): string {
  return (maxDecimals > 2 ? UNIT_PRICE : MONEY).format(Number(value ?? 0));
}

function number(view: DocumentView): string {
  return voucherNumber(view.punto_venta, view.numero);
}

function conditionName(code: string): string {
  return VAT_CONDITION_NAMES[code as VatCondition] ?? code;
}

/** The letter in the box at the top and the authority's code under it. */
function letterBox(view: DocumentView): { letter: string; code: string } {
  const info = voucherTypeInfo(view.tipo);
  const letter = info?.class === "M" ? "A" : (info?.class ?? "X");
  return { letter, code: info?.code ? String(info.code).padStart(3, "0") : "---" };
}

/** Tax transparency (Ley 27.743, RG 5614): class B and C vouchers to final consumers. */
function transparency(view: DocumentView): { vat: string; other: string } | undefined {
  const cls = voucherTypeInfo(view.tipo)?.class;
  if ((cls !== "B" && cls !== "C") || view.party.condicion_iva !== "CF" || !view.totals) return undefined;
  const vat = cls === "B" ? view.totals.vat.toFixed(2) : "0.00";
  return { vat, other: view.totals.internalTaxes.toFixed(2) };
}

function legends(view: DocumentView): string[] {
  const cls = voucherTypeInfo(view.tipo)?.class;
  const out: string[] = [];
  if (cls === "M") out.push(CLASS_M_LEGEND);
  if (printsSmallTaxpayerLegend(cls, view.party.condicion_iva)) out.push(SMALL_TAXPAYER_LEGEND);
  return out;
}

/**
 * The general legend as printed: where the service prints the small-taxpayer legend itself, a
 * copy of it sent in `leyenda_gral` (which `validate` refuses) is not printed a second time.
 */
function generalLegend(view: DocumentView): string {
  const cls = voucherTypeInfo(view.tipo)?.class;
  if (!printsSmallTaxpayerLegend(cls, view.party.condicion_iva)) return view.leyenda_gral;
  return withoutSmallTaxpayerLegend(view.leyenda_gral).rest;
}

export async function renderVoucherPdf(view: DocumentView): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 36,
    info: { Title: `${view.tipo} ${number(view)}`, Author: view.issuer.razon_social },
  });
  const left = 36;
  const width = doc.page.width - 72;
  const box = letterBox(view);
  const info = voucherTypeInfo(view.tipo);
  const showsVat = info?.class === "A" || info?.class === "M";

  // Watermark first, so everything else is drawn over it.
  doc
    .save()
    .rotate(-35, { origin: [300, 420] })
    .fontSize(44)
    .fillColor("#e3e3e3")
    .font("Helvetica-Bold");
  doc.text(WATERMARK, 20, 400, { width: 560, align: "center" }).restore();
  doc.fillColor("black");

  // Header: issuer left, letter box centre, voucher right.
  doc.rect(left, 36, width, 110).stroke();
  doc.rect(left + width / 2 - 25, 36, 50, 50).stroke();
  doc
    .font("Helvetica-Bold")
    .fontSize(30)
    .text(box.letter, left + width / 2 - 25, 44, { width: 50, align: "center" });
  doc
    .font("Helvetica")
    .fontSize(7)
    .text(`COD. ${box.code}`, left + width / 2 - 25, 76, { width: 50, align: "center" });
  doc
    .font("Helvetica-Bold")
    .fontSize(12)
    .text(view.issuer.razon_social, left + 8, 46, { width: width / 2 - 45 });
  doc.font("Helvetica").fontSize(8);
  doc.text(`CUIT: ${view.issuer.cuit}`, left + 8, 76);
  doc.text("Condición frente al IVA: IVA Responsable Inscripto", left + 8, 88);
  doc.text("Punto de venta de desarrollo (plan API DEV)", left + 8, 100);
  const rx = left + width / 2 + 35;
  doc
    .font("Helvetica-Bold")
    .fontSize(11)
    .text(view.tipo, rx, 46, { width: width / 2 - 43 });
  doc.font("Helvetica").fontSize(9);
  doc.text(
    `Punto de venta: ${String(view.punto_venta).padStart(5, "0")}   Comp. Nro: ${String(view.numero).padStart(8, "0")}`,
    rx,
    80,
  );
  doc.text(`Fecha de emisión: ${view.fecha}`, rx, 94);
  doc.text(`Vencimiento del pago: ${view.vencimiento}`, rx, 108);
  if (view.periodo) doc.text(`Período facturado: ${view.periodo.desde} al ${view.periodo.hasta}`, rx, 122);

  // Customer or supplier.
  let y = 156;
  doc.rect(left, y, width, 58).stroke();
  doc
    .font("Helvetica-Bold")
    .fontSize(9)
    .text(`${view.party.label}: ${view.party.razon_social}`, left + 8, y + 8, { width: width - 16 });
  doc.font("Helvetica").fontSize(8);
  doc.text(`${view.party.documento_tipo}: ${view.party.documento_nro}`, left + 8, y + 22);
  doc.text(`Condición frente al IVA: ${conditionName(view.party.condicion_iva)}`, left + width / 2, y + 22);
  doc.text(`Domicilio: ${view.party.domicilio || "-"}`, left + 8, y + 36, { width: width / 2 - 16 });
  doc.text(`Condición de venta: ${view.party.condicion_pago || "-"}`, left + width / 2, y + 36);
  if (view.moneda !== "PES")
    doc.text(`Moneda: ${view.moneda}  Cotización: ${view.cotizacion}`, left + width / 2, y + 48);

  // Items.
  y += 70;
  const cols = showsVat
    ? [
        ["Código", 50],
        ["Descripción", 190],
        ["Cant.", 40],
        ["P. unit.", 65],
        ["% Bonif.", 40],
        ["IVA", 40],
        ["Subtotal", 98],
      ]
    : [
        ["Código", 50],
        ["Descripción", 230],
        ["Cant.", 40],
        ["P. unit.", 65],
        ["% Bonif.", 40],
        ["Subtotal", 98],
      ];
  doc.rect(left, y, width, 16).fillAndStroke("#eeeeee", "black").fillColor("black");
  let x = left + 4;
  doc.font("Helvetica-Bold").fontSize(8);
  for (const [name, w] of cols) {
    doc.text(String(name), x, y + 4, {
      width: Number(w) - 6,
      align: name === "Descripción" || name === "Código" ? "left" : "right",
    });
    x += Number(w);
  }
  y += 20;
  doc.font("Helvetica").fontSize(8);
  for (const line of view.lines) {
    const cells = showsVat
      ? [
          line.codigo,
          line.descripcion,
          line.cantidad,
          money(line.precio, 3),
          line.bonificacion,
          line.alicuota,
          money(line.subtotal),
        ]
      : [line.codigo, line.descripcion, line.cantidad, money(line.precio, 3), line.bonificacion, money(line.subtotal)];
    const height = Math.max(12, doc.heightOfString(line.descripcion, { width: Number(cols[1]?.[1]) - 6 }) + 2);
    if (y + height > doc.page.height - 220) {
      doc.addPage();
      y = 36;
    }
    x = left + 4;
    cells.forEach((cell, i) => {
      const w = Number(cols[i]?.[1]);
      doc.text(cell, x, y, { width: w - 6, align: i <= 1 ? "left" : "right" });
      x += w;
    });
    y += height;
    if (line.leyenda) {
      doc
        .fillColor("#555555")
        .text(line.leyenda, left + 58, y, { width: 300 })
        .fillColor("black");
      y += doc.heightOfString(line.leyenda, { width: 300 }) + 2;
    }
  }

  // Totals.
  y = Math.max(y + 10, doc.page.height - 290);
  const t = view.totals;
  const rows: [string, string][] = [];
  if (t && showsVat) {
    if (!t.discount.isZero()) rows.push(["Bonificación", `-${money(t.discount.toFixed(2))}`]);
    // The document is Spanish: rates as es-AR writes them (10,5 %).
    const rate = (r: { rate: string }) => `${rateIn("es", r.rate)} %`;
    for (const r of t.rates) rows.push([`Neto gravado ${rate(r)}`, money(r.net.toFixed(2))]);
    for (const r of t.rates) rows.push([`IVA ${rate(r)}`, money(r.vat.toFixed(2))]);
    if (!t.exempt.isZero()) rows.push(["Importe exento", money(t.exempt.toFixed(2))]);
    if (!t.nonTaxed.isZero()) rows.push(["Importe no gravado", money(t.nonTaxed.toFixed(2))]);
  } else if (t) {
    rows.push(["Subtotal", money(t.subtotal.toFixed(2))]);
    if (!t.discount.isZero()) rows.push(["Bonificación", `-${money(t.discount.toFixed(2))}`]);
  }
  if (t && !t.internalTaxes.isZero()) rows.push(["Impuestos internos", money(t.internalTaxes.toFixed(2))]);
  if (t && !t.tributos.isZero()) rows.push(["Otros tributos", money(t.tributos.toFixed(2))]);
  rows.push([`Importe total${view.moneda !== "PES" ? ` (${view.moneda})` : ""}`, money(view.declaredTotal)]);
  if (y + rows.length * 13 + 10 > doc.page.height - 140) {
    doc.addPage();
    y = 36;
  }
  doc.rect(left + width / 2, y, width / 2, rows.length * 13 + 10).stroke();
  rows.forEach(([label, value], i) => {
    const last = i === rows.length - 1;
    doc.font(last ? "Helvetica-Bold" : "Helvetica").fontSize(last ? 10 : 8);
    doc.text(`${label}: $`, left + width / 2 + 6, y + 6 + i * 13, { width: width / 4, align: "right" });
    doc.text(value, left + (3 * width) / 4, y + 6 + i * 13, { width: width / 4 - 8, align: "right" });
  });

  // Legends and tax transparency on the left of the totals.
  let ly = y;
  doc.font("Helvetica").fontSize(7);
  const tr = transparency(view);
  if (tr) {
    doc
      .font("Helvetica-Bold")
      .text("Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)", left, ly, { width: width / 2 - 10 });
    ly += 18;
    doc.font("Helvetica").text(`IVA Contenido: $ ${money(tr.vat)}`, left, ly);
    ly += 10;
    doc.text(`Otros Impuestos Nacionales Indirectos: $ ${money(tr.other)}`, left, ly);
    ly += 14;
  }
  for (const legend of legends(view)) {
    doc.font("Helvetica-Bold").text(legend, left, ly, { width: width / 2 - 10 });
    ly += doc.heightOfString(legend, { width: width / 2 - 10 }) + 4;
  }
  const general = generalLegend(view);
  if (general) doc.font("Helvetica").text(general, left, ly, { width: width / 2 - 10 });

  // Footer: QR, CAE.
  const fy = doc.page.height - 130;
  drawQr(doc, view.qr, left, fy, 90);
  doc.font("Helvetica-Bold").fontSize(9);
  doc.text(`CAE: ${view.cae || "desarrollo: sin CAE"}`, left + width - 220, fy + 10, { width: 220, align: "right" });
  doc.text(`Vencimiento CAE: ${view.vencimiento_cae || "-"}`, left + width - 220, fy + 24, {
    width: 220,
    align: "right",
  });
  doc
    .font("Helvetica")
    .fontSize(8)
    .text(`Comprobante de desarrollo, sin validez fiscal. ${WATERMARK}.`, left + 100, fy + 70, { width: width - 100 });
  return render(doc);
}

/** An 80 mm till ticket: the same voucher, one column. */
export async function renderTicketPdf(view: DocumentView): Promise<Buffer> {
  const width = 226; // 80 mm in points
  const height = 300 + view.lines.length * 24;
  const doc = new PDFDocument({
    size: [width, height],
    margin: 10,
    info: { Title: `${view.tipo} ${number(view)} (ticket)` },
  });
  const w = width - 20;
  doc.font("Helvetica-Bold").fontSize(9).text(view.issuer.razon_social, { width: w, align: "center" });
  doc.font("Helvetica").fontSize(7).text(`CUIT ${view.issuer.cuit}`, { width: w, align: "center" });
  doc.moveDown(0.5).font("Helvetica-Bold").fontSize(8).text(`${view.tipo}`, { width: w, align: "center" });
  doc
    .font("Helvetica")
    .fontSize(7)
    .text(`Nro ${number(view)}  ${view.fecha}`, { width: w, align: "center" });
  doc
    .moveDown(0.5)
    .text(`${view.party.razon_social} — ${view.party.documento_tipo} ${view.party.documento_nro}`, { width: w });
  doc.text(`IVA: ${conditionName(view.party.condicion_iva)}`, { width: w });
  doc.moveDown(0.5);
  for (const line of view.lines) {
    doc.text(`${line.cantidad} x ${line.descripcion}`, { width: w });
    doc.text(`$ ${money(line.subtotal)}`, { width: w, align: "right" });
  }
  doc
    .moveDown(0.5)
    .font("Helvetica-Bold")
    .fontSize(9)
    .text(`TOTAL $ ${money(view.declaredTotal)}`, { width: w, align: "right" });
  const tr = transparency(view);
  if (tr) {
    doc.font("Helvetica").fontSize(6).text("Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)", { width: w });
    doc.text(`IVA Contenido: $ ${money(tr.vat)}  Otros Imp. Nac. Indirectos: $ ${money(tr.other)}`, { width: w });
  }
  doc
    .moveDown(0.5)
    .font("Helvetica")
    .fontSize(7)
    .text(`CAE: ${view.cae || "desarrollo: sin CAE"}`, { width: w, align: "center" });
  drawQr(doc, view.qr, (width - 100) / 2, doc.y + 4, 100);
  doc.text(WATERMARK, 10, doc.y + 110, { width: w, align: "center" });
  return render(doc);
}
