/** The export parameters (reference §4.5): asked of the service, else the reference's entries. */
export const EXPORT_TABLE_NAMES = ["paises", "cuit_pais", "incoterms"] as const;

/** The reference tables the service lists (reference §4.5); `cotizacion` is `exchange-rate`. */
export const TABLE_NAMES = [
  "documentos_tipos",
  "alicuotas_iva",
  "provincias",
  "condiciones_venta",
  "condiciones_iva",
  "comprobantes_tipos",
  "rg_especiales_regimenes",
  "monedas",
  "idiomas",
  "unidades_medida",
  "tributos_percepciones_tipos",
  "tributos_percepciones_regimenes",
  ...EXPORT_TABLE_NAMES,
] as const;
