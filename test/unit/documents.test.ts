/** Where voucher documents may be downloaded from: the policy of src/api/documents.ts. */
import { describe, expect, it } from "vitest";
import {
  addressAllowed,
  classifyAddress,
  DocumentLinkError,
  documentUrl,
  isPdf,
  MAX_DOCUMENT_BYTES,
} from "../../src/api/documents.js";

const PUBLIC_BASE = new URL("https://api.example.com/app/api/v2/");
const LAN_BASE = new URL("https://10.1.2.3/app/api/v2/");
const LAN_NAME_BASE = new URL("https://facturas.lan/app/api/v2/");
const SANDBOX_BASE = new URL("http://127.0.0.1:4567/app/api/v2/");

describe("documentUrl", () => {
  const accepted: [string, string, URL?][] = [
    ["https on a public name", "https://files.example.net/comprobantes/1.pdf"],
    ["https on a public IPv4 address", "https://8.8.8.8/1.pdf"],
    ["https on a public IPv6 address", "https://[2606:4700::1111]/1.pdf"],
    ["https on the edge of 172.16/12", "https://172.32.0.1/1.pdf"],
    ["http on 127.0.0.1", "http://127.0.0.1:8080/1.pdf", SANDBOX_BASE],
    ["http elsewhere in 127/8", "http://127.9.8.7/1.pdf", SANDBOX_BASE],
    ["http on localhost", "http://localhost:8080/1.pdf", SANDBOX_BASE],
    ["http on [::1]", "http://[::1]:8080/1.pdf", SANDBOX_BASE],
    ["http on loopback written as IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/1.pdf", SANDBOX_BASE],
    ["https on loopback", "https://127.0.0.1/1.pdf", SANDBOX_BASE],
    ["http on 2130706433 (127.0.0.1)", "http://2130706433/1.pdf", SANDBOX_BASE],
    ["http on 0x7f.1 (127.0.0.1)", "http://0x7f.1/1.pdf", SANDBOX_BASE],
    ["the sandbox's own links", "http://127.0.0.1:4567/documentos/abc.pdf", SANDBOX_BASE],
    ["base_url's LAN address", "https://10.1.2.3/documentos/abc.pdf", LAN_BASE],
    ["base_url's name", "https://facturas.lan/documentos/abc.pdf", LAN_NAME_BASE],
  ];
  it.each(accepted)("accepts %s", (_, link, base = PUBLIC_BASE) => {
    expect(documentUrl(base, link).href).toBe(new URL(link).href);
  });

  const refused: [string, string, RegExp, URL?][] = [
    ["http on a public name", "http://files.example.net/1.pdf", /plain-http .* files\.example\.net: http is accepted/],
    ["http on a public address", "http://8.8.8.8/1.pdf", /plain-http .* 8\.8\.8\.8/],
    ["http on a name that only starts like localhost", "http://localhost.example.net/1.pdf", /plain-http/],
    ["https on 10.0.0.1", "https://10.0.0.1/1.pdf", /10\.0\.0\.1: a private network address/],
    ["https on 192.168.1.1", "https://192.168.1.1/1.pdf", /private network/],
    ["https on 172.16.0.1", "https://172.16.0.1/1.pdf", /private network/],
    ["https on 172.31.255.255", "https://172.31.255.255/1.pdf", /private network/],
    ["https on 100.64.0.1 (carrier-grade NAT)", "https://100.64.0.1/1.pdf", /private network/],
    ["https on [fd00::1]", "https://[fd00::1]/1.pdf", /private network/],
    ["the cloud metadata address", "https://169.254.169.254/latest/meta-data/", /169\.254\.169\.254: a link-local/],
    ["https on [fe80::1]", "https://[fe80::1]/1.pdf", /\[fe80::1\]: a link-local/],
    ["https on [::ffff:10.0.0.1]", "https://[::ffff:10.0.0.1]/1.pdf", /private network/],
    ["the metadata address, IPv4-mapped", "https://[::ffff:169.254.169.254]/", /link-local/],
    ["https on 0.0.0.0", "https://0.0.0.0/1.pdf", /unspecified/],
    ["http on 0.0.0.0", "http://0.0.0.0/1.pdf", /unspecified/],
    ["https on [::]", "https://[::]/1.pdf", /unspecified/],
    ["https on 0x0a000001 (10.0.0.1)", "https://0x0a000001/1.pdf", /10\.0\.0\.1: a private network/],
    ["https on 012.0.0.1 (octal 10.0.0.1)", "https://012.0.0.1/1.pdf", /10\.0\.0\.1: a private network/],
    ["https on 224.0.0.1", "https://224.0.0.1/1.pdf", /multicast/],
    ["https on [ff02::1]", "https://[ff02::1]/1.pdf", /multicast/],
    ["https on the broadcast address", "https://255.255.255.255/1.pdf", /reserved/],
    ["https on a documentation address", "https://192.0.2.1/1.pdf", /reserved/],
    ["a file: link", "file:///etc/passwd", /refusing a file: document link/],
    ["an ftp: link", "ftp://files.example.net/1.pdf", /refusing a ftp: document link/],
    ["a javascript: link", "javascript:alert(1)", /refusing a javascript: document link/],
    ["a data: link", "data:application/pdf;base64,JVBERi0=", /refusing a data: document link/],
    ["a user name and password", "https://user:s3cret@files.example.net/1.pdf", /user name or password/],
    ["a user name alone", "https://user@files.example.net/1.pdf", /user name or password/],
    ["a user name on loopback", "http://user@127.0.0.1/1.pdf", /user name or password/],
    ["something that is not a URL", "comprobante.pdf", /not a URL: "comprobante\.pdf"/],
    ["http on base_url's host when base_url is https", "http://10.1.2.3/1.pdf", /private network/, LAN_BASE],
    ["another LAN address than base_url's", "https://10.1.2.4/1.pdf", /private network/, LAN_BASE],
    // base_url's host is trusted on base_url's port: another port there may be another service.
    ["base_url's LAN address on another port", "https://10.1.2.3:8443/documentos/abc.pdf", /private network/, LAN_BASE],
    // Loopback links are for a service on loopback: from elsewhere, a request to this machine's own services.
    [
      "http on 127.0.0.1 from a public service",
      "http://127.0.0.1:8080/1.pdf",
      /127\.0\.0\.1: loopback, and the service is not on this machine/,
    ],
    ["https on loopback from a public service", "https://127.0.0.1/1.pdf", /loopback, and the service/],
    ["localhost from a public service", "http://localhost:8080/1.pdf", /localhost: loopback/],
    ["[::1] from a public service", "http://[::1]:8080/1.pdf", /loopback, and the service/],
    ["2130706433 (127.0.0.1) from a public service", "http://2130706433/1.pdf", /127\.0\.0\.1: loopback/],
    [
      "loopback as IPv4-mapped IPv6 from a LAN service",
      "http://[::ffff:127.0.0.1]/1.pdf",
      /loopback, and the service/,
      LAN_BASE,
    ],
    ["loopback from a service named on the LAN", "http://127.0.0.1/1.pdf", /loopback, and the service/, LAN_NAME_BASE],
  ];
  it.each(refused)("refuses %s", (_, link, reason, base = PUBLIC_BASE) => {
    expect(() => documentUrl(base, link)).toThrow(DocumentLinkError);
    expect(() => documentUrl(base, link)).toThrow(reason);
  });

  it("does not print a password it refuses", () => {
    expect(() => documentUrl(PUBLIC_BASE, "https://user:s3cret@files.example.net/1.pdf")).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("s3cret") }),
    );
  });
});

describe("addressAllowed, at connect time", () => {
  const link = (text: string, base = PUBLIC_BASE) => documentUrl(base, text);

  it("lets a public name reach public addresses only (DNS cannot move it onto a private network)", () => {
    const url = link("https://files.example.net/1.pdf");
    expect(addressAllowed(PUBLIC_BASE, url, "93.184.216.34")).toBe(true);
    expect(addressAllowed(PUBLIC_BASE, url, "2606:4700::1111")).toBe(true);
    for (const ip of ["10.0.0.1", "127.0.0.1", "::1", "169.254.169.254", "::ffff:10.0.0.1", "fe80::1", "0.0.0.0", "::"])
      expect(addressAllowed(PUBLIC_BASE, url, ip), ip).toBe(false);
  });

  it("lets localhost reach loopback only, and only for a service on loopback", () => {
    const url = link("http://localhost:8080/1.pdf", SANDBOX_BASE);
    expect(addressAllowed(SANDBOX_BASE, url, "127.0.0.1")).toBe(true);
    expect(addressAllowed(SANDBOX_BASE, url, "::1")).toBe(true);
    expect(addressAllowed(SANDBOX_BASE, url, "10.0.0.1")).toBe(false);
    expect(addressAllowed(SANDBOX_BASE, url, "93.184.216.34")).toBe(false);
    expect(addressAllowed(PUBLIC_BASE, url, "127.0.0.1")).toBe(false);
  });

  it("lets base_url's host go wherever it resolves, on base_url's port only", () => {
    expect(addressAllowed(LAN_NAME_BASE, link("https://facturas.lan/1.pdf", LAN_NAME_BASE), "192.168.0.10")).toBe(true);
    expect(addressAllowed(LAN_BASE, link("https://10.1.2.3/1.pdf", LAN_BASE), "10.1.2.3")).toBe(true);
    // Another port of that name is judged as any name: a service's DNS could point it at this machine.
    const otherPort = link("https://facturas.lan:22/x.pdf", LAN_NAME_BASE);
    for (const ip of ["127.0.0.1", "192.168.0.10"])
      expect(addressAllowed(LAN_NAME_BASE, otherPort, ip), ip).toBe(false);
  });

  it("refuses any address for plain http off loopback", () => {
    expect(addressAllowed(PUBLIC_BASE, new URL("http://files.example.net/"), "93.184.216.34")).toBe(false);
  });
});

describe("classifyAddress", () => {
  const table: [string, ReturnType<typeof classifyAddress>][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["8.8.8.8", "public"],
    ["2001:4860:4860::8888", "public"],
    ["64:ff9b::808:808", "public"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["192.168.0.1", "private"],
    ["100.127.255.255", "private"],
    ["::ffff:a00:1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a00:1", "private"],
    ["2002:a00:1::1", "private"],
    ["fc00::1", "private"],
    ["fdff:ffff::1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["::1.2.3.4", "reserved"],
    ["100::1", "reserved"],
    ["not an address", "reserved"],
    ["1.2.3", "reserved"],
    ["2130706433", "reserved"],
  ];
  it.each(table)("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });
});

describe("isPdf", () => {
  it("wants a body that starts with %PDF-", () => {
    expect(isPdf(Buffer.from("%PDF-1.7\n%âãÏÓ\n"))).toBe(true);
    expect(isPdf(Buffer.from("<!doctype html><title>Expired</title>"))).toBe(false);
    expect(isPdf(Buffer.from(" %PDF-1.7"))).toBe(false);
    expect(isPdf(Buffer.from("%PDF"))).toBe(false);
    expect(isPdf(Buffer.alloc(0))).toBe(false);
  });

  it("reads a view of a larger buffer from its own start", () => {
    expect(isPdf(Buffer.from("xx%PDF-1.4").subarray(2))).toBe(true);
    expect(isPdf(Buffer.from("%PDF-1.4xx").subarray(2))).toBe(false);
    expect(isPdf(new TextEncoder().encode("%PDF-2.0"))).toBe(true);
  });

  it("caps a document at 20 MB", () => {
    expect(MAX_DOCUMENT_BYTES).toBe(20 * 1024 * 1024);
  });
});
