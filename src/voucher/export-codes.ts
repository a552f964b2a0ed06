/**
 * The export parameter lists an E voucher's `fex` block takes its codes from (reference §4.5:
 * `tablas_referencia/paises`, `cuit_pais`, `incoterms`), as far as the reference documents them:
 * the entries the vendor's pages show (vousys/tusfacturas-api at f72fcc8, `parametros/consulta-de-
 * paises-afip.md`, `…-cuit-pais-afip.md`, `…-incoterms.md`; 250 also in spec §2.9), with their
 * descriptions as written there. They are examples, not the authority's whole lists: the service
 * answers those, and `facturar table` asks it first.
 */
export const EXPORT_TABLES: Readonly<Record<string, readonly { id: string; descripcion: string }[]>> = {
  paises: [
    { id: "250", descripcion: "AAE Tierra del Fuego - ARGENTINA" },
    { id: "301", descripcion: "AFGANISTAN" },
  ],
  cuit_pais: [
    { id: "51600003015", descripcion: "AFGANISTAN - Otro tipo de Entidad" },
    { id: "50000003015", descripcion: "AFGANISTAN - Persona Fisica" },
  ],
  incoterms: [
    { id: "EXW", descripcion: "EXW - Vigente del 20100101 a hoy" },
    { id: "FCA", descripcion: "FCA - Vigente del 20100101 a hoy" },
  ],
};
