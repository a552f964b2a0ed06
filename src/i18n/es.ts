/**
 * Spanish, keyed by the English text the code writes (see ./index.ts). test/i18n.test.ts checks
 * that every message the code uses is here, with the same `{parameters}`, and nothing stale.
 */
export const ES: Readonly<Record<string, string>> = {
  // api/client.ts
  "check the profile's usertoken, apikey and apitoken (and its point of sale)":
    "revisá usertoken, apikey y apitoken del perfil (y su punto de venta)",
  "{message} (after retries)": "{message} (después de reintentar)",
  "check the network, or the service status with `facturar status`":
    "revisá la red, o el estado del servicio con `facturar status`",
  "access denied (HTTP {status})": "acceso denegado (HTTP {status})",
  "too many requests (HTTP 429)": "demasiados pedidos (HTTP 429)",
  "lower the request rate": "bajá la frecuencia de pedidos",
  "the service failed (HTTP {status})": "el servicio falló (HTTP {status})",
  "try again later; `facturar status` shows the service's state":
    "intentá más tarde; `facturar status` muestra el estado del servicio",
  "the service answered HTTP {status} to {method}": "el servicio respondió HTTP {status} a {method}",
  "is base_url the API's /app/api/v2 address?": "¿es base_url la dirección /app/api/v2 de la API?",
  "the service answered {method} with something that is not a JSON object":
    "el servicio respondió a {method} con algo que no es un objeto JSON",
  "the base URL may point at a web page, or a proxy is in the way":
    "puede que la URL base apunte a una página web, o que haya un proxy en el medio",
  "the service is under maintenance until {until}": "el servicio está en mantenimiento hasta {until}",
  "the service is under maintenance": "el servicio está en mantenimiento",
  "try again after that time": "intentá de nuevo después de ese momento",
  // api/json-shape.ts
  "the key {key} is given twice in one object": "la clave {key} aparece dos veces en un mismo objeto",
  "it nests deeper than {levels} levels": "anida más de {levels} niveles",
  // session/connect.ts
  "{name} takes seconds, not {value}": "{name} acepta segundos, no {value}",
  "profile {name} has no credentials": "el perfil {name} no tiene credenciales",
  "the sandbox has no point of sale {wanted}; it has {points}":
    "el sandbox no tiene el punto de venta {wanted}; tiene {points}",
  "remove punto_venta from the sandbox profile, or use one of those":
    "sacá punto_venta del perfil del sandbox, o usá uno de esos",
  "embedded sandbox at {url} (data in {dir})": "sandbox incorporado en {url} (datos en {dir})",
  "{message}, which is not serving it yet": "{message}, que todavía no lo atiende",
  "try again in a moment": "intentá de nuevo en un momento",
  "using the sandbox of process {pid} at {url}": "usando el sandbox del proceso {pid} en {url}",
  // api/documents.ts (the first two are also said by batch/issue.ts)
  "not a URL: {link}": "no es una URL: {link}",
  "refusing a {protocol} document link": "se rechaza un enlace de documento {protocol}",
  "refusing a document link with a user name or password in it":
    "se rechaza un enlace de documento que lleva usuario o contraseña",
  "the service gave a link facturar does not follow; the voucher's PDF is in the service's own web app":
    "el servicio dio un enlace que facturar no sigue; el PDF del comprobante está en la aplicación web del servicio",
  "refusing a document link to {host}: loopback, and the service is not on this machine":
    "rechazo un enlace de documento a {host}: es esta misma máquina, y el servicio no está en ella",
  "refusing a document link to {host}: a private network address":
    "se rechaza un enlace de documento a {host}: es una dirección de red privada",
  "refusing a document link to {host}: a link-local address":
    "se rechaza un enlace de documento a {host}: es una dirección de enlace local",
  "refusing a document link to {host}: an unspecified address":
    "se rechaza un enlace de documento a {host}: es una dirección no especificada",
  "refusing a document link to {host}: a multicast address":
    "se rechaza un enlace de documento a {host}: es una dirección de multidifusión",
  "refusing a document link to {host}: a reserved address":
    "se rechaza un enlace de documento a {host}: es una dirección reservada",
  "refusing a plain-http document link to {host}: http is accepted only on loopback":
    "se rechaza un enlace de documento por http a {host}: http solo se acepta en loopback",
  // api/http.ts
  "refusing to connect to {host} ({addresses}): address not allowed":
    "no se conecta con {host} ({addresses}): dirección no permitida",
  "the server answered with a redirect ({status}) to {location}; not followed":
    "el servidor respondió con una redirección ({status}) a {location}; no se sigue",
  "the answer is larger than {mb} MB; refused": "la respuesta supera los {mb} MB; rechazada",
  "the connection broke while the answer arrived": "la conexión se cortó mientras llegaba la respuesta",
  "no complete answer within {seconds} s": "sin respuesta completa en {seconds} s",
  "cannot connect to {host} ({code})": "no se puede conectar con {host} ({code})",
  "the connection failed ({code})": "la conexión falló ({code})",
  // batch/ceiling.ts
  "topecf did not answer a ceiling: {answer}": "topecf no respondió un tope: {answer}",
  "could not get the current final-consumer ceiling ({message}); using {ceiling}":
    "no se pudo obtener el tope vigente del consumidor final ({message}); se usa {ceiling}",
  // batch/issue.ts
  "batch of {n}: {message}; asking the service about each voucher":
    "lote de {n}: {message}; se consulta al servicio por cada comprobante",
  "batch of {n}: the service refused {ref}; asking it about the others before sending them again":
    "lote de {n}: el servicio rechazó {ref}; se le pregunta por los demás antes de enviarlos de nuevo",
  "{source}: {message}; asking the service whether {ref} was stored":
    "{source}: {message}; se consulta al servicio si guardó {ref}",
  "could not ask the service about {ref}: {message}": "no se pudo consultar al servicio por {ref}: {message}",
  "still queued after {seconds} s": "sigue encolado después de {seconds} s",
  "{path} uses top-level await, which a configuration file cannot":
    "{path} usa await en el nivel superior, que un archivo de configuración no puede usar",
  "{path} has no default export: write export default { profiles: … }":
    "{path} no tiene export default: escribí export default { profiles: … }",
  "{host} does not answer in TLS: is its address http rather than https? ({code})":
    "{host} no responde en TLS: ¿su dirección es http y no https? ({code})",
  "no secure connection with {host}: it offers no TLS 1.2 or newer, or no cipher in common ({code})":
    "no hay conexión segura con {host}: no ofrece TLS 1.2 o posterior, o ningún cifrado en común ({code})",
  "PDF not saved: the answer gave no usable voucher number":
    "PDF no guardado: la respuesta no trajo un número de comprobante utilizable",
  "PDF not saved: {message}": "PDF no guardado: {message}",
  "PDF not saved: the service gives no link to it yet":
    "PDF no guardado: el servicio todavía no da un enlace para bajarlo",
  "ticket not saved: {message}": "ticket no guardado: {message}",
  "already issued (journal): not sent again; --allow-duplicate issues another on purpose":
    "ya emitido (diario): no se envía de nuevo; --allow-duplicate emite otro a propósito",
  "sent, but no answer came back and the service could not be asked; `facturar journal --reconcile` settles it later":
    "enviado, pero no volvió respuesta y no se pudo consultar al servicio; `facturar journal --reconcile` lo resuelve después",
  "sent {n} times without an answer, and the service holds nothing under {ref}: not issued; run again later":
    "enviado {n} veces sin respuesta, y el servicio no tiene nada con la referencia {ref}: no se emitió; ejecutá de nuevo más tarde",
  "the link answered HTTP {status}": "el enlace respondió HTTP {status}",
  "the link answered HTTP {status}: {said}": "el enlace respondió HTTP {status}: {said}",
  "run the same command again later": "ejecutá el mismo comando más tarde",
  "the sandbox cannot draw documents: {name} cannot be loaded ({message})":
    "el sandbox no puede generar documentos: no se puede cargar {name} ({message})",
  'install facturar again (README "Install"): its dependencies are incomplete':
    'instalá facturar de nuevo (README "Install"): sus dependencias están incompletas',
  "the link did not return a PDF": "el enlace no devolvió un PDF",
  "no working link for the document": "no hay un enlace que funcione para el documento",
  "this buyer must receive a MiPyME credit invoice: issue it as FACTURA DE CREDITO ELECTRONICA MiPyME (FCE)":
    "este comprador debe recibir factura de crédito MiPyME: emitila como FACTURA DE CREDITO ELECTRONICA MiPyME (FCE)",
  "the customer's condicion_iva does not fit this voucher type (a registered taxpayer gets class A; consumers and exempt customers class B)":
    "la condicion_iva del cliente no corresponde a este tipo de comprobante (un responsable inscripto recibe clase A; consumidores y exentos, clase B)",
  "this point of sale has queued vouchers: use `facturar issue-queued` until they are processed":
    "este punto de venta tiene comprobantes encolados: usá `facturar issue-queued` hasta que se procesen",
  "leave numero out: the service assigns the next number itself":
    "no indiques numero: el servicio asigna el próximo número",
  // batch/journal.ts
  "another facturar run (process {pid}) is issuing on the journal of this account (profile {profile}); two runs on one journal would interleave":
    "otra ejecución de facturar (proceso {pid}) está emitiendo sobre el diario de esta cuenta (perfil {profile}); dos ejecuciones sobre un mismo diario se intercalarían",
  "wait for it to finish; if that process is gone, run again (its lock is then taken over)":
    "esperá a que termine; si ese proceso ya no existe, ejecutá de nuevo (se toma su bloqueo)",
  // batch/run.ts
  "not sent: {ref} failed in this lane with a numbering or date error, and this one would too":
    "no enviado: {ref} falló en este carril con un error de numeración o de fecha, y este también fallaría",
  "{source}: no point of sale: the voucher names none and profile {profile} has no punto_venta":
    "{source}: sin punto de venta: el comprobante no lo indica y el perfil {profile} no tiene punto_venta",
  "set punto_venta in the profile (or FACTURAR_PUNTO_VENTA), or comprobante.punto_venta in the voucher":
    "definí punto_venta en el perfil (o FACTURAR_PUNTO_VENTA), o comprobante.punto_venta en el comprobante",
  "not sent: {ref}, earlier in this lane, is not settled; sending this one first would break the lane's order":
    "no enviado: {ref}, antes en este carril, no está resuelto; enviar este primero rompería el orden del carril",
  "not sent: interrupted": "no enviado: interrumpido",
  "not sent: {n} voucher of this run is invalid; --skip-invalid sends the valid ones":
    "no enviado: {n} comprobante de esta ejecución es inválido; --skip-invalid envía los válidos",
  "not sent: {n} vouchers of this run are invalid; --skip-invalid sends the valid ones":
    "no enviado: {n} comprobantes de esta ejecución son inválidos; --skip-invalid envía los válidos",
  // cli.ts
  "Usage:": "Uso:",
  "Arguments:": "Argumentos:",
  "Options:": "Opciones:",
  "Global Options:": "Opciones globales:",
  "Commands:": "Comandos:",
  "Issue and query Argentine fiscal vouchers; validates them before they leave the machine.":
    "Emite y consulta comprobantes fiscales argentinos; los valida antes de que salgan de la máquina.",
  "print the version": "muestra la versión",
  "configuration profile (env FACTURAR_PROFILE)": "perfil de configuración (variable FACTURAR_PROFILE)",
  "use exactly this configuration file (env FACTURAR_CONFIG)":
    "usá exactamente este archivo de configuración (variable FACTURAR_CONFIG)",
  "machine-readable output: one JSON document, or NDJSON for many vouchers":
    "salida para programas: un documento JSON, o NDJSON para muchos comprobantes",
  "print only what went wrong": "muestra solo lo que salió mal",
  "print more detail, stack traces of internal errors": "muestra más detalle, con la traza de los errores internos",
  "no colours (also NO_COLOR)": "sin colores (también NO_COLOR)",
  "never prompt (implied off a terminal and under CI)": "nunca pregunta (así es fuera de una terminal y bajo CI)",
  "answer yes to confirmations": "responde que sí a las confirmaciones",
  "language of messages: es or en (default from LC_ALL, LC_MESSAGES, LANG)":
    "idioma de los mensajes: es o en (por defecto según LC_ALL, LC_MESSAGES, LANG)",
  "display help for command": "muestra la ayuda del comando",
  "(run facturar --help for usage)": "(ejecutá facturar --help para ver el uso)",
  "(run facturar {command} --help for usage)": "(ejecutá facturar {command} --help para ver el uso)",
  "check vouchers offline: schema, tax rules and computed totals; nothing is sent":
    "revisa comprobantes sin conexión: esquema, reglas fiscales y totales calculados; no envía nada",
  ".json or .csv voucher files, or - for standard input":
    "archivos de comprobantes .json o .csv, o - para la entrada estándar",
  "CSV delimiter (detected from the header by default)": "separador del CSV (por defecto se detecta en el encabezado)",
  "ceiling for unidentified final consumers, in pesos (default 10000000, RG 5700)":
    "tope para consumidores finales no identificados, en pesos (por defecto 10000000, RG 5700)",
  "check date windows against this day instead of today in Argentina":
    "evalúa los plazos de fechas contra este día en lugar de hoy en Argentina",
  "skip the tax rules and totals check (the schema still applies)":
    "omite las reglas fiscales y el control de totales (el esquema se aplica igual)",
  "input encoding: utf8 or latin1 (Windows-1252); by default UTF-8, and a file that is not UTF-8 is read as Windows-1252":
    "codificación de entrada: utf8 o latin1 (Windows-1252); por defecto UTF-8, y un archivo que no es UTF-8 se lee como Windows-1252",
  "CSV delimiter (detected by default)": "separador del CSV (se detecta por defecto)",
  "folder for PDFs and tickets (default: the profile's pdf_dir, else ./comprobantes)":
    "carpeta para PDF y tickets (por defecto: pdf_dir del perfil, si no ./comprobantes)",
  "do not download the PDF and the ticket": "no descarga el PDF ni el ticket",
  "write each voucher's QR to FILE.png, or draw it: --qr terminal":
    "guarda el QR de cada comprobante en ARCHIVO.png, o lo dibuja: --qr terminal",
  "lanes (point of sale and type) sent in parallel (default 4)":
    "carriles (punto de venta y tipo) enviados en paralelo (por defecto 4)",
  "least milliseconds between requests (default: the profile's rate_ms; 100 for a real service)":
    "milisegundos mínimos entre pedidos (por defecto: rate_ms del perfil; 100 para un servicio real)",
  "write one CSV row per voucher as it settles": "escribe una fila CSV por comprobante a medida que se resuelve",
  "issue vouchers now (instant mode), each exactly once; PDFs saved":
    "emite comprobantes ahora (modo instantáneo), cada uno exactamente una vez; guarda los PDF",
  "no file: ask for the voucher on the terminal, show its totals, then issue it":
    "sin archivo: pide el comprobante en la terminal, muestra sus totales y lo emite",
  "vouchers of one type per batch call (lotes), 1 to 20 (default 20); 1 sends them one by one":
    "comprobantes de un tipo por llamada de lote (lotes), de 1 a 20 (por omisión 20); 1 los envía de a uno",
  "issue vouchers through the service's queue; --wait follows them to the end":
    "emite comprobantes por la cola del servicio; --wait los sigue hasta el final",
  "wait until each voucher is issued or fails, then save its PDF":
    "espera a que cada comprobante se emita o falle, y guarda su PDF",
  "with --wait: give up waiting after this long (default 300)":
    "con --wait: deja de esperar después de este tiempo (por defecto 300)",
  "vouchers per queued batch call (lotes_encola), 1 to 100 (default 100); 1 sends them one by one":
    "comprobantes por llamada de lote encolado (lotes_encola), de 1 a 100 (por omisión 100); 1 los envía de a uno",
  "find vouchers: --ref R | --date D | --from D --to D | --type T --number N | --type T --from N --to M":
    "busca comprobantes: --ref R | --date F | --from F --to F | --type T --number N | --type T --from N --to M",
  "by external_reference": "por external_reference",
  "by voucher date (newest first, as the service lists them)":
    "por fecha del comprobante (los más nuevos primero, como los lista el servicio)",
  'voucher type, as the service writes it ("FACTURA B"); with --date or a date range a filter, repeatable or a comma list':
    'tipo de comprobante, como lo escribe el servicio ("FACTURA B"); con --date o un rango de fechas es un filtro, repetible o una lista separada por comas',
  "start of a range: a date dd/mm/yyyy (the vouchers of every day, oldest day first; at most 366 days, one request or more a day), or a number with --type":
    "comienzo de un rango: una fecha dd/mm/aaaa (los comprobantes de cada día, el día más antiguo primero; como máximo 366 días, una consulta o más por día), o un número con --type",
  "end of the range (a date, or a number), included": "fin del rango (una fecha, o un número), incluido",
  "point of sale (default: the profile's)": "punto de venta (por defecto: el del perfil)",
  "save the PDFs of the issued vouchers found (fresh links when the old ones expired)":
    "guarda los PDF de los comprobantes emitidos encontrados (con enlaces nuevos si los anteriores vencieron)",
  "folder for --pdf": "carpeta para --pdf",
  "what the journal holds for the profile (or for some input files), unknown outcomes first":
    "lo que guarda el diario del perfil (o de algunos archivos), primero los resultados desconocidos",
  "only the vouchers read from these files": "solo los comprobantes leídos de estos archivos",
  "settle unknown and queued entries by asking the service":
    "resuelve las entradas desconocidas y encoladas consultando al servicio",
  "the final-consumer identification ceiling (topecf), cached for the day":
    "el tope de identificación del consumidor final (topecf), guardado por el día",
  "ask the service even if today's answer is cached": "consulta al servicio aunque la respuesta de hoy esté guardada",
  "service status, scheduled maintenance, news, and the subscription's vouchers, issued and left (micuenta/consumo, a request of its own quota); exit 6 when invoicing is not OK or the account's calls are refused":
    "estado del servicio, mantenimientos programados, novedades y los comprobantes de la suscripción, emitidos y disponibles (micuenta/consumo, un request de su propio cupo); sale con 6 si la facturación no está OK o el servicio rechaza las llamadas de la cuenta",
  "create or edit a profile (asks on a terminal; every answer also a flag), then check it":
    "crea o edita un perfil (pregunta en la terminal; cada respuesta también es una opción) y lo verifica",
  "profile name (default sandbox)": "nombre del perfil (por defecto sandbox)",
  "use the embedded development-mode service": "usa el servicio de desarrollo incorporado",
  "the API's base URL, https://<host>/app/api/v2": "la URL base de la API, https://<host>/app/api/v2",
  "credential, kept in the config file (mode 0600)": "credencial, guardada en el archivo de configuración (modo 0600)",
  "credential, kept in the config file": "credencial, guardada en el archivo de configuración",
  "credential read from this environment variable": "credencial leída de esta variable de entorno",
  "credential read from this file": "credencial leída de este archivo",
  "point of sale": "punto de venta",
  "folder for PDFs": "carpeta para los PDF",
  "real vouchers: ask before issuing on a terminal": "comprobantes reales: pregunta antes de emitir en una terminal",
  "not production": "no es producción",
  "make it the default profile": "lo hace el perfil por defecto",
  "do not make it the default profile": "no lo hace el perfil por defecto",
  "the config file to write (default $XDG_CONFIG_HOME/facturar/config.json)":
    "el archivo de configuración a escribir (por defecto $XDG_CONFIG_HOME/facturar/config.json)",
  "do not check the profile with the service afterwards": "no verifica el perfil con el servicio al terminar",
  "fresh links for an issued voucher (regenerar_pdf), then its PDF and ticket saved":
    "enlaces nuevos para un comprobante emitido (regenerar_pdf), y guarda su PDF y ticket",
  'voucher type ("FACTURA B")': 'tipo de comprobante ("FACTURA B")',
  "folder (default: the profile's pdf_dir, else ./comprobantes)":
    "carpeta (por defecto: pdf_dir del perfil, si no ./comprobantes)",
  "the number the service will give the next voucher of a type (numeracion)":
    "el número que el servicio dará al próximo comprobante de un tipo (numeracion)",
  "whether a buyer must receive a MiPyME credit invoice (requiere_fec)":
    "si un comprador debe recibir una factura de crédito MiPyME (requiere_fec)",
  "the buyer's CUIT": "la CUIT del comprador",
  "as of this date": "a esta fecha",
  "manage queued vouchers: delete, reschedule (--date, --due) or retry one that failed":
    "administra comprobantes encolados: borrar, reprogramar (--date, --due) o reintentar uno que falló",
  "delete | reschedule | retry": "delete | reschedule | retry",
  "the queued voucher's external_reference": "el external_reference del comprobante encolado",
  "reschedule: the new date (also the day it is issued); delete: only that date":
    "reschedule: la nueva fecha (también el día en que se emite); delete: solo esa fecha",
  "reschedule: the new payment due date": "reschedule: el nuevo vencimiento de pago",
  "decode a voucher's QR payload; with --ref, check it against the voucher":
    "decodifica el QR de un comprobante; con --ref, lo compara con el comprobante",
  "the QR's text (https://www.afip.gob.ar/fe/qr/?p=...)": "el texto del QR (https://www.afip.gob.ar/fe/qr/?p=...)",
  "fetch the voucher by external_reference and check its QR":
    "busca el comprobante por external_reference y revisa su QR",
  "print the JSON Schema of voucher files (for editors)":
    "muestra el JSON Schema de los archivos de comprobantes (para editores)",
  "print a valid skeleton voucher of a type, as JSON or (--csv) as a CSV header and row":
    "muestra un comprobante modelo válido de un tipo, en JSON o (--csv) como encabezado y fila CSV",
  'voucher type, quoted: "FACTURA B"': 'tipo de comprobante, entre comillas: "FACTURA B"',
  "a CSV header and one row instead of JSON": "un encabezado CSV y una fila en lugar de JSON",
  "print shell completion: source <(facturar completion bash) (also zsh, fish)":
    "muestra el autocompletado del shell: source <(facturar completion bash) (también zsh, fish)",
  "bash | zsh | fish": "bash | zsh | fish",
  "run the embedded development-mode service on loopback until stopped (Ctrl-C)":
    "ejecuta el servicio de desarrollo incorporado en loopback hasta que se lo detenga (Ctrl-C)",
  "port to listen on; 0 takes a free one": "puerto en el que escucha; 0 toma uno libre",
  "loopback address to listen on": "dirección de loopback en la que escucha",
  "where the service keeps its state (default $XDG_DATA_HOME/facturar/sandbox)":
    "dónde guarda su estado el servicio (por defecto $XDG_DATA_HOME/facturar/sandbox)",
  "inject a fault (repeatable; also FACTURAR_SANDBOX_FAULTS): latency=MS, spacing=MS, slow-commit=MS, page-size=N, error5xx=RATE, ratelimit=RATE, drop-before=RATE, drop-after-commit=RATE, queue-error=RATE, observe=RATE, maintenance, authority-down, plan-ended, authority-checks, webhook-required":
    "inyecta una falla (repetible; también FACTURAR_SANDBOX_FAULTS): latency=MS, spacing=MS, slow-commit=MS, page-size=N, error5xx=TASA, ratelimit=TASA, drop-before=TASA, drop-after-commit=TASA, queue-error=TASA, observe=TASA, maintenance, authority-down, plan-ended, authority-checks, webhook-required",
  "<url|pv=url>": "<url|pv=url>",
  "the webhook URL of every point of sale, or of one (repeatable; also FACTURAR_SANDBOX_WEBHOOK): queued issuing needs it like production; the sandbox sends nothing to it":
    "la URL de webhook de todos los puntos de venta, o de uno (repetible; también FACTURAR_SANDBOX_WEBHOOK): para encolar hace falta, como en producción; el sandbox no le envía nada",
  "the same, with the webhook URL that queued issuing needs":
    "lo mismo, con la URL de webhook que hace falta para encolar",
  "webhook {part}: write an http:// or https:// URL of up to 255 characters, or PV=URL for one point of sale":
    "webhook {part}: escribí una URL http:// o https:// de hasta 255 caracteres, o PV=URL para un punto de venta",
  "how often the queue worker runs": "cada cuánto corre el procesador de la cola",
  "the plan's voucher quota (the development plan has 1500)":
    "el cupo de comprobantes del plan (el plan de desarrollo tiene 1500)",
  "error: unknown option '{flag}'": "error: opción desconocida '{flag}'",
  "error: unknown command '{name}'": "error: comando desconocido '{name}'",
  "error: missing required argument '{name}'": "error: falta el argumento obligatorio '{name}'",
  "error: option '{flag}' needs a value": "error: la opción '{flag}' necesita un valor",
  "error: option '{flag}' does not take '{value}'.": "error: la opción '{flag}' no acepta '{value}'.",
  "error: too many arguments.": "error: demasiados argumentos.",
  cancelled: "cancelado",
  "hint:": "sugerencia:",
  "internal error:": "error interno:",
  "(run again with --verbose for details, and please report it)":
    "(ejecutá de nuevo con --verbose para ver detalles, y por favor informalo)",
  // commands/completion.ts
  "completion takes {shells}, not {value}": "completion acepta {shells}, no {value}",
  // commands/define.ts, options.ts and the commands' options schemas (#27: one shape for a bad flag)
  "{flag} takes {expected}, not {value}": "{flag} acepta {expected}, no {value}",
  "{flag} is required: {what}": "{flag} es obligatorio: {what}",
  "{list} or {last}": "{list} o {last}",
  "a whole number from {min} to {max}": "un número entero de {min} a {max}",
  "a number of seconds above 0": "una cantidad de segundos mayor que 0",
  "a date dd/mm/yyyy": "una fecha dd/mm/aaaa",
  'a voucher type as the service writes it, such as "FACTURA B"':
    'un tipo de comprobante como lo escribe el servicio, p. ej. "FACTURA B"',
  "a voucher number (N, or as printed: 00679-00000002)":
    "un número de comprobante (N, o como está impreso: 00679-00000002)",
  "a date dd/mm/yyyy, or a voucher number": "una fecha dd/mm/aaaa, o un número de comprobante",
  "a reference": "una referencia",
  "a folder": "una carpeta",
  "a CUIT of 11 digits (dashes and dots are ignored)": "un CUIT de 11 dígitos (se ignoran guiones y puntos)",
  "a currency code as vouchers write moneda (DOL, 060…)":
    "un código de moneda como lo escriben los comprobantes en moneda (DOL, 060…)",
  "a positive amount with up to 2 decimals and a dot (1210.50)":
    "un importe positivo con hasta 2 decimales y punto (1210.50)",
  "a positive amount in pesos": "un importe positivo en pesos",
  "a total with VAT, positive, in cents at most (1500.50 or 1500,50)":
    "un total con IVA, positivo, a lo sumo en centavos (1500,50 o 1500.50)",
  "ambiguous: one thousand, or one with three decimals? Write 1000 or 1000.00 (1000,00)":
    "ambiguo: ¿mil, o uno con tres decimales? Escribí 1000 o 1000,00 (1000.00)",
  "item numbers counted from 1, comma separated (1,3)": "números de ítem contados desde 1, separados por comas (1,3)",
  "issued, queued or queue-error (error)": "issued, queued o queue-error (error)",
  "a loopback address (127.0.0.1, ::1, localhost)": "una dirección de loopback (127.0.0.1, ::1, localhost)",
  "the sandbox listens on loopback only": "el sandbox escucha solo en loopback",
  "a name of letters, digits, . _ -": "un nombre de letras, dígitos, . _ -",
  "the supplier's point of sale (or write the number as 00015-00000024)":
    "el punto de venta del proveedor (o escribí el número como 00015-00000024)",
  "the name of a means of payment (up to 255 characters)": "el nombre de un medio de pago (hasta 255 caracteres)",
  "a product code of up to 50 characters": "un código de producto de hasta 50 caracteres",
  "a price list": "una lista de precios",
  "reschedule: the new date, dd/mm/yyyy": "reschedule: la fecha nueva, dd/mm/aaaa",
  "faults such as latency=200 or error5xx=0.1, comma separated":
    "fallas como latency=200 o error5xx=0.1, separadas por comas",
  "an http:// or https:// URL of up to 255 characters, or PV=URL for one point of sale":
    "una URL http:// o https:// de hasta 255 caracteres, o PV=URL para un punto de venta",
  // commands/guided.ts
  "Voucher type": "Tipo de comprobante",
  "Unidentified final consumer (no name, no document)?": "¿Consumidor final no identificado (sin nombre ni documento)?",
  "Customer's document": "Documento del cliente",
  "{type} number": "Número de {type}",
  "digits only": "solo dígitos",
  "Customer's name": "Nombre o razón social del cliente",
  required: "obligatorio",
  "Customer's VAT condition": "Condición frente al IVA del cliente",
  "Item {n}: description": "Ítem {n}: descripción",
  "at least 4 characters": "al menos 4 caracteres",
  Quantity: "Cantidad",
  "a number above 0, up to 2 decimals": "un número mayor que 0 (coma decimal), hasta 2 decimales",
  "Unit price without VAT": "Precio unitario sin IVA",
  "Unit price": "Precio unitario",
  "a number such as 1500.50 (decimal point, up to 3 decimals)":
    "un número como 1.500,50 (coma decimal; el punto separa los miles; hasta 3 decimales)",
  "VAT rate": "Alícuota de IVA",
  "the registry says {condition}, which a {tipo} does not take (it takes {allowed}): the customer may need another type of voucher":
    "el padrón dice {condition}, que una {tipo} no admite (admite {allowed}): el cliente quizás necesite otro tipo de comprobante",
  "Sale condition": "Condición de venta",
  "Which sale condition?": "¿Qué condición de venta?",
  "Add another item?": "¿Agregar otro ítem?",
  "Period the note adjusts: from (dd/mm/yyyy)": "Período que ajusta la nota: desde (dd/mm/aaaa)",
  "to (dd/mm/yyyy)": "hasta (dd/mm/aaaa)",
  "warning:": "aviso:",
  "error:": "error:",
  total: "total",
  "Issue it?": "¿Emitirlo?",
  "Save it as a JSON file for next time?": "¿Guardarlo como archivo JSON para la próxima vez?",
  File: "Archivo",
  "{type} to {name} ({document}), {n} item": "{type} a {name} ({document}), {n} ítem",
  "{type} to {name} ({document}), {n} items": "{type} a {name} ({document}), {n} ítems",
  "saved to {path}": "guardado en {path}",
  "--interactive asks on a terminal; without one, give voucher files (facturar template shows one)":
    "--interactive pregunta en una terminal; sin ella, indicá archivos de comprobantes (facturar template muestra uno)",
  // commands/init.ts
  "{path} is not JSON; init edits JSON config files only":
    "{path} no es JSON; init solo edita archivos de configuración JSON",
  "edit it by hand, or pass --file for a new one": "editalo a mano, o indicá --file para uno nuevo",
  "give {key} one way: --{key}, --{key}-env or --{key}-file":
    "indicá {key} de una sola forma: --{key}, --{key}-env o --{key}-file",
  "init needs {what}: pass {flag} (no terminal to ask on)":
    "init necesita {what}: indicá {flag} (no hay terminal donde preguntar)",
  "Profile name": "Nombre del perfil",
  "letters, digits, . _ -": "letras, dígitos, . _ -",
  "Which service?": "¿Qué servicio?",
  "The embedded sandbox (development, no account needed)": "El sandbox incorporado (desarrollo, no hace falta cuenta)",
  "The hosted service (its API v2 address and your credentials)":
    "El servicio real (tu dirección de API v2 y tus credenciales)",
  "Base URL of the API": "URL base de la API",
  "How should {key} be kept?": "¿Cómo guardar {key}?",
  "In this config file (mode 0600)": "En este archivo de configuración (modo 0600)",
  "In an environment variable (the file names it)": "En una variable de entorno (el archivo la nombra)",
  "In a file of its own (the config names it)": "En un archivo propio (la configuración lo nombra)",
  "Value of {key}": "Valor de {key}",
  "Variable holding {key}": "Variable que contiene {key}",
  "File holding {key}": "Archivo que contiene {key}",
  "--{key}, --{key}-env or --{key}-file": "--{key}, --{key}-env o --{key}-file",
  "Point of sale": "Punto de venta",
  "a whole number from 1 to 99999": "un número entero de 1 a 99999",
  "Folder for PDFs (Enter: ./comprobantes of the folder facturar runs in)":
    "Carpeta para los PDF (Enter: ./comprobantes de la carpeta donde corre facturar)",
  "Is this production (real vouchers; ask before issuing)?":
    "¿Es producción (comprobantes reales; preguntar antes de emitir)?",
  "Use {name} by default?": "¿Usar {name} por defecto?",
  "wrote profile {name} to {path} (the default profile)": "perfil {name} escrito en {path} (el perfil por defecto)",
  "next step: `{guided}` asks for a voucher, shows its totals and issues it; or `{template}` writes one to fill in, then `{issue}`":
    "siguiente paso: `{guided}` te pide un comprobante, te muestra sus totales y lo emite; o `{template}` escribe uno para que lo completes, y después `{issue}`",
  "next step: after the development plan (API DEV), re-synchronise this point of sale's numbering once from ARCA, in the service's web panel, before the first real voucher; then `{command}` shows the next number, which must follow the last one ARCA authorised":
    "siguiente paso: después del plan de desarrollo (API DEV), resincronizá una vez la numeración de este punto de venta desde ARCA, en el panel web del servicio, antes del primer comprobante real; después `{command}` muestra el próximo número, que tiene que seguir al último que autorizó ARCA",
  "wrote profile {name} to {path}": "perfil {name} escrito en {path}",
  "{name}: {service} answers, invoicing {state}": "{name}: {service} responde, facturación {state}",
  "embedded sandbox": "sandbox incorporado",
  "profile written, but the check failed: {message}": "perfil escrito, pero la verificación falló: {message}",
  // commands/issue.ts
  "QR written to {path}": "QR guardado en {path}",
  "PRODUCTION profile {name}: these vouchers are real and cannot be deleted.":
    "Perfil de PRODUCCIÓN {name}: estos comprobantes son reales y no se pueden borrar.",
  "--interactive asks for one voucher; it takes no files": "--interactive pide un comprobante; no acepta archivos",
  "nothing sent": "no se envió nada",
  "give the voucher files to issue (.json, .csv, or - for standard input), or --interactive":
    "indicá los archivos de comprobantes a emitir (.json, .csv, o - para la entrada estándar), o --interactive",
  "give the voucher files to issue (.json, .csv, or - for standard input)":
    "indicá los archivos de comprobantes a emitir (.json, .csv, o - para la entrada estándar)",
  "standard input (-) can be read only once": "la entrada estándar (-) se puede leer una sola vez",
  "--timeout goes with --wait": "--timeout va con --wait",
  "stopping: the vouchers in flight settle, nothing new is sent (again to stop at once)":
    "deteniendo: se resuelven los comprobantes en curso y no se envía nada nuevo (otra vez para detener ya)",
  "{n} invalid (nothing sent)": "inválidos: {n} (no se envió nada)",
  "{n} issued": "emitidos: {n}",
  "{n} queued": "encolados: {n}",
  "{n} already issued": "ya emitidos: {n}",
  "{n} rejected": "rechazados: {n}",
  "{n} unknown": "desconocidos: {n}",
  "{n} not sent": "no enviados: {n}",
  "{n} not sent: their reference was used before for another voucher":
    "{n} sin enviar: su referencia ya se usó para otro comprobante",
  interrupted: "interrumpido",
  "cancelled, nothing sent": "cancelado, no se envió nada",
  "nothing to do": "nada para hacer",
  "point of sale {points}; {n} voucher; total {total}": "punto de venta {points}; {n} comprobante; total {total}",
  "point of sale {points}; {n} vouchers; total {total}": "punto de venta {points}; {n} comprobantes; total {total}",
  "Issue all {n}?": "¿Emitir los {n}?",
  // commands/journal.ts
  state: "estado",
  "time (Argentina)": "hora (Argentina)",
  source: "origen",
  "the journal holds nothing under {ref}": "el diario no tiene nada con la referencia {ref}",
  "the service may hold it still: facturar query --ref {ref}":
    "puede que el servicio lo tenga: facturar query --ref {ref}",
  "only the voucher of this external_reference": "solo el comprobante de esta external_reference",
  "one voucher, by its reference": "un comprobante, por su referencia",
  "{ref}: the service has no voucher under it; the next issue run will send it":
    "{ref}: el servicio no tiene ningún comprobante con esa referencia; la próxima emisión lo enviará",
  "the journal of profile {name} holds nothing for those files ({path})":
    "el diario del perfil {name} no tiene nada de esos archivos ({path})",
  "the journal of profile {name} holds nothing ({path})": "el diario del perfil {name} está vacío ({path})",
  "{n} with an unknown outcome: facturar journal --reconcile":
    "{n} con resultado desconocido: facturar journal --reconcile",
  "{n} entry in {path}": "{n} entrada en {path}",
  "{n} entries in {path}": "{n} entradas en {path}",
  // commands/pdf.ts, next-number.ts, requires-fce.ts, queue.ts, qr.ts, flags.ts
  'write it as the service does, e.g. "FACTURA B"': 'escribilo como el servicio, p. ej. "FACTURA B"',
  "the service said no": "el servicio respondió que no",
  "--pv is required: the profile names no point of sale": "--pv es obligatorio: el perfil no indica punto de venta",
  "no documents for {tipo} {puntoVenta}-{numero}": "no hay documentos para {tipo} {puntoVenta}-{numero}",
  "the fresh link did not work": "el enlace nuevo no funcionó",
  "ticket: {ticket}": "ticket: {ticket}",
  "numeracion failed": "numeracion falló",
  "next {tipo} at point of sale {puntoVenta}: {value}": "próximo {tipo} en el punto de venta {puntoVenta}: {value}",
  "requiere_fec failed": "requiere_fec falló",
  "{cuit} must receive a MiPyME credit invoice (FCE) for amounts from $ {amount}":
    "{cuit} debe recibir factura de crédito MiPyME (FCE) por montos desde $ {amount}",
  "{cuit} does not require FCE: issue an ordinary invoice": "{cuit} no requiere FCE: emití una factura común",
  "queue takes delete, reschedule or retry, not {action}": "queue acepta delete, reschedule o retry, no {action}",
  "{action} {ref}: {message}; the service may or may not have done it":
    "{action} {ref}: {message}; puede que el servicio lo haya hecho o no",
  "check with: facturar query --ref {ref}": "verificalo con: facturar query --ref {ref}",
  "{action}: done for {ref}": "{action}: hecho para {ref}",
  "only partly: {errors}": "solo en parte: {errors}",
  "give the QR's text (its URL) or --ref to fetch the voucher":
    "indicá el texto del QR (su URL) o --ref para buscar el comprobante",
  "not a voucher QR: {value}": "no es el QR de un comprobante: {value}",
  "format version": "versión del formato",
  "issuer's CUIT": "CUIT del emisor",
  "voucher type": "tipo de comprobante",
  amount: "importe",
  currency: "moneda",
  "exchange rate": "cotización",
  "receiver's document type": "tipo de documento del receptor",
  "receiver's document": "documento del receptor",
  "authorisation type": "tipo de autorización",
  "authorisation code": "código de autorización",
  voucher: "comprobante",
  "no voucher with reference {ref}": "no hay comprobante con la referencia {ref}",
  "the voucher {ref} has no QR yet (is it still queued?)":
    "el comprobante {ref} todavía no tiene QR (¿sigue encolado?)",
  // commands/prompts.ts
  navigate: "moverse",
  select: "elegir",
  "(Y/n)": "(S/n)",
  "(y/N)": "(s/N)",
  "answer y or n": "respondé s o n",
  Yes: "Sí",
  No: "No",
  // commands/query.ts
  "query takes one of: --ref R | --date D | --from D --to D | --type T --number N | --type T --from N --to M":
    "query acepta uno de: --ref R | --date F | --from F --to F | --type T --number N | --type T --from N --to M",
  "unknown voucher type {tipo}": "tipo de comprobante desconocido {tipo}",
  "--number does not go with --from/--to": "--number no va con --from/--to",
  "--type needs --number N, or --from N and --to M": "--type necesita --number N, o --from N y --to M",
  "--from is after --to": "--from es posterior a --to",
  "consulta_avanzada failed: {errors}": "consulta_avanzada falló: {errors}",
  "(queued)": "(encolado)",
  type: "tipo",
  number: "número",
  date: "fecha",
  customer: "cliente",
  status: "estado",
  reference: "referencia",
  "{n} voucher": "{n} comprobante",
  "{n} vouchers": "{n} comprobantes",
  unknown: "desconocido",
  sending: "enviando",
  held: "retenido",
  rejected: "rechazado",
  "{bar} {value}/{total} | issued {issued} rejected {rejected} skipped {skipped} | {rate}/s | ETA {eta_formatted}":
    "{bar} {value}/{total} | emitidos {issued} rechazados {rejected} omitidos {skipped} | {rate}/s | restan {eta_formatted}",
  "no voucher found": "no se encontró ningún comprobante",
  "credit notes:": "notas de crédito:",
  "debit notes:": "notas de débito:",
  "hint: references match exactly, capitals too: try {upper}":
    "sugerencia: las referencias se buscan tal cual, mayúsculas incluidas: probá {upper}",
  // commands/sandbox.ts
  "port {port} is already in use; pick another with --port, or --port 0 for a free one":
    "el puerto {port} ya está en uso; elegí otro con --port, o --port 0 para uno libre",
  "stop it first, or pick another --data-dir": "detenelo primero, o elegí otro --data-dir",
  "development-mode service (no fiscal validity), data in {dir}":
    "servicio de desarrollo (sin validez fiscal), datos en {dir}",
  "base URL:": "URL base:",
  "point of sale {pv}:": "punto de venta {pv}:",
  "faults:": "fallas:",
  "--webhook names point of sale {pv}, which this sandbox does not have (it has {have})":
    "--webhook nombra el punto de venta {pv}, que este sandbox no tiene (tiene {have})",
  "write PV=URL with one of those, or the URL alone for all of them":
    "escribí PV=URL con uno de esos, o la URL sola para todos",
  "Stop with Ctrl-C.": "Detené con Ctrl-C.",
  // commands/schema.ts
  "save the schema beside it with: facturar schema > voucher.schema.json":
    "guardá el esquema al lado con: facturar schema > voucher.schema.json",
  // commands/service-info.ts
  "Final-consumer identification ceiling: $ {amount}": "Tope de identificación del consumidor final: $ {amount}",
  "sales to an unidentified consumer (OTRO / 0) must stay below it":
    "las ventas a un consumidor no identificado (OTRO / 0) deben quedar por debajo",
  "cached on {day}": "guardado el {day}",
  "asked the service now": "consultado al servicio ahora",
  "invoicing:": "facturación:",
  "not OK": "no OK",
  "profile {name} (embedded sandbox)": "perfil {name} (sandbox incorporado)",
  "profile {name} at {url}": "perfil {name} en {url}",
  "no scheduled maintenance": "sin mantenimientos programados",
  "maintenance {from} to {to}:": "mantenimiento del {from} al {to}:",
  "news:": "novedades:",
  // commands/validate.ts
  "{n} voucher: {valid} valid, {invalid} invalid": "{n} comprobante: válidos {valid}, inválidos {invalid}",
  "{n} vouchers: {valid} valid, {invalid} invalid": "{n} comprobantes: válidos {valid}, inválidos {invalid}",
  "{n} warning": "{n} aviso",
  "{n} warnings": "{n} avisos",
  "{n} file unreadable": "{n} archivo ilegible",
  "{n} files unreadable": "{n} archivos ilegibles",
  // durable/append-log.ts
  "cannot write {path}: {cause}": "no se pudo escribir {path}: {cause}",
  "{path}: line {value} is corrupt": "{path}: la línea {value} está dañada",
  "the log is closed": "el registro está cerrado",
  "{cause} ({written} of {total} bytes written)": "{cause} (se escribieron {written} de {total} bytes)",
  "short write: {written} of {total} bytes written": "escritura incompleta: se escribieron {written} de {total} bytes",
  "fsync failed: {cause}": "falló fsync: {cause}",
  // durable/lock.ts
  "{path} is locked by process {pid}": "{path} está bloqueado por el proceso {pid}",
  "cannot take the lock {path}: a file is where its folder should be":
    "no puedo tomar el bloqueo {path}: hay un archivo donde debería estar su carpeta",
  "could not take the lock {path}: too many processes contend for it":
    "no se pudo tomar el bloqueo {path}: demasiados procesos lo disputan",
  // config/profile.ts
  "credential {name} comes from the environment variable {variable}, which is not set":
    "la credencial {name} viene de la variable de entorno {variable}, que no está definida",
  "credential {name} comes from {path}, which cannot be read ({code})":
    "la credencial {name} viene de {path}, que no se puede leer ({code})",
  "FACTURAR_PUNTO_VENTA takes a point of sale from 1 to 99999, not {value}":
    "FACTURAR_PUNTO_VENTA acepta un punto de venta de 1 a 99999, no {value}",
  "config file {path} does not exist": "el archivo de configuración {path} no existe",
  "cannot read the configuration: {message}": "no se puede leer la configuración: {message}",
  "no profile named {name} in {path}": "no hay un perfil llamado {name} en {path}",
  "no profile named {name} (no configuration file found)":
    "no hay un perfil llamado {name} (no se encontró archivo de configuración)",
  "profiles there: {names}": "perfiles que hay: {names}",
  "create one with `facturar init`, or use the embedded sandbox (no profile)":
    "creá uno con `facturar init`, o usá el sandbox incorporado (sin perfil)",
  '{path} holds literal credentials ({keys}) and other users can read it: chmod 600 it, or use {"env": NAME} / {"file": PATH}':
    '{path} contiene credenciales literales ({keys}) y otros usuarios pueden leerlo: hacele chmod 600, o usá {"env": NOMBRE} / {"file": RUTA}',
  "profile {name} has no {keys}": "al perfil {name} le falta {keys}",
  "set them in the profile, or in FACTURAR_USERTOKEN, FACTURAR_APIKEY and FACTURAR_APITOKEN":
    "definilas en el perfil, o en FACTURAR_USERTOKEN, FACTURAR_APIKEY y FACTURAR_APITOKEN",
  "base_url {url} is not a URL": "base_url {url} no es una URL",
  'use "sandbox" or https://<host>/app/api/v2': 'usá "sandbox" o https://<host>/app/api/v2',
  "refusing {url}: credentials travel in the body, so only https is allowed (plain http only to loopback)":
    "se rechaza {url}: las credenciales viajan en el cuerpo, así que solo se admite https (http simple solo hacia loopback)",
  // input/csv-records.ts
  "a quoted cell is never closed": "una celda entre comillas nunca se cierra",
  "a quote inside an unquoted cell (cell {cell}); quote the whole cell":
    "una comilla dentro de una celda sin comillas (celda {cell}); poné la celda entera entre comillas",
  "text after a closing quote (cell {cell}); quote the whole cell":
    "texto después de una comilla de cierre (celda {cell}); poné la celda entera entre comillas",
  // input/csv.ts
  "empty column name in the header": "nombre de columna vacío en el encabezado",
  "column {name} appears twice": "la columna {name} aparece dos veces",
  "item columns take no index: each row is one item": "las columnas de ítems no llevan índice: cada fila es un ítem",
  "did you mean {column}?": "¿quisiste decir {column}?",
  "columns are dotted paths such as comprobante.detalle.producto.descripcion (see `facturar schema`)":
    "las columnas son rutas con puntos como comprobante.detalle.producto.descripcion (mirá `facturar schema`)",
  "unknown column {name}": "columna desconocida {name}",
  "{cell} differs from {first} given on row {row} for the same voucher: voucher cells on later rows must be empty or equal":
    "{cell} difiere de {first}, dado en la fila {row} para el mismo comprobante: las celdas del comprobante en filas siguientes deben estar vacías o ser iguales",
  "column {column}": "columna {column}",
  "the file is empty": "el archivo está vacío",
  "reference {reference} already formed a voucher at row {row}; keep each voucher's rows together":
    "la referencia {reference} ya formó un comprobante en la fila {row}; mantené juntas las filas de cada comprobante",
  "not valid CSV: this row has {cells} cells, the header {columns}":
    "CSV inválido: esta fila tiene {cells} celdas y el encabezado {columns}",
  "a cell holding the delimiter must be quoted": "una celda que contiene el separador debe ir entre comillas",
  "not valid CSV: {message}": "CSV inválido: {message}",
  "the file has no header row": "el archivo no tiene fila de encabezado",
  "the file has a header but no voucher rows": "el archivo tiene encabezado pero ninguna fila de comprobante",
  // input/json.ts
  "not valid JSON ({message})": "JSON inválido ({message})",
  "nested more than {depth} levels deep; no voucher field is":
    "anidado a más de {depth} niveles; ningún campo de un comprobante lo está",
  "the array holds no voucher": "la lista no contiene ningún comprobante",
  'expected a voucher object with "comprobante" and "cliente"':
    'se esperaba un objeto comprobante con "comprobante" y "cliente"',
  // input/read.ts
  "the file is not valid UTF-8": "el archivo no es UTF-8 válido",
  "not valid UTF-8": "no es UTF-8 válido",
  "not valid UTF-8, though the rest of the file is UTF-8": "no es UTF-8 válido, aunque el resto del archivo es UTF-8",
  "fix that character, or save the file again as UTF-8":
    "corregí ese carácter, o guardá el archivo de nuevo como UTF-8",
  "if it was saved as Windows-1252 (Excel's CSV in Spanish), pass --encoding latin1, or leave --encoding out":
    "si se guardó como Windows-1252 (el CSV de Excel en español), usá --encoding latin1, o no indiques --encoding",
  "not valid UTF-8 and no byte order mark: read as Windows-1252 (what Excel saves as CSV in Spanish); --encoding utf8 refuses it instead":
    "no es UTF-8 válido y no tiene marca de orden de bytes: se leyó como Windows-1252 (lo que Excel guarda como CSV en español); con --encoding utf8 se rechaza",
  "line {line}, column {column}": "línea {line}, columna {column}",
  "cannot be read ({code})": "no se puede leer ({code})",
  "no input": "no hay entrada",
  "is a folder, not a voucher file": "es una carpeta, no un archivo de comprobantes",
  "no such file": "no existe el archivo",
  // input/source.ts
  "row {row}": "fila {row}",
  "rows {first}-{last}": "filas {first}-{last}",
  // durable/files.ts
  "refusing to write {name}: not a plain file name": "no se escribe {name}: no es un nombre de archivo simple",
  "refusing to write {path}: it is a symbolic link": "no se escribe {path}: es un enlace simbólico",
  "refusing to write {path}: it is not a regular file": "no se escribe {path}: no es un archivo común",
  // output/validation.ts
  error: "error",
  warning: "aviso",
  "{n} error": "{n} error",
  "{n} errors": "{n} errores",
  // output/voucher.ts
  issued: "emitido",
  queued: "encolado",
  "already issued, not sent again": "ya emitido, no se envió de nuevo",
  "rejected by the service": "rechazado por el servicio",
  "invalid, not sent": "inválido, no enviado",
  "OUTCOME UNKNOWN": "RESULTADO DESCONOCIDO",
  "not sent": "no enviado",
  "reference used before for another voucher, not sent": "referencia ya usada para otro comprobante, sin enviar",
  "(confirmed with the service)": "(confirmado con el servicio)",
  "— (development: no CAE)": "— (desarrollo: sin CAE)",
  ", expires {date}": ", vence {date}",
  "due {date}": "vencimiento {date}",
  "ticket:": "ticket:",
  "codes:": "códigos:",
  // sandbox/faults.ts
  "fault {name} takes no value (or on/off), got {value}":
    "la falla {name} no lleva valor (o on/off); se recibió {value}",
  "unknown fault {name}; known: {value}": "falla desconocida {name}; conocidas: {value}",
  "{name} takes a rate from 0 to 1, e.g. {name}=0.05; got {part}":
    "{name} acepta una tasa de 0 a 1, p. ej. {name}=0.05; se recibió {part}",
  // sandbox/store.ts
  "the sandbox store is closed": "el almacén del sandbox está cerrado",
  "the sandbox data folder {dataDir} is in use by process {pid}":
    "la carpeta de datos del sandbox {dataDir} está en uso por el proceso {pid}",
  // voucher/ids.ts
  "a CUIT has 11 digits; got {value}": "una CUIT tiene 11 dígitos; se recibió {value}",
  "CUIT {value} starts with {prefix}, which the authority does not issue":
    "la CUIT {value} empieza con {prefix}, que ARCA no asigna",
  "CUIT {value} cannot be valid: no check digit fits its first ten digits":
    "la CUIT {value} no puede ser válida: ningún dígito verificador corresponde a sus primeros diez dígitos",
  "CUIT {value} is not valid: its check digit does not match the rest; check the whole number against the customer's papers":
    "la CUIT {value} no es válida: su dígito verificador no coincide con el resto; revisá el número completo con la constancia del cliente",
  "a CBU has 22 digits; got {value}": "un CBU tiene 22 dígitos; se recibió {value}",
  "CBU {value} has a wrong check digit in its first block (bank and branch)":
    "el CBU {value} tiene mal el dígito verificador del primer bloque (banco y sucursal)",
  "CBU {value} has a wrong check digit in its second block (account)":
    "el CBU {value} tiene mal el dígito verificador del segundo bloque (cuenta)",
  // voucher/rules.ts
  "send either `cliente` (a sale) or `proveedor` (a purchase), not both":
    "enviá `cliente` (una venta) o `proveedor` (una compra), no ambos",
  'a sale (operacion "V") needs `cliente`; `proveedor` is for purchases (operacion "C")':
    'una venta (operacion "V") necesita `cliente`; `proveedor` es para compras (operacion "C")',
  'a sale (operacion "V") needs a `cliente` block': 'una venta (operacion "V") necesita un bloque `cliente`',
  'a purchase (operacion "C") needs `proveedor`; `cliente` is for sales (operacion "V")':
    'una compra (operacion "C") necesita `proveedor`; `cliente` es para ventas (operacion "V")',
  'a purchase (operacion "C") needs `numero`: the voucher number the supplier printed on it':
    'una compra (operacion "C") necesita `numero`: el número del comprobante del proveedor, como figura impreso',
  'a purchase (operacion "C") needs a `proveedor` block': 'una compra (operacion "C") necesita un bloque `proveedor`',
  "a voucher takes at most {items} items; this one has {length}: split it":
    "un comprobante admite hasta {items} ítems; este tiene {length}: dividilo",
  "at most {tags} tags per voucher; got {length}": "hasta {tags} etiquetas por comprobante; hay {length}",
  'a tag is 1 to {tagLength} letters, digits, spaces, "_" or "-"; got {value}':
    'una etiqueta tiene de 1 a {tagLength} letras, dígitos, espacios, "_" o "-"; se recibió {value}',
  "at most {associations} associated vouchers; got {length}":
    "hasta {associations} comprobantes asociados; hay {length}",
  "at most {tributos} tributos per voucher; got {length}": "hasta {tributos} tributos por comprobante; hay {length}",
  "{length} tributos: part of the service's documentation allows only {tributosSafe}":
    "{length} tributos: parte de la documentación del servicio admite solo {tributosSafe}",
  'external_reference is 1 to {externalReference} letters, digits, "_" or "-"; got {value}':
    'external_reference tiene de 1 a {externalReference} letras, dígitos, "_" o "-"; se recibió {value}',
  "external_reference {value} looks like a number the service may give back changed ({back}), and the voucher could not be found by it again: start it with a letter, as F-{value}":
    "external_reference {value} parece un número que el servicio puede devolver cambiado ({back}), y el comprobante no se podría volver a encontrar por ella: empezala con una letra, como F-{value}",
  "nogravados must be 0: send non-taxed amounts as items with alicuota -2":
    "nogravados debe ser 0: enviá los importes no gravados como ítems con alicuota -2",
  "percepciones_iva is not added to the total: send VAT perceptions in `tributos` (tipo 6)":
    "percepciones_iva no se suma al total: enviá las percepciones de IVA en `tributos` (tipo 6)",
  "FCE vouchers go to a CUIT": "los comprobantes FCE van a una CUIT",
  "class {class} vouchers go to a CUIT": "los comprobantes clase {class} van a una CUIT",
  "class B vouchers to an exempt customer go to a CUIT": "los comprobantes clase B a un cliente exento van a una CUIT",
  "class C vouchers to a registered, small or exempt taxpayer go to a CUIT":
    "los comprobantes clase C a un responsable inscripto, monotributista o exento van a una CUIT",
  "a class {class} voucher cannot go to a customer with VAT condition {condition}; allowed: {allowed}":
    "un comprobante clase {class} no puede ir a un cliente con condición de IVA {condition}; admitidas: {allowed}",
  "(a registered taxpayer gets class A)": "(un responsable inscripto recibe clase A)",
  "{rule}, not {document}": "{rule}, no a {document}",
  'an unidentified final consumer is sent as documento_tipo "OTRO" with documento_nro "0"':
    'un consumidor final no identificado se envía como documento_tipo "OTRO" con documento_nro "0"',
  "an unidentified customer (OTRO) must be a final consumer (CF), not {condition}":
    "un cliente no identificado (OTRO) debe ser consumidor final (CF), no {condition}",
  "a sale of {amount} pesos reaches the ceiling for unidentified consumers ({amount2}): identify the customer by DNI, CUIT, CUIL or passport":
    "una venta de {amount} pesos alcanza el tope para consumidores no identificados ({amount2}): identificá al cliente con DNI, CUIT, CUIL o pasaporte",
  'condicion_pago {PAYMENT_CONDITION_OTHER} ("Otra") needs condicion_pago_otra describing it':
    'condicion_pago {PAYMENT_CONDITION_OTHER} ("Otra") necesita condicion_pago_otra que la describa',
  "at most {emails} e-mail addresses; got {length}": "hasta {emails} direcciones de correo; hay {length}",
  "{bad} does not look like an e-mail address": "{bad} no parece una dirección de correo",
  "the customer's CUIT": "la CUIT del cliente",
  "the supplier's CUIT": "la CUIT del proveedor",
  "the receiver's CUIT is the issuer's own: a voucher cannot be issued to oneself":
    "la CUIT del receptor es la del emisor: no se puede emitir un comprobante a uno mismo",
  "the customer's CUIL": "el CUIL del cliente",
  "the supplier's CUIL": "el CUIL del proveedor",
  "a DNI has 7 or 8 digits; got {value}": "un DNI tiene 7 u 8 dígitos; se recibió {value}",
  "exempt items": "ítems exentos",
  "non-taxed items": "ítems no gravados",
  VAT: "IVA",
  "class C vouchers carry no {what}: send alicuota 0 and the final price":
    "los comprobantes clase C no llevan {what}: enviá alicuota 0 y el precio final",
  "class C vouchers carry no exempt amount": "los comprobantes clase C no llevan importe exento",
  "class C vouchers carry no perceptions": "los comprobantes clase C no llevan percepciones",
  "export vouchers (class E) need the `fex` block":
    "los comprobantes de exportación (clase E) necesitan el bloque `fex`",
  "export vouchers carry no non-taxed items": "los comprobantes de exportación no llevan ítems no gravados",
  "export vouchers carry no VAT: send alicuota 0": "los comprobantes de exportación no llevan IVA: enviá alicuota 0",
  "export vouchers carry no discounts": "los comprobantes de exportación no llevan descuentos",
  "export vouchers carry no internal taxes": "los comprobantes de exportación no llevan impuestos internos",
  "export vouchers carry no taxes or perceptions": "los comprobantes de exportación no llevan tributos ni percepciones",
  "export notes name the vouchers they adjust in fex.comprobantes_asociados, not a period":
    "las notas de exportación indican los comprobantes que ajustan en fex.comprobantes_asociados, no un período",
  "the `fex` block belongs to export vouchers (class E) only":
    "el bloque `fex` corresponde solo a comprobantes de exportación (clase E)",
  "tipo_exportacion is 1 (goods), 2 (services) or 4 (other)":
    "tipo_exportacion es 1 (bienes), 2 (servicios) o 4 (otros)",
  'goods exports say whether they have permits: permisos_tiene "S" or "N"':
    'las exportaciones de bienes indican si tienen permisos: permisos_tiene "S" o "N"',
  'permisos_tiene is "S" but no permisos are listed': 'permisos_tiene es "S" pero no se listan permisos',
  'permisos are listed but permisos_tiene is "N"': 'se listan permisos pero permisos_tiene es "N"',
  "goods exports usually state the incoterm": "las exportaciones de bienes suelen indicar el incoterm",
  "customs permits are for goods exports only": "los permisos de embarque son solo para exportaciones de bienes",
  "incoterms are for goods exports only": "los incoterms son solo para exportaciones de bienes",
  "service and other exports need fecha_pago": "las exportaciones de servicios y otras necesitan fecha_pago",
  "the country CUIT": "la CUIT país",
  "export vouchers name the destination country": "los comprobantes de exportación indican el país de destino",
  "the FCE regime belongs to FCE MiPyME vouchers only": "el régimen FCE corresponde solo a comprobantes FCE MiPyME",
  'FCE vouchers carry rg_especiales with regimen "{FCE_REGIME}" and its data (CBU 2101 and 27 on invoices, 22 on notes)':
    'los comprobantes FCE llevan rg_especiales con regimen "{FCE_REGIME}" y sus datos (CBU 2101 y 27 en facturas, 22 en notas)',
  "FCE invoices carry the issuer's CBU (id 2101)": "las facturas FCE llevan el CBU del emisor (id 2101)",
  'FCE invoices carry the transfer option (id 27): "SCA" or "ADC"':
    'las facturas FCE llevan la opción de transferencia (id 27): "SCA" o "ADC"',
  'the transfer option (id 27) is "SCA" or "ADC", not {value}':
    'la opción de transferencia (id 27) es "SCA" o "ADC", no {value}',
  "id 22 (annulment) belongs to FCE notes, not invoices": "el id 22 (anulación) corresponde a notas FCE, no a facturas",
  "an FCE invoice is due on or after its date ({fecha})": "una factura FCE vence en su fecha ({fecha}) o después",
  "an FCE invoice sent today must be due on or after today ({today}); {vencimiento} has passed":
    "una factura FCE enviada hoy debe vencer hoy ({today}) o después; {vencimiento} ya pasó",
  'FCE notes carry id 22 (annulment): "S" or "N"': 'las notas FCE llevan el id 22 (anulación): "S" o "N"',
  'id 22 (annulment) is "S" or "N", not {value}': 'el id 22 (anulación) es "S" o "N", no {value}',
  "id {id} belongs to FCE invoices, not to notes": "el id {id} corresponde a facturas FCE, no a notas",
  "a CBU alias has 6 to 20 letters, digits, dots or dashes":
    "un alias de CBU tiene de 6 a 20 letras, dígitos, puntos o guiones",
  "credit and debit notes name the vouchers they adjust (comprobantes_asociados) or a period (comprobantes_asociados_periodo)":
    "las notas de crédito y débito indican los comprobantes que ajustan (comprobantes_asociados) o un período (comprobantes_asociados_periodo)",
  "the associated voucher's issuer CUIT": "la CUIT del emisor del comprobante asociado",
  "an associated voucher ({comprobante_fecha}) cannot be dated after this voucher ({fecha})":
    "un comprobante asociado ({comprobante_fecha}) no puede tener fecha posterior a este comprobante ({fecha})",
  "a class {class} note adjusts class {class} vouchers, not {tipo_comprobante}":
    "una nota clase {class} ajusta comprobantes clase {class}, no {tipo_comprobante}",
  "an FCE note adjusts an FCE invoice of its class": "una nota FCE ajusta una factura FCE de su clase",
  "an FCE note adjusts exactly one FCE invoice": "una nota FCE ajusta exactamente una factura FCE",
  "an FCE note names the one FCE invoice it adjusts, not a period":
    "una nota FCE indica la factura FCE que ajusta, no un período",
  "the period ends ({fecha_hasta}) before it starts ({fecha_desde})":
    "el período termina ({fecha_hasta}) antes de empezar ({fecha_desde})",
  "the associated period cannot end after this voucher's date ({fecha})":
    "el período asociado no puede terminar después de la fecha de este comprobante ({fecha})",
  'paga_misma_moneda "S" is for vouchers in a foreign currency':
    'paga_misma_moneda "S" es para comprobantes en moneda extranjera',
  "currency {moneda} is not in the tool's table; check the code":
    "la moneda {moneda} no está en la tabla de la herramienta; revisá el código",
  "a voucher in {moneda} needs its exchange rate (cotizacion)":
    "un comprobante en {moneda} necesita su cotización (el campo cotizacion)",
  "cotizacion 1 for {moneda}: is the exchange rate missing?": "cotización 1 para {moneda}: ¿falta el tipo de cambio?",
  "the service handles cotizacion with 3 decimals; more may be rounded":
    "el servicio maneja la cotización con 3 decimales; con más se puede redondear",
  "pagos.total {amount} differs from the sum of formas_pago {amount2}":
    "pagos.total {amount} difiere de la suma de formas_pago {amount2}",
  "payments ({amount}) exceed the voucher total ({amount2})":
    "los pagos ({amount}) superan el total del comprobante ({amount2})",
  "the billed period needs both periodo_facturado_desde and periodo_facturado_hasta":
    "el período facturado necesita periodo_facturado_desde y periodo_facturado_hasta",
  "the billed period ends ({to}) before it starts ({from})":
    "el período facturado termina ({to}) antes de empezar ({from})",
  "the payment due date ({vencimiento}) is before the voucher date ({fecha})":
    "el vencimiento de pago ({vencimiento}) es anterior a la fecha del comprobante ({fecha})",
  "a subscription (abono S) needs abono_frecuencia in months": "un abono (abono S) necesita abono_frecuencia en meses",
  "a subscription (abono S) needs abono_hasta (mm/yyyy)": "un abono (abono S) necesita abono_hasta (mm/aaaa)",
  "the subscription ends ({abono_hasta}) before the voucher's month":
    "el abono termina ({abono_hasta}) antes del mes del comprobante",
  "unknown tributo type {tipo}; expected 1 (national), 6 (VAT) or 7 (IIBB)":
    "tipo de tributo desconocido {tipo}; se esperaba 1 (nacional), 6 (IVA) o 7 (IIBB)",
  "unknown tributo regime {regimen}": "régimen de tributo desconocido {regimen}",
  "regime {regimen} ({name}) belongs to tributo type {tipo}, not {tipo2} ({value})":
    "el régimen {regimen} ({name}) corresponde al tipo de tributo {tipo}, no al {tipo2} ({value})",
  "{base_imponible} × {alicuota}% is {amount}, but total says {total}":
    "{base_imponible} × {alicuota}% es {amount}, pero total dice {total}",
  "regime {regimen} is not in the tool's table; the authority will judge it":
    "el régimen {regimen} no está en la tabla de la herramienta; lo juzgará ARCA",
  "regime {regimen} takes ids {value}, not {id}": "el régimen {regimen} acepta los ids {value}, no {id}",
  "id {id} is FCE data; this is not an FCE voucher": "el id {id} es un dato FCE; este no es un comprobante FCE",
  "an FCE voucher is dated from {fceBack} days back to {fceAhead} ahead of today ({today}); the authority refuses {fecha}":
    "un comprobante FCE lleva fecha desde {fceBack} días antes hasta {fceAhead} después de hoy ({today}); la autoridad rechaza {fecha}",
  "vouchers for services are dated within {span} days of today ({today}); the authority refuses {fecha}":
    "los comprobantes de servicios llevan fecha dentro de los {span} días de hoy ({today}); la autoridad rechaza {fecha}",
  "vouchers for goods are dated within {span} days of today ({today}); the authority refuses {fecha}":
    "los comprobantes de bienes llevan fecha dentro de los {span} días de hoy ({today}); la autoridad rechaza {fecha}",
  "a goods voucher dated ahead ({fecha}) must stay in the current month ({today}); the authority refuses it":
    "un comprobante de bienes con fecha adelantada ({fecha}) debe quedar en el mes en curso ({today}); la autoridad lo rechaza",
  "total {amount} differs from the computed {amount2} by {amount3}: the authority tolerates it, but the printed items will not add up":
    "el total {amount} difiere del calculado {amount2} en {amount3}: ARCA lo tolera, pero los ítems impresos no van a sumar",
  "total {amount} does not match the computed {amount2} ({totals}); the authority tolerates {amount3}":
    "el total {amount} no coincide con el calculado {amount2} ({totals}); ARCA tolera {amount3}",
  // voucher/schema.ts
  "expected a number such as 1234.56 (a decimal point, no thousands separators)":
    "se esperaba un número como 1234.56 (punto decimal, sin separador de miles)",
  "expected a finite number": "se esperaba un número finito",
  "expected a plain decimal number, not exponent notation":
    "se esperaba un número decimal simple, sin notación exponencial",
  "at most {decimals} decimals allowed, got {canonical}":
    "se admiten hasta {decimals} decimales; se recibió {canonical}",
  "at most {integerDigits} digits before the decimal point": "hasta {integerDigits} dígitos antes del punto decimal",
  "must be greater than {min}, got {canonical}": "debe ser mayor que {min}; se recibió {canonical}",
  "must be at least {min}, got {canonical}": "debe ser al menos {min}; se recibió {canonical}",
  "must be at most {max}, got {canonical}": "debe ser como mucho {max}; se recibió {canonical}",
  "a whole number": "un número entero",
  "expected {what}": "se esperaba {what}",
  "must be between {min} and {max}, got {n}": "debe estar entre {min} y {max}; se recibió {n}",
  "expected a {what} code": "se esperaba un código de {what}",
  "unknown {what} code {code}": "código de {what} desconocido: {code}",
  "expected {what} (digits only)": "se esperaba {what} (solo dígitos)",
  "{what} must be 1 to {maxLength} digits, with no dashes or dots; got {text}":
    "{what} debe tener de 1 a {maxLength} dígitos, sin guiones ni puntos; se recibió {text}",
  "expected a date dd/mm/yyyy": "se esperaba una fecha dd/mm/aaaa",
  "{trim} is not a date in the calendar": "{trim} no es una fecha del calendario",
  "expected a date dd/mm/yyyy, got {value}": "se esperaba una fecha dd/mm/aaaa; se recibió {value}",
  "expected mm/yyyy, got {value}": "se esperaba mm/aaaa; se recibió {value}",
  "must have at least {min} characters": "debe tener al menos {min} caracteres",
  "must not be empty": "no puede estar vacío",
  "must have at most {max} characters": "debe tener como mucho {max} caracteres",
  "expected one of {value}": "se esperaba uno de {value}",
  "the document number": "el número de documento",
  "payment condition": "condición de pago",
  province: "provincia",
  language: "idioma",
  'expected "S" or "N"': 'se esperaba "S" o "N"',
  'expected "V" (sale) or "C" (purchase)': 'se esperaba "V" (venta) o "C" (compra)',
  "VAT rate must be one of {value} (-1 exempt, -2 non-taxed); got {value2}":
    "la alícuota de IVA debe ser una de {value} (-1 exento, -2 no gravado); se recibió {value2}",
  "unit of measure": "unidad de medida",
  "a tributo type code": "un código de tipo de tributo",
  "a tributo regime code": "un código de régimen de tributo",
  "a regime data id": "un id de dato de régimen",
  "list at least one payment": "indicá al menos un pago",
  'unknown voucher type {input}; expected a name such as "FACTURA B" (see `facturar schema`)':
    'tipo de comprobante desconocido {input}; se esperaba un nombre como "FACTURA B" (mirá `facturar schema`)',
  "a point of sale number": "un número de punto de venta",
  "a voucher number": "un número de comprobante",
  "the issuer's CUIT": "la CUIT del emisor",
  "an export type (1 goods, 2 services, 4 other)": "un tipo de exportación (1 bienes, 2 servicios, 4 otros)",
  "a country id": "un id de país",
  "a voucher number of at most 8 digits": "un número de comprobante de hasta 8 dígitos",
  "expected a 3-character currency code such as PES, DOL or 060":
    "se esperaba un código de moneda de 3 caracteres como PES, DOL o 060",
  "a frequency in months": "una frecuencia en meses",
  "a voucher needs at least one item": "un comprobante necesita al menos un ítem",
  // voucher/totals.ts
  "subtotal {subtotal} − discount {discount}": "subtotal {subtotal} − descuento {discount}",
  "net {rate}% {net} + VAT {vat}": "neto {rate} % {net} + IVA {vat}",
  "net {net}": "neto {net}",
  "exempt {amount}": "exento {amount}",
  "non-taxed {amount}": "no gravado {amount}",
  "internal taxes {amount}": "impuestos internos {amount}",
  "tributos {amount}": "tributos {amount}",
  // voucher/validate.ts
  "no total given: filled in with the computed {total}": "no se indicó total: se completó con el calculado {total}",
  "unknown field {key}; check its spelling (see `facturar schema`)":
    "campo desconocido {key}; revisá cómo está escrito (mirá `facturar schema`)",
  "required field is missing": "falta un campo obligatorio",
  // the typed protocol and the exactly-once core
  "the service's answer to {method} cannot be read: {problem}":
    "la respuesta del servicio a {method} no se puede leer: {problem}",
  "the service refuses queued vouchers at this point of sale: {message}":
    "el servicio rechaza comprobantes encolados en este punto de venta: {message}",
  "queued issuing needs a webhook URL on the point of sale: set it in the service's web panel (Mi espacio de trabajo > CUITs / PDV, edit the point of sale: the webhook is at the foot of the page); `issue-queued --wait` polls the service, but does not replace the webhook; `facturar issue` issues at once without one":
    "para encolar, el punto de venta necesita una URL de webhook: cargala en el panel web del servicio (Mi espacio de trabajo > CUITs / PDV, editá el punto de venta: el webhook está al pie de la pantalla); `issue-queued --wait` consulta al servicio, pero no reemplaza al webhook; `facturar issue` emite al instante sin él",
  "the base URL may point at something else than the service, or a proxy is in the way":
    "la URL base puede apuntar a algo que no es el servicio, o hay un proxy en el medio",
  "it has no error field": "no tiene el campo error",
  "error is {value}": "error vale {value}",
  "no item for the vouchers sent": "ningún ítem para los comprobantes enviados",
  "consulta failed": "consulta falló",
  "it has no comprobante": "no tiene comprobante",
  "it has no number": "no tiene número",
  "could not list the vouchers of {fecha} ({message}); asking about each voucher instead":
    "no se pudieron listar los comprobantes del {fecha} ({message}); se consulta cada comprobante",
  "the service holds {n} issued vouchers under {ref} (sent twice before?); reporting the newest":
    "el servicio tiene {n} comprobantes emitidos con {ref} (¿enviados dos veces antes?); se informa el más reciente",
  "not processed by the service: an earlier voucher of its batch failed":
    "el servicio no lo procesó: falló un comprobante anterior de su lote",
  "already issued (the service holds {ref}): not sent again":
    "ya emitido (el servicio tiene {ref}): no se envía de nuevo",
  "already in the service's queue under {ref}: not sent again":
    "ya está en la cola del servicio con {ref}: no se envía de nuevo",
  "re-queued {ref} (reenviar_encolado): it had failed in the queue":
    "{ref} vuelve a la cola (reenviar_encolado): había fallado en la cola",
  "the service's answer gives no reason, only its status; the reason went to the point of sale's webhook (event error, its msg), and the service's web panel shows the webhooks of the last 3 days":
    "la respuesta del servicio no dice el motivo, solo su estado; el motivo fue al webhook del punto de venta (evento error, en su msg), y el panel web del servicio muestra los webhooks de los últimos 3 días",
  "the service's queue holds {ref} with an error; once its cause is fixed, `facturar issue-queued --requeue` (or `facturar queue retry --ref {ref}`) puts it back in the queue; to send a corrected voucher instead, `facturar queue delete --ref {ref}` first":
    "la cola del servicio tiene {ref} con error; corregida la causa, `facturar issue-queued --requeue` (o `facturar queue retry --ref {ref}`) lo vuelve a encolar; para enviar en cambio un comprobante corregido, primero `facturar queue delete --ref {ref}`",
  "{ref} was used before for another voucher ({held}); nothing sent: this sale is not invoiced":
    "{ref} ya se usó para otro comprobante ({held}); no se envió nada: esta venta no está facturada",
  "{ref} was used before for another voucher ({held}); nothing sent: this purchase is not recorded":
    "{ref} ya se usó para otro comprobante ({held}); no se envió nada: esta compra no está registrada",
  "{ref} was used before for another voucher ({held}); nothing sent: this voucher is not issued":
    "{ref} ya se usó para otro comprobante ({held}); no se envió nada: este comprobante no está emitido",
  "give the new voucher its own external_reference; if it is the same sale corrected, issue a credit note for the old one first (`facturar credit-note --ref {ref}`)":
    "dale al comprobante nuevo su propia external_reference; si es la misma venta corregida, primero emití una nota de crédito del anterior (`facturar credit-note --ref {ref}`)",
  "could not follow it: {message}": "no se pudo seguir: {message}",
  "{ref} is no longer in the service's queue (deleted?)": "{ref} ya no está en la cola del servicio (¿eliminado?)",
  "run again to send it anew": "ejecutá de nuevo para enviarlo otra vez",
  "issued, but its documents were not saved: the next run fetches them":
    "emitido, pero sus documentos no se guardaron: la próxima ejecución los descarga",
  "external_reference {ref} is also used by {source}, with other content":
    "external_reference {ref} también lo usa {source}, con otro contenido",
  "give each voucher its own external_reference": "dale a cada comprobante su propio external_reference",
  "the same voucher as {source} (same external_reference): sent once":
    "el mismo comprobante que {source} (mismo external_reference): se envía una sola vez",
  "not sent: the service stopped the run: {message}": "no enviado: el servicio detuvo la ejecución: {message}",
  "issue again a voucher the journal or the service holds as issued (with a new reference)":
    "emitir de nuevo un comprobante que el diario o el servicio tienen como emitido (con otra referencia)",
  "put vouchers that failed in the service's queue back in it (reenviar_encolado), once their cause is fixed":
    "volver a encolar los comprobantes que fallaron en la cola del servicio (reenviar_encolado), una vez corregida la causa",
  "{n} without their documents (the next run fetches them)":
    "{n} sin sus documentos (la próxima ejecución los descarga)",
  "stopped:": "detenido:",
  "profile {name} has issued nothing yet: no journal": "el perfil {name} todavía no emitió nada: no hay diario",
  "{ref}: sent {seconds} s ago and not at the service yet; it may still be storing it: ask again later":
    "{ref}: enviado hace {seconds} s y todavía no está en el servicio; puede estar guardándolo: consultá más tarde",
  "{ref}: no longer in the service's queue; the next issue run will send it":
    "{ref}: ya no está en la cola del servicio; la próxima emisión lo envía",
  "(not shown: nested too deeply)": "(no se muestra: anidado demasiado hondo)",
  "not at the service": "no está en el servicio",
  "queue error": "error en cola",
  deleted: "eliminado",
  "documents not saved yet: the next issue run fetches them":
    "documentos todavía no guardados: la próxima emisión los descarga",
  "{name} takes whole milliseconds, e.g. {name}=200; got {part}":
    "{name} acepta milisegundos enteros, p. ej. {name}=200; se recibió {part}",
  "the final-consumer ceiling topecf answers (default 10000000)":
    "el tope para consumidor final que responde topecf (10000000 si no se indica)",
  "{ref}: the documents an earlier run could not save are saved now: {pdf}":
    "{ref}: los documentos que una ejecución anterior no pudo guardar se guardaron ahora: {pdf}",
  "{ref}: its documents are still missing: {why}": "{ref}: sus documentos siguen faltando: {why}",
  "must not contain control characters (NUL, escape…)": "no debe contener caracteres de control (NUL, escape…)",
  "standard output was closed: stopping; the vouchers in flight settle, nothing new is sent":
    "se cerró la salida estándar: se detiene; los comprobantes en curso terminan, no se envía nada nuevo",
  "cannot write the report {path}: {message}": "no se puede escribir el informe {path}: {message}",
  "give --report a file in a folder that exists and that you can write":
    "indicá en --report un archivo en una carpeta que exista y en la que puedas escribir",
  "QR of {ref} not written: {message}": "QR de {ref} no escrito: {message}",
  "{flag} {path}: its folder cannot be written ({message})":
    "{flag} {path}: no se puede escribir en su carpeta ({message})",
  "the journal {path} cannot be used: {message}": "no se puede usar el diario {path}: {message}",
  "free some space or fix the folder's permissions (XDG_STATE_HOME), then run again: what was sent is asked of the service":
    "liberá espacio o corregí los permisos de la carpeta (XDG_STATE_HOME) y ejecutá de nuevo: lo enviado se consulta al servicio",
  "the sandbox data folder {dataDir} cannot be used: {message}":
    "no se puede usar la carpeta de datos del sandbox {dataDir}: {message}",
  "give --data-dir a folder (it is created if missing), or leave it out":
    "indicá en --data-dir una carpeta (se crea si falta), u omitilo",
  "--{key} VALUE shows the secret to every user of this machine (ps, shell history); prefer the prompt, --{key}-env NAME or --{key}-file PATH":
    "--{key} VALOR muestra el secreto a todos los usuarios de esta máquina (ps, historial del shell); mejor la pregunta, --{key}-env NOMBRE o --{key}-file RUTA",
  "the file starts as UTF-16 but is not valid UTF-16": "el archivo empieza como UTF-16 pero no es UTF-16 válido",
  "waiting for process {pids}, which uses this sandbox, to finish":
    "esperando a que termine el proceso {pids}, que usa este sandbox",
  "standard output cannot be written ({code})": "no se puede escribir la salida estándar ({code})",
  "stopping; the vouchers in flight settle, nothing new is sent":
    "se detiene; los comprobantes en curso terminan, no se envía nada nuevo",
  "refusing to run {path}: a config found from the working folder is never run":
    "no ejecuto {path}: una configuración encontrada desde la carpeta de trabajo nunca se ejecuta",
  "configs that run code are read only from {dir}, or when you name one with --config or FACTURAR_CONFIG":
    "las configuraciones con código se leen solo desde {dir}, o cuando nombrás una con --config o FACTURAR_CONFIG",
  "config file {path}: unknown format (use .json, .yaml, .js, .mjs, .cjs or .ts)":
    "archivo de configuración {path}: formato desconocido (usá .json, .yaml, .js, .mjs, .cjs o .ts)",
  "refusing {path}: a config found from the working folder may not set {keys}":
    "rechazo {path}: una configuración encontrada desde la carpeta de trabajo no puede fijar {keys}",
  "credentials, base_url and the other settings come only from {dir}, --config, FACTURAR_CONFIG or the environment; a folder's config may set default_profile and pdf_dir":
    "las credenciales, base_url y lo demás vienen solo de {dir}, --config, FACTURAR_CONFIG o el entorno; la configuración de una carpeta puede fijar default_profile y pdf_dir",
  "settings from {file}": "configuración de {file}",
  "refusing to run {path}: others can write the folder {folder}":
    "no ejecuto {path}: otros pueden escribir en la carpeta {folder}",
  "refusing to use {path}: others can write the folder {folder}":
    "no uso {path}: otros pueden escribir en la carpeta {folder}",
  "{path} cannot be read: not valid JSON or YAML at line {line}, column {column}":
    "no puedo leer {path}: no es JSON ni YAML válido en la línea {line}, columna {column}",
  "{path} cannot be read: not valid JSON or YAML": "no puedo leer {path}: no es JSON ni YAML válido",
  "FACTURAR_CONFIG must be an absolute path, not {value}: it applies in every folder you stand in":
    "FACTURAR_CONFIG tiene que ser una ruta absoluta, no {value}: vale en cada carpeta donde estés",
  "refusing {path}: a config found from the working folder may not be a link":
    "rechazo {path}: una configuración encontrada desde la carpeta de trabajo no puede ser un enlace",
  "{path}: pdf_dir must be a folder inside {folder}, not {value}":
    "{path}: pdf_dir tiene que ser una carpeta dentro de {folder}, no {value}",
  "{path} may not choose profile {name}, a production one: give --profile {bare} (or FACTURAR_PROFILE)":
    "{path} no puede elegir el perfil {name}, que es de producción: indicá --profile {bare} (o FACTURAR_PROFILE)",
  "{path} sets profile {name}, which your configuration does not define":
    "{path} elige el perfil {name}, que tu configuración no define",
  "define it in {dir} (facturar init does), or give --profile":
    "definilo en {dir} (facturar init lo hace), o indicá --profile",
  "refusing to run {path}: another user owns it or can write it":
    "no se ejecuta {path}: es de otro usuario u otros pueden escribirlo",
  "a config that runs code must be yours alone (chmod go-w); or use a JSON config":
    "una configuración que ejecuta código tiene que ser solo tuya (chmod go-w); o usá una configuración JSON",
  "the report {path} cannot take more rows ({message}); the run goes on":
    "el informe {path} no admite más filas ({message}); la ejecución sigue",
  "the file is {mb} MB: too large to read as one JSON document":
    "el archivo tiene {mb} MB: es demasiado grande para leerlo como un único documento JSON",
  "split it into several files, or export the vouchers as CSV, which is read as it streams":
    "dividilo en varios archivos, o exportá los comprobantes como CSV, que se lee a medida que llega",
  "cannot keep this run's vouchers in {dir}: {message}":
    "no se pueden guardar los comprobantes de esta ejecución en {dir}: {message}",
  "a run of many vouchers keeps them in a temporary file while it works: make room there or make it writable, or point TMPDIR elsewhere":
    "una ejecución con muchos comprobantes los guarda en un archivo temporal mientras trabaja: liberá espacio allí o permití escribir, o apuntá TMPDIR a otra carpeta",
  "{cell} is ambiguous in a file with decimal commas: a dot separates thousands there (7.000 is seven thousand, 7,00 is seven); write it so, or pass --decimal point if this file uses decimal points":
    "{cell} es ambiguo en un archivo con coma decimal: allí el punto separa los miles (7.000 es siete mil, 7,00 es siete); escribilo así, o pasá --decimal point si este archivo usa punto decimal",
  "decimal mark of CSV numbers: comma (7.000,50) or point (7000.50); default comma with ; and point with ,":
    "separador decimal de los números del CSV: coma (7.000,50) o punto (7000.50); por omisión, coma con ; y punto con ,",
  "a code is text, or a whole number": "un código es texto, o un número entero",
  "a voucher in pesos goes with cotizacion 1, as the authority requires; {cotizacion} is not sent":
    "un comprobante en pesos va con cotización 1, como exige ARCA; {cotizacion} no se envía",
  "cotizacion 1 for dollars: give the exchange rate in pesos per dollar":
    "cotización 1 para dólares: indicá el tipo de cambio en pesos por dólar",
  "bonificacion {discount} is more than the items it discounts add up to ({subtotal})":
    "la bonificacion {discount} supera la suma de los ítems que descuenta ({subtotal})",
  "export vouchers carry no discounts, nor negative prices":
    "los comprobantes de exportación no llevan descuentos ni precios negativos",
  "a negative-price line is a discount on the others: here it leaves a negative base, VAT or total":
    "una línea de precio negativo es un descuento sobre las demás: aquí deja negativa una base, el IVA o el total",
  "the e-mail addresses take at most {max} characters together; these take {length}":
    "las direcciones de e-mail ocupan como máximo {max} caracteres en total; estas ocupan {length}",
  "did you mean {tipo}?": "¿quisiste decir {tipo}?",
  "unknown voucher type {input}; did you mean {tipo}?":
    "tipo de comprobante desconocido {input}; ¿quisiste decir {tipo}?",
  "{n} invalid (skipped)": "inválidos: {n} (no enviados)",
  "issue the valid vouchers and report the invalid ones (exit 7); by default nothing is sent while any is invalid":
    "emite los comprobantes válidos e informa los inválidos (código 7); por omisión no se envía nada mientras alguno sea inválido",
  "{tipo} is not a voucher a credit or debit note adjusts":
    "{tipo} no es un comprobante que una nota de crédito o débito ajuste",
  "export notes (class E) from a voucher are not built yet: their association goes in fex":
    "las notas de exportación (clase E) desde un comprobante todavía no se arman: su asociación va en fex",
  "an FCE note adjusts an FCE invoice, not {tipo}": "una nota FCE ajusta una factura FCE, no {tipo}",
  "the service's answer does not say the issuer's CUIT (its QR is missing), which the note's association needs":
    "la respuesta del servicio no dice el CUIT del emisor (falta su QR), que la asociación de la nota necesita",
  "{tipo} has no number or date yet (is it still queued?): a note names an issued voucher":
    "{tipo} todavía no tiene número o fecha (¿sigue en cola?): una nota nombra un comprobante emitido",
  "the items of {tipo} {numero} add up to {amount}, but the service says its total is {total}":
    "los ítems de {tipo} {numero} suman {amount}, pero el servicio dice que su total es {total}",
  "issue the note from a JSON file with the items it adjusts":
    "emití la nota desde un archivo JSON con los ítems que ajusta",
  "ask for a credit or debit note of the voucher issued under this reference, pre-filled (implies --interactive)":
    "pide una nota de crédito o débito del comprobante emitido con esta referencia, ya completa (implica --interactive)",
  "the service holds no voucher with reference {reference}":
    "el servicio no tiene ningún comprobante con la referencia {reference}",
  "{reference} is not issued ({status}): a note adjusts an issued voucher":
    "{reference} no está emitido ({status}): una nota ajusta un comprobante emitido",
  "Customer's address (optional)": "Domicilio del cliente (opcional)",
  "at most {max} characters": "como máximo {max} caracteres",
  "Customer's e-mail, to send the voucher to (optional)": "E-mail del cliente, para enviarle el comprobante (opcional)",
  "E-mail the voucher to {email} once issued?": "¿Mandarle el comprobante por e-mail a {email} una vez emitido?",
  "Item {n}: {description}": "Ítem {n}: {description}",
  "Quantity (0 leaves the item out)": "Cantidad (0 deja el ítem afuera)",
  "at most {max}, what the voucher had": "como máximo {max}, lo que tenía el comprobante",
  "Voucher date (dd/mm/yyyy)": "Fecha del comprobante (dd/mm/aaaa)",
  "Reference (external_reference)": "Referencia (external_reference)",
  "Does the note annul the invoice (rejected by the buyer)?": "¿La nota anula la factura (rechazada por el comprador)?",
  "{tipo} {number} of {fecha} to {name} ({document}), total {total}":
    "{tipo} {number} del {fecha} a {name} ({document}), total {total}",
  "Which note?": "¿Qué nota?",
  "credit note": "nota de crédito",
  "debit note": "nota de débito",
  "{tipo} from it: lower a quantity or a price for a partial one":
    "{tipo} a partir de él: bajá una cantidad o un precio para una nota parcial",
  // voucher/rules.ts: export notes
  "export notes name the vouchers they adjust in fex.comprobantes_asociados (tipo_comprobante, punto_venta, numero, cuit), not in comprobante.comprobantes_asociados":
    "las notas de exportación indican los comprobantes que ajustan en fex.comprobantes_asociados (tipo_comprobante, punto_venta, numero, cuit), no en comprobante.comprobantes_asociados",
  "an export invoice adjusts no voucher: associated vouchers belong to export notes, in fex":
    "una factura de exportación no ajusta comprobantes: los comprobantes asociados corresponden a las notas de exportación, dentro de fex",
  "fex.comprobantes_asociados belongs to export credit and debit notes":
    "fex.comprobantes_asociados corresponde a las notas de crédito y débito de exportación",
  "an RG 5329 VAT perception is charged only to a registered buyer (RI) on a class A or M voucher; this one goes to {buyer} on a class {class} voucher":
    "una percepción de IVA de la RG 5329 se cobra solo a un comprador responsable inscripto (RI) en un comprobante clase A o M; este va a {buyer} en un comprobante clase {class}",
  "an RG 5329 perception is 3 % of the net taxed at 21 % ({net21}) and 1.5 % of the net at 10.5 % ({net105}): {alicuota} % on {base} does not fit":
    "una percepción de la RG 5329 es el 3 % del neto gravado al 21 % ({net21}) y el 1,5 % del neto al 10,5 % ({net105}): {alicuota} % sobre {base} no corresponde",
  "opcional {id} has no value: dropped, as the service drops it":
    "el opcional {id} no tiene valor: se descarta, como lo descarta el servicio",
  "a tributo of 0 is not sent: the authority refuses it (10024)":
    "un tributo de 0 no se envía: ARCA lo rechaza (10024)",
  "{path} exists already": "{path} ya existe",
  "--force replaces it; or choose another folder with --lid": "--force lo reemplaza; o elegí otra carpeta con --lid",
  "a class C voucher has no place in a registered taxpayer's sales book":
    "un comprobante clase C no va en el libro de ventas de un responsable inscripto",
  "the VAT rate {rate} % has no code in the authority's table":
    "la alícuota de IVA {rate} % no tiene código en la tabla de ARCA",
  "an amount has more than 13 digits of pesos": "un importe tiene más de 13 dígitos de pesos",
  "for the {rate} % rate the tax must be {computed} ({rate} % of the net), not {said}: the portal refuses it":
    "para la alícuota {rate} % el impuesto debe ser {computed} (el {rate} % del neto), no {said}: el portal lo rechaza",
  "its total ({said}) is not the sum of its other amounts ({computed}), {difference} apart (typically VAT rounded item by item): the portal refuses it":
    "su total ({said}) no es la suma de sus demás importes ({computed}): difieren en {difference} (típicamente, IVA redondeado ítem por ítem): el portal lo rechaza",
  "left out:": "excluido:",
  "VAT {rate} %": "IVA {rate} %",
  net: "neto",
  tax: "impuesto",
  "cannot read {path}: {message}": "no se puede leer {path}: {message}",
  "{cbte} and {alicuotas}: as the portal takes them": "{cbte} y {alicuotas}: como los acepta el portal",
  "{n} voucher left out of the files: the book is not clean":
    "{n} comprobante quedó fuera de los archivos: el libro no está limpio",
  "{n} vouchers left out of the files: the book is not clean":
    "{n} comprobantes quedaron fuera de los archivos: el libro no está limpio",
  "{n} problem the portal would refuse": "{n} problema que el portal rechazaría",
  "{n} problems the portal would refuse": "{n} problemas que el portal rechazaría",
  "<folder>": "<carpeta>",
  "write the Libro IVA Digital import files there (LIBRO_IVA_DIGITAL_VENTAS_CBTE.txt and _ALICUOTAS.txt; COMPRAS with --purchases)":
    "escribe ahí los archivos de importación del Libro IVA Digital (LIBRO_IVA_DIGITAL_VENTAS_CBTE.txt y _ALICUOTAS.txt; COMPRAS con --purchases)",
  "with --lid: replace files already there": "con --lid: reemplaza los archivos que ya estén",
  "read the Libro IVA Digital files of that folder back and check them as the portal does (no service needed)":
    "lee los archivos del Libro IVA Digital de esa carpeta y los controla como el portal (sin el servicio)",
  "November's files for the Libro IVA Digital portal, then checked again before upload":
    "los archivos de noviembre para el portal Libro IVA Digital, controlados antes de subirlos",
  "the files checked again (after editing them by hand)":
    "los archivos controlados de nuevo (después de editarlos a mano)",
  "--force goes with --lid": "--force va con --lid",
  "--lid and --csv: choose one": "--lid y --csv: elegí uno",
  "the last record does not end in CRLF": "el último registro no termina en CRLF",
  "a line ends in LF alone, not CRLF": "una línea termina solo en LF, no en CRLF",
  "{n} characters, not {length}": "{n} caracteres, no {length}",
  "announces {count} rate records, {n} follow in {file}":
    "anuncia {count} registros de alícuotas y en {file} siguen {n}",
  "unknown rate code {code}": "código de alícuota desconocido {code}",
  "for the {rate} % rate the tax must be {rate} % of the net ({due}), not {tax}":
    "para la alícuota {rate} % el impuesto debe ser el {rate} % del neto ({due}), no {tax}",
  "the total ({total}) is not the sum of the other amounts ({parts})":
    "el total ({total}) no es la suma de los demás importes ({parts})",
  "a rate record of no voucher (or out of order)": "un registro de alícuota de ningún comprobante (o fuera de orden)",
  "cannot write {path}: {message}": "no se puede escribir {path}: {message}",
  "{path} appeared while the files were written: left as it is":
    "{path} apareció mientras se escribían los archivos: queda como está",
  "it is in {moneda} with no cotizacion: nothing of it is known in pesos":
    "está en {moneda} sin cotización: no se sabe nada de él en pesos",
  "an export's buyer is told by its country's CUIT (documento_tipo CUIT), which this voucher does not name":
    "el comprador de una exportación se informa con la CUIT de su país (documento_tipo CUIT), que este comprobante no nombra",
  "the document number {nro} is not the 1 to 20 digits the design holds":
    "el número de documento {nro} no son los 1 a 20 dígitos que admite el diseño",
  "its only rate is 0 % and nothing says why (exempt, not taxed, an export): the operation code cannot be told":
    "su única alícuota es 0 % y nada dice por qué (exento, no gravado, exportación): no se puede indicar el código de operación",
  "{tipo} {number} was listed twice by the service: written once":
    "el servicio listó dos veces {tipo} {number}: se escribe una vez",
  "note:": "nota:",
  "the vouchers in other currencies, converted part by part, come to {amount} less than their totals converted whole (the book's diferencia_conversion)":
    "los comprobantes en otras monedas, convertidos parte por parte, suman {amount} menos que sus totales convertidos enteros (la diferencia_conversion del libro)",
  "--check-lid reads files and takes no dates: it goes without --from, --to, --lid, --force and --csv":
    "--check-lid lee archivos y no lleva fechas: va sin --from, --to, --lid, --force ni --csv",
  "position {position} holds {value} where the design has a number":
    "la posición {position} tiene {value} donde el diseño pide un número",
  "with only the 0 % rate the operation code is X, E, N, Z or C, not {op}":
    "con la alícuota 0 % sola el código de operación es X, E, N, Z o C, no {op}",
  "announces {count} rate record, {n} follow in {file}": "anuncia {count} registro de alícuotas y en {file} siguen {n}",
  "the date {value} is not a day of the calendar (AAAAMMDD)": "la fecha {value} no es un día del calendario (AAAAMMDD)",
  "{value} is not a voucher type of the authority's table": "{value} no es un tipo de comprobante de la tabla de ARCA",
  "{value} is not a document type of the authority's table": "{value} no es un tipo de documento de la tabla de ARCA",
  "{value} is not a currency of the authority's table": "{value} no es una moneda de la tabla de ARCA",
  "{value} is not an operation code (X, E, N, Z, C or a space)":
    "{value} no es un código de operación (X, E, N, Z, C o un espacio)",
  "the name holds control characters": "el nombre tiene caracteres de control",
  "{file}: no such file, and the journal holds nothing read from it":
    "{file}: no existe ese archivo, y el diario no tiene nada leído de él",
  "a supplier that issues class {class} vouchers is registered with the authority under a CUIT: documento_tipo CUIT, not {document}":
    "un proveedor que emite comprobantes clase {class} está inscripto ante ARCA con una CUIT: documento_tipo CUIT, no {document}",
  "an export note names the invoice it adjusts in fex.comprobantes_asociados (tipo_comprobante, punto_venta, numero, cuit)":
    "una nota de exportación indica en fex.comprobantes_asociados la factura que ajusta (tipo_comprobante, punto_venta, numero, cuit)",
  "an export note adjusts one voucher: the authority refuses more; got {length}":
    "una nota de exportación ajusta un solo comprobante: ARCA rechaza más; hay {length}",
  "export notes carry no fecha_pago: it is for invoices":
    "las notas de exportación no llevan fecha_pago: corresponde a las facturas",
  // voucher/validate.ts
  "must have at most {max} characters; it has {length}": "debe tener como mucho {max} caracteres; tiene {length}",
  "{length} characters: part of the service's documentation allows only {max} in an item legend":
    "{length} caracteres: parte de la documentación del servicio admite solo {max} en la leyenda de un ítem",
  "an export voucher's customer name takes at most {max} characters at the authority; it has {length}":
    "el nombre del cliente de un comprobante de exportación admite como mucho {max} caracteres en ARCA; tiene {length}",
  "exchange rate {part}: write CODE=RATE, a currency code and pesos per unit (DOL=1050.50)":
    "cotización {part}: escribí CÓDIGO=COTIZACIÓN, un código de moneda y pesos por unidad (DOL=1050.50)",
  "no exchange rate for {moneda}": "no hay cotización para {moneda}",
  "cotizacion is {value}": "la cotización es {value}",
  "{currency}: {rate} pesos, the authority's rate of {fecha}":
    "{currency}: {rate} pesos, la cotización de ARCA del {fecha}",
  "{currency}: {rate} pesos, the authority's rate now": "{currency}: {rate} pesos, la cotización actual de ARCA",
  "a voucher in {moneda} takes a cotizacion from {min} to {max} (2 % to 400 % of it)":
    "un comprobante en {moneda} acepta una cotización de {min} a {max} (del 2 % al 400 % de ella)",
  "the authority's exchange rate of a currency, in pesos (tablas_referencia/cotizacion)":
    "la cotización de una moneda según ARCA, en pesos (tablas_referencia/cotizacion)",
  "currency code, as vouchers write moneda (default DOL)":
    "código de moneda, como lo escriben los comprobantes en moneda (por omisión DOL)",
  "the rate of that day (at most 2 months back)": "la cotización de ese día (hasta 2 meses atrás)",
  "could not get the authority's exchange rate for {moneda} ({message}); the service will judge the cotizacion":
    "no se pudo obtener la cotización de ARCA para {moneda} ({message}); el servicio juzgará la cotización",
  "cotizacion {cotizacion} is not within 2 % to 400 % of the authority's rate for {moneda} of {fecha} ({rate}): it takes {min} to {max}":
    "la cotización {cotizacion} no está entre el 2 % y el 400 % de la cotización de ARCA para {moneda} del {fecha} ({rate}): acepta de {min} a {max}",
  "give the rate in pesos per unit; `facturar exchange-rate --currency {moneda}` shows the authority's":
    "indicá la cotización en pesos por unidad; `facturar exchange-rate --currency {moneda}` muestra la de ARCA",
  // cli.ts and commands/*.command.ts: help
  "Examples:": "Ejemplos:",
  "[options]": "[opciones]",
  "[command]": "[comando]",
  "help [command]": "help [comando]",
  "choices: {list}": "valores: {list}",
  "default: {value}": "por defecto: {value}",
  "(Did you mean one of {list}?)": "(¿quisiste decir alguno de {list}?)",
  "(Did you mean {name}?)": "(¿quisiste decir {name}?)",
  "Allowed choices are {list}.": "Los valores admitidos son {list}.",
  "Expected {expected} arguments but got {received}.": "Se esperaban {expected} argumentos y llegaron {received}.",
  "<name>": "<nombre>",
  "<file>": "<archivo>",
  "<lang>": "<idioma>",
  "<shell>": "<shell>",
  "<mark>": "<separador>",
  "[files...]": "[archivos...]",
  "<files...>": "<archivos...>",
  "<encoding>": "<codificación>",
  "<char>": "<carácter>",
  "<dir>": "<carpeta>",
  "<target>": "<destino>",
  "<n>": "<n>",
  "<ms>": "<ms>",
  "<file.csv>": "<archivo.csv>",
  "<profile>": "<perfil>",
  "<url>": "<url>",
  "<value>": "<valor>",
  "<path>": "<ruta>",
  "<seconds>": "<segundos>",
  "<tipo>": "<tipo>",
  "<reference>": "<referencia>",
  "[url]": "[url]",
  "<dd/mm/yyyy>": "<dd/mm/aaaa>",
  "<action>": "<acción>",
  "<cuit>": "<cuit>",
  "<port>": "<puerto>",
  "<address>": "<dirección>",
  "<name=value>": "<nombre=valor>",
  "<pesos>": "<pesos>",
  "<amount>": "<monto>",
  "check a voucher, then issue it": "revisar un comprobante y después emitirlo",
  "what became of a voucher": "qué pasó con un comprobante",
  "a command's own help and examples": "la ayuda y los ejemplos de un comando",
  "today's ceiling": "el tope de hoy",
  "ask the service again, as JSON": "consultar de nuevo al servicio, en JSON",
  "bash, from now on: add this line to ~/.bashrc": "bash, desde ahora: agregá esta línea a ~/.bashrc",
  "zsh: add this line to ~/.zshrc, after compinit": "zsh: agregá esta línea a ~/.zshrc, después de compinit",
  fish: "fish",
  "answer questions on the terminal": "responder preguntas en la terminal",
  "a profile for the embedded sandbox, made the default":
    "un perfil para el sandbox incorporado, como perfil por defecto",
  "a real account, credentials read from the environment": "una cuenta real, con las credenciales leídas del entorno",
  "The service takes queued vouchers only at a point of sale with a webhook URL, set in its web panel (Mi espacio de trabajo > CUITs / PDV); without one it refuses them at once, and the run stops saying so. --wait follows them by polling; it does not replace the webhook. The sandbox asks for one like production: facturar sandbox --like-production --webhook URL.":
    "El servicio acepta comprobantes encolados solo en un punto de venta con URL de webhook, que se carga en su panel web (Mi espacio de trabajo > CUITs / PDV); sin ella los rechaza al instante, y la ejecución se detiene avisándolo. --wait los sigue consultando; no reemplaza al webhook. El sandbox la pide como en producción: facturar sandbox --like-production --webhook URL.",
  "queue a batch and return at once": "encolar un lote y volver enseguida",
  "queue it and wait up to 10 minutes for every voucher": "encolarlo y esperar hasta 10 minutos por cada comprobante",
  "send again the ones that failed, once fixed": "reenviar los que fallaron, una vez corregidos",
  "issue one voucher; its PDF goes to ./comprobantes": "emitir un comprobante; su PDF va a ./comprobantes",
  "no file yet: answer questions on the terminal": "todavía sin archivo: responder preguntas en la terminal",
  "a nightly batch from cron: NDJSON results and a CSV report":
    "un lote nocturno desde cron: resultados en NDJSON y un informe CSV",
  "with another profile, PDFs in a folder of your choice": "con otro perfil, los PDF en la carpeta que elegí",
  "everything the profile's journal holds": "todo lo que guarda el diario del perfil",
  "what became of the vouchers of one batch file": "qué pasó con los comprobantes de un archivo de lote",
  "settle unknown outcomes by asking the service": "resolver los resultados desconocidos consultando al servicio",
  "the next FACTURA B at the profile's point of sale": "la próxima FACTURA B en el punto de venta del perfil",
  "at point of sale 3, as JSON": "en el punto de venta 3, en JSON",
  "the voucher's external_reference": "el external_reference del comprobante",
  "voucher number (N, or as printed: 00679-00000002)": "número de comprobante (N, o como se imprime: 00679-00000002)",
  "the PDF of a voucher, by its reference": "el PDF de un comprobante, por su referencia",
  "by its number, as printed on it": "por su número, como está impreso",
  "into another folder": "en otra carpeta",
  "what a QR says (its text, read with a phone or a scanner)":
    "qué dice un QR (su texto, leído con un teléfono o un lector)",
  "check an issued voucher's QR against the voucher": "comparar el QR de un comprobante emitido con el comprobante",
  "with --type: one voucher (N, or as printed: 00679-00000002)":
    "con --type: un comprobante (N, o como se imprime: 00679-00000002)",
  "what became of one voucher, by its reference": "qué pasó con un comprobante, por su referencia",
  "one voucher by its number, as printed on it": "un comprobante por su número, como está impreso",
  "a day's vouchers, their PDFs saved": "los comprobantes de un día, con sus PDF guardados",
  "a range of numbers, as NDJSON (with the local PDF path when it is there)":
    "un rango de números, en NDJSON (con la ruta del PDF local cuando está)",
  "take a voucher out of the queue": "sacar un comprobante de la cola",
  "issue it on another day": "emitirlo otro día",
  "try again one that failed, once its cause is fixed": "reintentar uno que falló, una vez corregida la causa",
  "must this buyer get an FCE today?": "¿este comprador debe recibir FCE hoy?",
  "as of a date": "a una fecha",
  "a service for other programs on a fixed port": "un servicio para otros programas en un puerto fijo",
  "one that fails a tenth of the time, to try a batch against":
    "uno que falla una de cada diez veces, para probar un lote contra él",
  "save it where an editor can use it": "guardarlo donde un editor pueda usarlo",
  "is the service up, and is maintenance scheduled?": "¿el servicio funciona, y hay mantenimiento programado?",
  "in a script: go on only when invoicing is OK": "en un script: seguir solo si la facturación está OK",
  "start a voucher file from a valid one": "empezar un archivo de comprobante a partir de uno válido",
  "the columns of a CSV batch": "las columnas de un lote CSV",
  "check one voucher file": "revisar un archivo de comprobante",
  "check a spreadsheet export that uses ; and decimal commas":
    "revisar una exportación de planilla que usa ; y coma decimal",
  "only what is wrong, as NDJSON for a script": "solo lo que está mal, en NDJSON para un script",
  // commands/pdf.ts
  "two points of sale given: {first} and {second}": "se indicaron dos puntos de venta: {first} y {second}",
  "the voucher {ref} is not issued yet ({status}): it has no PDF":
    "el comprobante {ref} todavía no está emitido ({status}): no tiene PDF",
  "a credit note of an issued voucher, its answers pre-filled":
    "una nota de crédito de un comprobante emitido, con las respuestas ya completas",
  "<code>": "<código>",
  "today's dollar rate": "la cotización del dólar de hoy",
  "the euro on a given day, as JSON": "el euro de un día dado, en JSON",
  "{variable} takes a date dd/mm/yyyy, not {value}": "{variable} lleva una fecha dd/mm/aaaa, no {value}",
  "no fecha given: dated today in Argentina, {fecha}": "sin fecha: lleva la de hoy en Argentina, {fecha}",
  "no vencimiento given: an FCE invoice is due {days} days after its date, {vencimiento}":
    "sin vencimiento: una factura FCE vence {days} días después de su fecha, el {vencimiento}",
  "no vencimiento given: due {days} days after its date, as its sale condition says, {vencimiento}":
    "sin vencimiento: vence {days} días después de su fecha, como dice su condición de venta, el {vencimiento}",
  "no vencimiento given: due on the voucher's date, {vencimiento}":
    "sin vencimiento: vence en la fecha del comprobante, el {vencimiento}",
  "no billed period given: the month up to the voucher's date, {desde} to {hasta}":
    "sin período facturado: el mes hasta la fecha del comprobante, del {desde} al {hasta}",
  "dated {fecha}, before {last}, the date of the latest {tipo} issued at point of sale {pv}: the authority refuses a date earlier than its lane's last voucher":
    "fechado el {fecha}, antes del {last}, fecha del último {tipo} emitido en el punto de venta {pv}: la autoridad rechaza una fecha anterior a la del último comprobante de ese tipo y punto de venta",
  "date it on or after {last}, or issue it from another point of sale":
    "ponele fecha del {last} en adelante, o emitilo desde otro punto de venta",
  "behave like the real service: latency=80, spacing=100, the authority's checks the development plan skips (authority-checks), and queued vouchers refused at a point of sale without a webhook URL (webhook-required); --fault may change them":
    "se comporta como el servicio real: latency=80, spacing=100, los controles de ARCA que el plan de desarrollo omite (authority-checks) y comprobantes encolados rechazados en un punto de venta sin URL de webhook (webhook-required); --fault puede cambiarlos",
  "as slow and as strict as the real service": "tan lento y tan estricto como el servicio real",
  "not processed by the service: {ref}, earlier in its batch, failed":
    "el servicio no lo procesó: falló {ref}, anterior en su lote",
  "{file}: the same warning [{code}] on {field} for {n} more vouchers (each result lists its own)":
    "{file}: la misma advertencia [{code}] en {field} para {n} comprobantes más (cada resultado lista las suyas)",
  "{tipo} is a credit note: a debit note undoes it, not another credit note":
    "{tipo} es una nota de crédito: la deshace una nota de débito, no otra nota de crédito",
  "{tipo} is a debit note: a credit note undoes it, not another debit note":
    "{tipo} es una nota de débito: la deshace una nota de crédito, no otra nota de débito",
  "export vouchers are dated within {span} days of today ({today}); the authority refuses {fecha}":
    "los comprobantes de exportación se fechan dentro de {span} días de hoy ({today}); la autoridad rechaza {fecha}",
  "{n} invalid, so nothing sent: {valid} valid not sent either (--skip-invalid sends them)":
    "inválidos: {n}, así que no se envió nada: tampoco {valid} válidos (--skip-invalid los envía)",
  "{ref} is issued already: {tipo} {number}": "{ref} ya está emitido: {tipo} {number}",
  "Make another note of this voucher?": "¿Hacer otra nota de este comprobante?",
  "{name} takes a whole number from 1, e.g. {name}=2; got {part}":
    "{name} lleva un número entero desde 1, por ejemplo {name}=2; se recibió {part}",
  "issued, but the service gave no readable voucher number for {ref}: `facturar query --ref {ref}` tells it later":
    "emitido, pero el servicio no dio un número de comprobante legible para {ref}: `facturar query --ref {ref}` lo dice más tarde",
  "issue the credit note of an issued voucher, built from what the service holds; once":
    "emite la nota de crédito de un comprobante emitido, armada con lo que guarda el servicio; una sola vez",
  "issue the debit note of an issued voucher, built from what the service holds; once":
    "emite la nota de débito de un comprobante emitido, armada con lo que guarda el servicio; una sola vez",
  "the reference of the issued voucher the note adjusts": "la referencia del comprobante emitido que la nota ajusta",
  "<total>": "<total>",
  "a partial note of this total, VAT included, split over the voucher's VAT rates as it had them":
    "una nota parcial por este total, IVA incluido, repartido entre las alícuotas del comprobante como él las tenía",
  "<list>": "<lista>",
  "a partial note of these items of the voucher, whole (1,3: the first and third)":
    "una nota parcial de estos ítems del comprobante, enteros (1,3: el primero y el tercero)",
  "issue one more note of the voucher (R-NC2…); without it a note issued before is not repeated":
    "emite una nota más del comprobante (R-NC2…); sin esto, una nota ya emitida no se repite",
  "FCE: the note annuls the invoice (opcional 22 = S); by default it does not (N)":
    "FCE: la nota anula la factura (opcional 22 = S); por omisión no la anula (N)",
  "the customer's VAT condition (RI, CF, M, E…); the service does not say it, so the class's usual one is assumed":
    "la condición frente al IVA del cliente (RI, CF, M, E…); el servicio no la informa, así que se supone la habitual de la clase",
  "cancel the whole voucher VENTA-0001 (its note is VENTA-0001-NC1)":
    "anula el comprobante VENTA-0001 entero (su nota es VENTA-0001-NC1)",
  "give back 1500.50 of it, VAT included": "devuelve 1500.50 de él, IVA incluido",
  "credit its first and third items": "acredita sus ítems primero y tercero",
  "a second credit note of the same voucher": "una segunda nota de crédito del mismo comprobante",
  "charge 350 more on the voucher VENTA-0001, VAT included":
    "cobra 350 más sobre el comprobante VENTA-0001, IVA incluido",
  "undo the credit note VENTA-0001-NC1": "deshace la nota de crédito VENTA-0001-NC1",
  "--amount and --items exclude each other: a note adjusts an amount, or some items":
    "--amount y --items se excluyen: una nota ajusta un importe, o algunos ítems",
  "--annul annuls the whole invoice: it takes no --amount or --items":
    "--annul anula la factura entera: no lleva --amount ni --items",
  "--annul is for the notes of an FCE invoice; {tipo} is not one":
    "--annul es para las notas de una factura FCE; {tipo} no lo es",
  "the service does not say the customer's VAT condition: {condition} assumed (--vat-condition says it)":
    "el servicio no informa la condición frente al IVA del cliente: se supone {condition} (--vat-condition la indica)",
  "this note of {ref} is issued already: not sent again; --new issues another":
    "esta nota de {ref} ya está emitida: no se envía de nuevo; --new emite otra",
  "{note}, the note of {ref} issued before, is for another amount or items: nothing sent; --new issues another note":
    "{note}, la nota de {ref} emitida antes, es por otro importe u otros ítems: no se envió nada; --new emite otra nota",
  "e-mailed to {addresses}": "enviado por e-mail a {addresses}",
  "e-mailed": "enviado por e-mail",
  "customer's page:": "página del cliente:",
  "download page:": "página de descarga:",
  "observed by the authority:": "observado por la autoridad:",
  "{tipo} {numero} has items 1 to {count}, not {items}": "{tipo} {numero} tiene los ítems 1 a {count}, no {items}",
  "{tipo} {numero} has a discount or perceptions over all its items: a note of some items cannot say its share":
    "{tipo} {numero} tiene un descuento o percepciones sobre todos sus ítems: una nota de algunos ítems no puede decir qué parte le toca",
  "give the amount to adjust instead (--amount)": "indicá en cambio el importe a ajustar (--amount)",
  "the amount must be positive, in cents at most, not {amount}":
    "el importe debe ser positivo, con centavos a lo sumo, no {amount}",
  "a credit note of {amount} is more than {tipo} {numero} was worth ({creditable}), before what its earlier notes credited":
    "una nota de crédito de {amount} supera lo que valía {tipo} {numero} ({creditable}), antes de lo que acreditaron sus notas anteriores",
  "the items of {tipo} cannot be read back": "no se pueden leer los ítems de {tipo}",
  "the note's total is {total}, not {amount}: with VAT rounded to the cent no net makes {amount} exactly":
    "el total de la nota es {total}, no {amount}: con el IVA redondeado al centavo ningún neto da {amount} exacto",
  "--due {due} is before --date {fecha}": "--due {due} es anterior a --date {fecha}",
  "regenerar_pdf was refused ({reason}): saving the links the voucher's query gives":
    "regenerar_pdf fue rechazado ({reason}): se guardan los enlaces que da la consulta del comprobante",
  "(not in the service's answer)": "(no está en la respuesta del servicio)",
  "{tipo} {number} was not e-mailed again": "{tipo} {number} no se reenvió por e-mail",
  "the payment of {tipo} {number} was not recorded": "el pago de {tipo} {number} no se registró",
  "the purchase {tipo} {number} was not deleted": "la compra {tipo} {number} no se eliminó",
  "no registry record for CUIT {cuit}": "el padrón no tiene datos del CUIT {cuit}",
  "it has no razon_social": "no tiene razon_social",
  "consumo failed": "falló consumo",
  "it has no {field}": "no tiene {field}",
  "no ledger for CUIT {cuit}": "no hay cuenta corriente del CUIT {cuit}",
  "productos/listar failed": "falló productos/listar",
  "productos/consultar failed": "falló productos/consultar",
  "the service returned no item for it": "el servicio no devolvió un ítem para él",
  "{method} failed": "falló {method}",
  "it holds no list of records (its fields: {fields})": "no trae ninguna lista de registros (sus campos: {fields})",
  "the shape of this method's answer is undocumented; `facturar --verbose table {name}` shows what came":
    "la forma de la respuesta de este método no está documentada; `facturar --verbose table {name}` muestra lo que llegó",
  "the service's list is empty": "la lista del servicio está vacía",
  "from the reference, not the service: the {n} entry the vendor's documentation shows, not the authority's whole list":
    "de la referencia, no del servicio: la {n} entrada que muestra la documentación del proveedor, no la lista completa de ARCA",
  "from the reference, not the service: the {n} entries the vendor's documentation shows, not the authority's whole list":
    "de la referencia, no del servicio: las {n} entradas que muestra la documentación del proveedor, no la lista completa de ARCA",
  "the service did not answer it: {problem}": "el servicio no la respondió: {problem}",
  "look a CUIT up in the authority's registry (clientes/afip-info): name, VAT condition, address":
    "consulta un CUIT en el padrón de ARCA (clientes/afip-info): nombre, condición frente al IVA, domicilio",
  "11 digits; dashes and dots are ignored": "11 dígitos; se ignoran guiones y puntos",
  "who is this customer?": "¿quién es este cliente?",
  "as JSON, for a script": "en JSON, para un script",
  "registered in neither VAT nor the monotributo": "no inscripto en el IVA ni en el monotributo",
  "VAT condition:": "condición frente al IVA:",
  "address:": "domicilio:",
  "status:": "estado:",
  "activity:": "actividad:",
  "a client's ledger (clientes/cuenta-corriente): the vouchers issued to it, its payments, the balance":
    "la cuenta corriente de un cliente (clientes/cuenta-corriente): los comprobantes que se le emitieron, sus pagos, el saldo",
  "the client's CUIT": "el CUIT del cliente",
  "what a client owes": "cuánto debe un cliente",
  concept: "concepto",
  debit: "debe",
  credit: "haber",
  "left to pay": "resta abonar",
  balance: "saldo",
  "balance: $ {amount}": "saldo: $ {amount}",
  "delete a recorded purchase (comprobante_eliminar); sales cannot be deleted":
    "elimina una compra registrada (comprobante_eliminar); las ventas no se pueden eliminar",
  'voucher type ("FACTURA A")': 'tipo de comprobante ("FACTURA A")',
  "the supplier's point of sale": "el punto de venta del proveedor",
  "the supplier's voucher number (N, or as printed: 00015-00000024)":
    "el número del comprobante del proveedor (N, o como figura impreso: 00015-00000024)",
  "a supplier's invoice entered by mistake": "una factura de proveedor cargada por error",
  "the same, its number as printed": "lo mismo, con el número como figura impreso",
  "purchase {tipo} {number} deleted": "compra {tipo} {number} eliminada",
  "registry: {name}, {condition}": "padrón: {name}, {condition}",
  "registry lookup failed: {message}": "falló la consulta al padrón: {message}",
  "record a payment of an issued sale in the client's ledger (pagar); the PDF does not change":
    "registra un pago de una venta emitida en la cuenta corriente del cliente (pagar); el PDF no cambia",
  "the amount paid, up to 2 decimals (at most what is left to pay)":
    "el importe pagado, con hasta 2 decimales (como mucho lo que resta abonar)",
  'how it was paid, as the platform names it (default "Efectivo")':
    'cómo se pagó, como lo llama la plataforma (por omisión "Efectivo")',
  "a payment in cash of an order's invoice": "un pago en efectivo de la factura de un pedido",
  "part of it by card": "una parte con tarjeta",
  "pay records payments of sales; {ref} is a purchase": "pay registra pagos de ventas; {ref} es una compra",
  "{tipo} {number}: payment of {amount} ({method}) recorded": "{tipo} {number}: pago de {amount} ({method}) registrado",
  "the products of the price lists (productos/listar), or some by code (productos/consultar)":
    "los productos de las listas de precios (productos/listar), o algunos por código (productos/consultar)",
  "only these codes (repeat it, at most 50)": "solo estos códigos (se repite, hasta 50)",
  "<price list>": "<lista de precios>",
  "the price list of --code (default: every list)": "la lista de precios de --code (por omisión: todas)",
  "<field>": "<campo>",
  "fecha_creacion, descripcion or codigo (default fecha_creacion)":
    "fecha_creacion, descripcion o codigo (por omisión fecha_creacion)",
  "newest (or last) first": "los más nuevos (o los últimos) primero",
  "every product the vouchers carried": "todos los productos que llevaron los comprobantes",
  "at most 50 --code in one call": "como mucho 50 --code en una llamada",
  "--list goes with --code": "--list va con --code",
  "no products yet: they are stored from the items of issued vouchers that have a codigo":
    "todavía no hay productos: se guardan de los ítems con codigo de los comprobantes emitidos",
  "not found:": "no encontrado:",
  "purchases (operacion C): --pv and numbers are the supplier's":
    "compras (operacion C): --pv y los números son los del proveedor",
  "a supplier's invoice recorded as a purchase": "una factura de proveedor registrada como compra",
  "e-mail an issued voucher to its client again (reenviar); only one e-mailed when it was issued":
    "reenvía por e-mail un comprobante emitido a su cliente (reenviar); solo uno que se envió por e-mail al emitirlo",
  "the voucher of an order, e-mailed again": "el comprobante de un pedido, reenviado por e-mail",
  "{tipo} {number} e-mailed to its client again": "{tipo} {number} reenviado por e-mail a su cliente",
  "to send it yourself, save its PDF with `{command}`": "para mandarlo vos, guardá su PDF con `{command}`",
  "vouchers: {used} issued of the {quota} in the subscription, {left} left":
    "comprobantes: {used} emitidos de los {quota} de la suscripción, quedan {left}",
  "vouchers: {used} issued of the {quota} in the subscription, {recurring} scheduled as recurring, {left} left":
    "comprobantes: {used} emitidos de los {quota} de la suscripción, {recurring} programados como abono, quedan {left}",
  "the service refused this account's micuenta/consumo: {errors}":
    "el servicio rechazó micuenta/consumo de esta cuenta: {errors}",
  "no voucher left in the subscription ({used} of {quota} issued)":
    "no queda ningún comprobante en la suscripción ({used} de {quota} emitidos)",
  "quota use not read: {problem}": "no se pudo leer el consumo: {problem}",
  "a reference table of the service (tablas_referencia/<name>): codes and what they mean":
    "una tabla de referencia del servicio (tablas_referencia/<nombre>): los códigos y lo que significan",
  "one of: {names}": "uno de: {names}",
  "the province codes a client block takes": "los códigos de provincia que lleva el bloque cliente",
  "the payment conditions, as JSON": "las condiciones de venta, en JSON",
  "the incoterms an export voucher's fex block takes (the service's list, else the reference's entries)":
    "los incoterms que lleva el bloque fex de un comprobante de exportación (la lista del servicio, si no las entradas de la referencia)",
  "unknown table {name}": "tabla desconocida {name}",
  "did you mean {name}?": "¿quisiste decir {name}?",
  "{command} takes --ref R, or --type T --number N, not both":
    "{command} lleva --ref R, o --type T --number N, no ambos",
  "the voucher {ref} is not issued yet ({status})": "el comprobante {ref} todavía no está emitido ({status})",
  "the answer to pagar was lost ({message}): the payment may be recorded":
    "se perdió la respuesta a pagar ({message}): el pago puede haberse registrado",
  "look at the client's ledger (facturar customer-ledger --cuit C) before paying again":
    "mirá la cuenta corriente del cliente (facturar customer-ledger --cuit C) antes de pagar otra vez",
  // commands/query.ts: date ranges and filters
  "<from>": "<desde>",
  "<to>": "<hasta>",
  "<state>": "<estado>",
  "with --date or a date range: only issued, queued or queue-error (error) vouchers; repeatable or a comma list":
    "con --date o un rango de fechas: solo los comprobantes issued (emitidos), queued (encolados) o queue-error (error en la cola); repetible o una lista separada por comas",
  "a CSV header, then one row per voucher (instead of the table)":
    "un encabezado CSV y una fila por comprobante (en vez de la tabla)",
  "a month's issued invoices B and credit notes B, as CSV":
    "las facturas B y notas de crédito B emitidas en un mes, en CSV",
  "a date range needs --from D and --to D": "un rango de fechas necesita --from F y --to F",
  "--from {from} is after --to {to}": "--from {from} es posterior a --to {to}",
  "the range covers {days} days; one run reads at most {max} (each day costs a request)":
    "el rango abarca {days} días; una ejecución lee como máximo {max} (cada día cuesta una consulta)",
  "split it, e.g. one run a month": "dividilo, por ejemplo una ejecución por mes",
  "--from and --to take two dates (a date range) or two numbers with --type (a number range), not one of each":
    "--from y --to aceptan dos fechas (un rango de fechas) o dos números con --type (un rango de números), no uno de cada uno",
  "a date range (--from D --to D) does not go with --ref, --date or --number":
    "un rango de fechas (--from F --to F) no va con --ref, --date ni --number",
  "--status goes with --date or --from D --to D": "--status va con --date o con --from F --to F",
  "--date does not go with --number, --from or --to": "--date no va con --number, --from ni --to",
  "--number and a number range take one --type": "--number y un rango de números llevan un solo --type",
  "--csv and --json: choose one": "--csv y --json: elegí uno",
  "reading {days} days, one request or more each…": "leyendo {days} días, una consulta o más por día…",
  // commands/vat-book.ts
  "the VAT book (libro IVA ventas, or compras) of a date range, with its totals":
    "el libro IVA ventas (o compras) de un rango de fechas, con sus totales",
  "first day": "primer día",
  "last day, included (at most 366 days; one request or more a day)":
    "último día, incluido (como máximo 366 días; una consulta o más por día)",
  'the purchases book (libro IVA compras: operacion "C") instead of sales':
    'el libro IVA compras (operacion "C") en vez del de ventas',
  "a CSV header, one row per voucher and a TOTAL row (instead of the table)":
    "un encabezado CSV, una fila por comprobante y una fila TOTAL (en vez de la tabla)",
  "with --csv: decimal mark, comma or point; in Spanish comma by default, with ; between fields and a byte order mark for spreadsheets; point writes plain CSV":
    "con --csv: separador decimal, coma o punto; en castellano, coma por defecto, con ; entre campos y marca de orden de bytes (BOM) para las planillas; punto escribe CSV simple",
  "with --csv: the delimiter, , or ; (default ; with a decimal comma)":
    "con --csv: el separador de campos, , o ; (por defecto ; con coma decimal)",
  "--delimiter goes with --csv": "--delimiter va con --csv",
  "Only issued vouchers count (not queued nor failed ones). Amounts are in pesos: a voucher in another currency is converted at its own cotizacion, each rate's net and every other part to the cent, its VAT computed on the converted net and its total the sum of the parts (diferencia_conversion shows the cents by which that differs from its total converted whole). Credit notes are negative. Net and VAT per rate come from the voucher's items, its discount shared among the rates; the table shows the rates that appear, CSV and JSON all of the authority's (21, 10.5, 27, 5, 2.5, 0). Vouchers of classes C and E carry no VAT: their net is at 0 %. Lines go by date, then type, point of sale and number. --json writes one document: the lines and the totals.":
    "Cuentan solo los comprobantes emitidos (no los encolados ni los fallidos). Los importes están en pesos: un comprobante en otra moneda se convierte a su propia cotización, el neto de cada alícuota y cada otro importe al centavo, su IVA calculado sobre el neto convertido y su total como la suma de las partes (diferencia_conversion muestra los centavos en que eso difiere de su total convertido entero). Las notas de crédito son negativas. El neto y el IVA por alícuota salen de los ítems del comprobante, con su bonificación repartida entre las alícuotas; la tabla muestra las alícuotas que aparecen, CSV y JSON todas las de la autoridad (21, 10,5, 27, 5, 2,5, 0). Los comprobantes de clase C y E no llevan IVA: su neto va al 0 %. Las líneas van por fecha, luego tipo, punto de venta y número. --json escribe un documento: las líneas y los totales.",
  "November's sales book": "el libro IVA ventas de noviembre",
  "for a spreadsheet in Spanish: ; between fields and a decimal comma":
    "para una planilla en castellano: ; entre campos y coma decimal",
  "the purchases book, as JSON": "el libro IVA compras, en JSON",
  "--decimal goes with --csv": "--decimal va con --csv",
  "{tipo} {number}: its columns add up to {difference} less than its total ({moneda})":
    "{tipo} {number}: sus columnas suman {difference} menos que su total ({moneda})",
  "{count}, {from} to {to}; amounts in pesos (another currency's voucher at its own cotizacion, each part converted and the total their sum), credit notes negative":
    "{count}, del {from} al {to}; importes en pesos (un comprobante en otra moneda, a su propia cotización: cada parte convertida y el total, su suma), notas de crédito en negativo",
  exempt: "exento",
  "non-taxed": "no gravado",
  "perc. national": "perc. nacionales",
  "perc. IIBB": "perc. IIBB",
  "perc. IVA": "perc. IVA",
  "perc. not categorised": "perc. no categorizados",
  "perc. municipal": "perc. municipales",
  "in its currency": "en su moneda",
  "conversion diff.": "dif. de conversión",
  unexplained: "sin explicar",
  "other tributos": "otros tributos",
  "internal taxes": "imp. internos",
  document: "documento",
  name: "nombre",
  "net {rate}%": "neto {rate} %",
  "VAT {rate}%": "IVA {rate} %",
  TOTAL: "TOTAL",
  "{n} voucher queued or failed in the queue left out": "{n} comprobante encolado o fallido en la cola quedó afuera",
  "{n} vouchers queued or failed in the queue left out":
    "{n} comprobantes encolados o fallidos en la cola quedaron afuera",
  "the service moved to {url}": "el servicio pasó a {url}",
  "the sandbox's host (process {pid}) has ended: this process serves the sandbox now":
    "el proceso que alojaba el sandbox ({pid}) terminó: ahora lo sirve este proceso",
  "must not contain Unicode direction controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)":
    "no debe contener controles de dirección de Unicode (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)",
  "the file looks like UTF-16 without a byte order mark": "el archivo parece UTF-16 sin marca de orden de bytes (BOM)",
  'save it as UTF-8, or as UTF-16 with a byte order mark (what spreadsheets call "Unicode text")':
    'guardalo como UTF-8, o como UTF-16 con marca de orden de bytes (el "texto Unicode" de una planilla)',
  "more than {mb} MB of JSON: too large to read as one JSON document":
    "más de {mb} MB de JSON: demasiado grande para leerlo como un solo documento JSON",
  "cannot be written to a temporary file in {dir} ({code})":
    "no se puede escribir en un archivo temporal en {dir} ({code})",
  "free some space there, or point TMPDIR at a folder with room":
    "liberá espacio allí, o apuntá TMPDIR a una carpeta con lugar",
  "the answer to comprobante_eliminar was lost ({message}): the purchase may be deleted":
    "se perdió la respuesta a comprobante_eliminar ({message}): la compra puede haberse eliminado",
  "check with: facturar query --purchases --type {tipo} --number {number}":
    "verificalo con: facturar query --purchases --type {tipo} --number {number}",
  "the answer to reenviar was lost ({message}): {tipo} {number} may have been e-mailed":
    "se perdió la respuesta a reenviar ({message}): {tipo} {number} puede haberse enviado por e-mail",
  "ask the client before sending it again": "consultá al cliente antes de enviarlo otra vez",
  "in no price list": "en ninguna lista de precios",
  "one product's price, in every price list": "el precio de un producto, en todas las listas de precios",
  "in one price list": "en una lista de precios",
  "pay records payments of invoices and debit notes; {tipo} is a credit note":
    "pay registra pagos de facturas y notas de débito; {tipo} es una nota de crédito",
  "last issued: {value}": "último emitido: {value}",
  "none issued yet at this point of sale": "ninguno emitido aún en este punto de venta",
  "refusing to use {path}: another user owns it or others can write it":
    "no se usa {path}: es de otro usuario u otros pueden escribirlo",
  "a config file must be yours (or root's) and writable by no one else: chmod go-w it":
    "un archivo de configuración tiene que ser tuyo (o de root) y nadie más debe poder escribirlo: chmod go-w",
  "--report {path} is the input {input}: writing it would destroy it":
    "--report {path} es la entrada {input}: escribirlo la destruiría",
  "give --report another file": "indicá otro archivo para --report",
  "--qr {path} would overwrite the input {input}": "--qr {path} sobrescribiría la entrada {input}",
  "give --qr another name": "indicá otro nombre para --qr",
  "{flag} {path}: {why}": "{flag} {path}: {why}",
  "it is not a folder": "no es una carpeta",
  "{path} is not a folder": "{path} no es una carpeta",
  "it cannot be written ({code})": "no se puede escribir ({code})",
  "it cannot be created: {path} cannot be written ({code})": "no se puede crear: {path} no se puede escribir ({code})",
  "a read-only file system": "un sistema de archivos de solo lectura",
  "permission denied": "permiso denegado",
  "a file is where a folder should be": "hay un archivo donde debería haber una carpeta",
  "a folder is where a file should be": "hay una carpeta donde debería haber un archivo",
  "no space left on the device": "no queda espacio en el dispositivo",
  "the disk quota is used up": "la cuota de disco está agotada",
  "the file cannot grow (ulimit -f?)": "el archivo no puede crecer (¿ulimit -f?)",
  "a folder on the way does not exist": "una carpeta del camino no existe",
  "the ceiling is not kept for the day: {path} cannot be written ({cause})":
    "el tope no se guarda por el día: no se puede escribir {path} ({cause})",
  "fix the folder (its permissions, free space), or point XDG_DATA_HOME elsewhere":
    "arreglá la carpeta (sus permisos, el espacio libre), o apuntá XDG_DATA_HOME a otro lugar",
  "standard error cannot be written ({code})": "no se puede escribir la salida de error estándar ({code})",
  "the embedded sandbox stopped: {message}; it answers 503 until it is started again":
    "el sandbox integrado se detuvo: {message}; responde 503 hasta que se lo inicie de nuevo",
  "{credited} credited already to {tipo} {numero} by {n} credit note: one of {amount} more would credit more than its {total} (its debit notes included); {left} left to credit":
    "{tipo} {numero} ya tiene {credited} acreditados por {n} nota de crédito: una más de {amount} acreditaría más que su {total} (con sus notas de débito); quedan {left} por acreditar",
  "{credited} credited already to {tipo} {numero} by {n} credit notes: one of {amount} more would credit more than its {total} (its debit notes included); {left} left to credit":
    "{tipo} {numero} ya tiene {credited} acreditados por {n} notas de crédito: una más de {amount} acreditaría más que su {total} (con sus notas de débito); quedan {left} por acreditar",
  "a note of what is left: --amount {left}": "una nota por lo que queda: --amount {left}",
  "{ref} was sent by an earlier run that did not see it settled: settled now, not another note":
    "{ref} lo envió una ejecución anterior que no vio cómo terminó: se resuelve ahora, sin emitir otra nota",
  "a class {class} voucher goes to a customer whose VAT condition is {allowed}, not {condition}":
    "un comprobante clase {class} va a un cliente con condición de IVA {allowed}, no {condition}",
  "a credit note of {amount} is more than {tipo} {numero} can credit: {creditable} of items and VAT; the other {other} of its total {total} are perceptions or internal taxes, which a note of an amount does not adjust":
    "una nota de crédito de {amount} es más de lo que {tipo} {numero} puede acreditar: {creditable} de ítems e IVA; los otros {other} de su total {total} son percepciones o impuestos internos, que una nota por un importe no ajusta",
  "a whole note (no --amount) adjusts its perceptions too; or issue the note from a JSON file":
    "una nota por el total (sin --amount) ajusta también sus percepciones; o emití la nota desde un archivo JSON",
  "{amount} is too small to make a note line at the voucher's VAT rates":
    "{amount} es demasiado poco para hacer una línea de nota con las alícuotas del comprobante",
  "{tipo} {numero} has no e-mail address at the service: its note cannot be e-mailed":
    "{tipo} {numero} no tiene dirección de e-mail en el servicio: su nota no se puede enviar por e-mail",
  "e-mail the note to the addresses of the voucher (the service does not say whether the voucher was e-mailed)":
    "enviar la nota por e-mail a las direcciones del comprobante (el servicio no dice si el comprobante se envió por e-mail)",
  "not sent: the journal cannot be written": "no enviado: no se puede escribir el diario",
  "{n} outcomes are not in the journal; the next run asks the service about them":
    "{n} resultados no quedaron en el diario; la próxima corrida se los pregunta al servicio",
  "{n} items for {count} vouchers sent": "{n} ítems para {count} comprobantes enviados",
  "item {n} is not an answer": "el ítem {n} no es una respuesta",
  "item {n} names no voucher": "el ítem {n} no nombra ningún comprobante",
  "item {n} names {ref}, which was not sent": "el ítem {n} nombra {ref}, que no se envió",
  "two items name {ref}": "dos ítems nombran {ref}",
  "{n} issued vouchers read as {reference} ({list}): the service gives a reference of digits back as a number, so which one the note adjusts cannot be told":
    "{n} comprobantes emitidos se leen como {reference} ({list}): el servicio devuelve una referencia de dígitos como número, así que no se puede saber cuál ajusta la nota",
  "write the note in a file that names the voucher in comprobantes_asociados (`facturar template` shows the shape), then `facturar issue` it":
    "escribí la nota en un archivo que nombre el comprobante en comprobantes_asociados (`facturar template` muestra la forma) y emitila con `facturar issue`",
  "the answer names {ref}, not the voucher sent ({sent})":
    "la respuesta nombra {ref}, no el comprobante enviado ({sent})",
  "no item names the vouchers sent ({errors})": "ningún ítem nombra los comprobantes enviados ({errors})",
  "the tax authority's service is down: {message}": "el servicio de la autoridad fiscal no está disponible: {message}",
  "nothing more was sent; run again later, or queue the vouchers meanwhile with `facturar issue-queued` (the service issues them once the authority is back)":
    "no se envió nada más; ejecutá de nuevo más tarde, o mientras tanto encolá los comprobantes con `facturar issue-queued` (el servicio los emite cuando la autoridad vuelva)",
  "QR not written: {message}": "QR no escrito: {message}",
  "not followed:": "sin seguimiento:",
  "the vouchers are queued, but the service could not be asked how they ended: {message}":
    "los comprobantes están encolados, pero no se pudo preguntar al servicio cómo terminaron: {message}",
  "`{command}` follows them later (nothing is queued twice)":
    "`{command}` los sigue más tarde (nada se encola dos veces)",
  // voucher/rules.ts: a note's old voucher, the small-taxpayer legend, the special customs territory
  "{tipo_comprobante} {numero} is dated {comprobante_fecha}, {days} days before this note ({fecha}): the authority refuses notes to vouchers older than about {max} days":
    "{tipo_comprobante} {numero} es del {comprobante_fecha}, {days} días antes de esta nota ({fecha}): la autoridad rechaza las notas a comprobantes de más de unos {max} días",
  "an export to the special customs territory (pais_comprobante_id {country}) names the customer by its CUIT: documento_tipo CUIT, not {document}":
    "una exportación al área aduanera especial (pais_comprobante_id {country}) identifica al cliente por su CUIT: documento_tipo CUIT, no {document}",
  "a customer in the special customs territory (pais_comprobante_id {country}) is no customer abroad: send its real VAT condition (RI, M, E…), not CDEX":
    "un cliente del área aduanera especial (pais_comprobante_id {country}) no es un cliente del exterior: mandá su condición de IVA real (RI, M, E…), no CDEX",
  "an export to the special customs territory (pais_comprobante_id {country}) carries the customer's CUIT in fex.cliente_pais_cuit too: {cuit}":
    "una exportación al área aduanera especial (pais_comprobante_id {country}) lleva la CUIT del cliente también en fex.cliente_pais_cuit: {cuit}",
  "fex.cliente_pais_cuit {value} is not the customer's CUIT {cuit}: an export to the special customs territory (pais_comprobante_id {country}) names the customer in both":
    "fex.cliente_pais_cuit {value} no es la CUIT del cliente {cuit}: una exportación al área aduanera especial (pais_comprobante_id {country}) nombra al cliente en los dos",
  "leyenda_gral holds the small-taxpayer legend (Ley 27.618), which the service prints on a class {class} voucher to a monotributo customer; remove it: the service adds it":
    "leyenda_gral tiene la leyenda de pequeños contribuyentes (Ley 27.618), que el servicio imprime en un comprobante clase {class} a un cliente monotributista; sacala: el servicio la agrega",
};
