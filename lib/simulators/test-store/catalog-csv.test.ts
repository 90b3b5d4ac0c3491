// Catalog CSV import/export (docs/api.md "Overview" item 6: catalog products and packages in AED).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCatalogCsv, toCatalogCsv } from "./catalog-csv";
import { SEED_CATALOG } from "./catalog-seed";
import type { CatalogItem } from "./matching";

describe("parseCatalogCsv", () => {
  it("parses items with prices in fils", () => {
    const { items, errors } = parseCatalogCsv(
      ["sku,name,kind,price", "A-1,Cable,PRODUCT,19.95", "B-2,Bundle,package,1299", "C-3,Gift card,PRODUCT,12.5"].join("\n"),
    );
    expect(errors).toEqual([]);
    expect(items).toEqual([
      { sku: "A-1", name: "Cable", kind: "PRODUCT", priceMinor: 1995n },
      { sku: "B-2", name: "Bundle", kind: "PACKAGE", priceMinor: 129900n },
      { sku: "C-3", name: "Gift card", kind: "PRODUCT", priceMinor: 1250n },
    ]);
  });

  it("supports quoted fields with commas, doubled quotes and line breaks", () => {
    const text = [
      "sku,name,kind,price",
      'Q-1,"Charger, 65 W ""GaN""",PRODUCT,"149.00"',
      'Q-2,"Two-line',
      'name",PRODUCT,10.00',
      'Q-3,  "Spaced quote"  ,PRODUCT,1.00',
    ].join("\r\n");
    const { items, errors } = parseCatalogCsv(text);
    expect(errors).toEqual([]);
    expect(items.map((i) => i.name)).toEqual(['Charger, 65 W "GaN"', "Two-line\r\nname", "Spaced quote"]);
    expect(items.map((i) => i.priceMinor)).toEqual([14900n, 1000n, 100n]);
  });

  it("ignores blank lines, a byte order mark and CRLF line endings", () => {
    const { items, errors } = parseCatalogCsv("\uFEFFSKU, Name ,KIND,price\r\n\r\nA,Mug,PRODUCT,29.00\r\n   \r\n\r\nB,Pen,PRODUCT,5.25\r\n");
    expect(errors).toEqual([]);
    expect(items.map((i) => i.sku)).toEqual(["A", "B"]);
  });

  it("reports a duplicate sku on its line and keeps the first", () => {
    const { items, errors } = parseCatalogCsv("sku,name,kind,price\nA,First,PRODUCT,1.00\n\nA,Second,PRODUCT,2.00\nB,Other,PRODUCT,3.00\n");
    expect(items.map((i) => [i.sku, i.name])).toEqual([
      ["A", "First"],
      ["B", "Other"],
    ]);
    expect(errors).toEqual([{ line: 4, message: "duplicate sku A" }]);
  });

  it.each([["12.345"], ["-1.00"], ["abc"], ["0"], ["0.00"], ["1,299.00"], [""], ["1e3"], [".50"], ["12."], ["AED 12.00"], ["12345678901.00"]])(
    "rejects the price %j",
    (price) => {
      const { items, errors } = parseCatalogCsv(`sku,name,kind,price\nA,Item,PRODUCT,"${price}"\n`);
      expect(items).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.line).toBe(2);
      expect(errors[0]!.message).toMatch(/price/);
    },
  );

  it("accepts the largest price of the amount pattern", () => {
    const { items } = parseCatalogCsv("sku,name,kind,price\nA,Item,PRODUCT,9999999999.99\n");
    expect(items[0]!.priceMinor).toBe(999_999_999_999n);
  });

  it("reports bad records with their line and keeps the good ones", () => {
    const text = [
      "sku,name,kind,price",
      "A,Good,PRODUCT,1.00",
      "B,Too,many,fields,1.00",
      "C,Bad kind,SERVICE,1.00",
      ",No sku,PRODUCT,1.00",
      "D,,PRODUCT,1.00",
      "bad sku!,Name,PRODUCT,1.00",
      "E,Short",
      "F,Good too,PACKAGE,2.00",
    ].join("\n");
    const { items, errors } = parseCatalogCsv(text);
    expect(items.map((i) => i.sku)).toEqual(["A", "F"]);
    expect(errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(errors[0]!.message).toMatch(/4 fields/);
    expect(errors[1]!.message).toMatch(/kind/);
    expect(errors[2]!.message).toMatch(/sku/);
    expect(errors[3]!.message).toMatch(/name/);
    expect(errors[4]!.message).toMatch(/sku/);
  });

  it("rejects a wrong or missing header", () => {
    expect(parseCatalogCsv("")).toEqual({ items: [], errors: [{ line: 1, message: "missing header sku,name,kind,price" }] });
    expect(parseCatalogCsv("sku,name,price,kind\nA,B,1.00,PRODUCT\n").errors).toEqual([{ line: 1, message: "header must be sku,name,kind,price" }]);
    expect(parseCatalogCsv("\n\nid,name,kind,price\n").errors[0]!.line).toBe(3);
  });

  it("reports an unterminated quoted field", () => {
    const { items, errors } = parseCatalogCsv('sku,name,kind,price\nA,Fine,PRODUCT,1.00\nB,"Broken,PRODUCT,1.00\nC,Lost,PRODUCT,1.00\n');
    expect(items.map((i) => i.sku)).toEqual(["A"]);
    expect(errors).toEqual([{ line: 3, message: "unterminated quoted field" }]);
  });
});

describe("toCatalogCsv", () => {
  it("writes AED with two decimals and quotes where needed", () => {
    const csv = toCatalogCsv([
      { sku: "A", name: 'Charger, 65 W "GaN"', kind: "PRODUCT", priceMinor: 14900n },
      { sku: "B", name: "Lip balm", kind: "PRODUCT", priceMinor: 450n },
      { sku: "C", name: "Coin", kind: "PACKAGE", priceMinor: 7n },
    ]);
    expect(csv).toBe('sku,name,kind,price\nA,"Charger, 65 W ""GaN""",PRODUCT,149.00\nB,Lip balm,PRODUCT,4.50\nC,Coin,PACKAGE,0.07\n');
  });

  it("refuses a non-positive price", () => {
    expect(() => toCatalogCsv([{ sku: "A", name: "x", kind: "PRODUCT", priceMinor: 0n }])).toThrow(RangeError);
  });

  it("round-trips the seed catalog", () => {
    const { items, errors } = parseCatalogCsv(toCatalogCsv(SEED_CATALOG));
    expect(errors).toEqual([]);
    expect(items).toEqual(SEED_CATALOG);
  });

  it("round-trips any valid items (property)", () => {
    const itemArb = fc.record({
      sku: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
      name: fc
        .string({ minLength: 1, maxLength: 200, unit: fc.constantFrom("a", "Z", " ", ",", '"', "\n", "\r\n", "é", "ع", "'", "9") })
        .map((n) => n.trim())
        .filter((n) => n.length > 0 && n.length <= 200),
      kind: fc.constantFrom("PRODUCT" as const, "PACKAGE" as const),
      priceMinor: fc.bigInt({ min: 1n, max: 999_999_999_999n }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(itemArb, { selector: (i) => i.sku, maxLength: 20 }), (items: CatalogItem[]) => {
        const { items: parsed, errors } = parseCatalogCsv(toCatalogCsv(items));
        expect(errors).toEqual([]);
        expect(parsed).toEqual(items);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
