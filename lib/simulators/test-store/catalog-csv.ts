/**
 * Catalog import and export as CSV for the store's catalog matching (docs/api.md "Overview" item 6: the store matches real catalog products and fixed-price packages, in AED).
 *
 * Format (RFC 4180, read with csv-parse): header `sku,name,kind,price`; one item per record; fields separated by
 * commas; a field may be quoted with `"`, and then may contain commas, line breaks and doubled
 * quotes (`""` = one `"`). Line endings LF or CRLF; a UTF-8 byte order mark is ignored; blank lines
 * are ignored. `price` is AED decimal text with at most two decimals (`12`, `12.5`, `12.50`), no
 * sign, no thousands separator, at most 10 integer digits (the API amount pattern), and > 0.
 */
import { CsvError, parse } from "csv-parse/sync";
import { AMOUNT_PATTERN, toMinor } from "@/lib/contract/money/currency";
import type { CatalogItem } from "./matching";

/** One problem found while parsing: `line` is the 1-based line where the record starts. */
export type CatalogCsvError = { line: number; message: string };

const HEADER = ["sku", "name", "kind", "price"] as const;
const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_NAME = 200;

type CsvRecord = { line: number; fields: string[] };

/**
 * Parses catalog CSV text into items (prices in bigint fils) and per-line errors.
 *
 * Returns `{ items, errors }`: every valid record becomes an item in input order; an invalid
 * record is skipped and reported. Rules: the header must be exactly `sku,name,kind,price`
 * (case-insensitive, surrounding spaces ignored), otherwise one error for line 1 and no items;
 * each record has exactly 4 fields; sku 1..64 characters of `A-Z a-z 0-9 . _ -` starting with a
 * letter or digit; name non-empty after trimming, at most 200 characters; kind PRODUCT or PACKAGE
 * (case-insensitive); price as described in the module header; a sku seen before (exact match)
 * is an error and the first occurrence is kept; an unterminated quoted field is an error. Fields
 * other than name are trimmed; the name is trimmed too. Never throws.
 * docs/api.md "Overview" item 6.
 */
export function parseCatalogCsv(text: string): { items: CatalogItem[]; errors: CatalogCsvError[] } {
  const items: CatalogItem[] = [];
  const errors: CatalogCsvError[] = [];
  const { records, error } = splitRecords(text);
  const nonBlank = records.filter((r) => !(r.fields.length === 1 && r.fields[0]?.trim() === ""));
  const header = nonBlank[0];
  if (!header) {
    errors.push({ line: 1, message: "missing header sku,name,kind,price" });
    return { items, errors };
  }
  const names = header.fields.map((f) => f.trim().toLowerCase());
  if (names.length !== HEADER.length || names.some((n, i) => n !== HEADER[i])) {
    errors.push({ line: header.line, message: "header must be sku,name,kind,price" });
    return { items, errors };
  }
  const seen = new Set<string>();
  for (const record of nonBlank.slice(1)) {
    const problem = checkRecord(record, seen);
    if (typeof problem === "string") errors.push({ line: record.line, message: problem });
    else items.push(problem);
  }
  if (error) errors.push(error);
  errors.sort((a, b) => a.line - b.line);
  return { items, errors };
}

/**
 * Serialises items as catalog CSV (header `sku,name,kind,price`, LF line endings, trailing LF).
 * Prices are written as AED with exactly two decimals (129900n -> `1299.00`); fields containing a
 * comma, quote, line break or leading/trailing space are quoted with doubled quotes. Items that
 * satisfy the parse rules (valid sku, trimmed non-empty name) parse back to equal items with
 * `parseCatalogCsv`.
 * Throws RangeError for a price that is not a positive bigint.
 * docs/api.md "Overview" item 6.
 */
export function toCatalogCsv(items: readonly CatalogItem[]): string {
  const lines = [HEADER.join(",")];
  for (const item of items) {
    if (typeof item.priceMinor !== "bigint" || item.priceMinor <= 0n) {
      throw new RangeError(`item ${item.sku}: price must be a positive bigint amount in fils`);
    }
    lines.push([item.sku, item.name, item.kind, formatAed(item.priceMinor)].map(quote).join(","));
  }
  return lines.join("\n") + "\n";
}

/** 129900n -> "1299.00" (fils to AED text, exact). */
function formatAed(fils: bigint): string {
  const whole = fils / 100n;
  const cents = fils % 100n;
  return `${whole}.${cents.toString().padStart(2, "0")}`;
}

function quote(field: string): string {
  if (/[",\r\n]/.test(field) || field !== field.trim()) return `"${field.replaceAll('"', '""')}"`;
  return field;
}

function checkRecord(record: CsvRecord, seen: Set<string>): CatalogItem | string {
  if (record.fields.length !== HEADER.length) {
    return `expected 4 fields (sku,name,kind,price), found ${record.fields.length}`;
  }
  const [sku, name, kind, price] = record.fields as [string, string, string, string];
  const item = checkCatalogFields({ sku, name, kind, price });
  if (typeof item === "string") return item;
  if (seen.has(item.sku)) return `duplicate sku ${item.sku}`;
  seen.add(item.sku);
  return item;
}

/**
 * Validates one catalog item given as text fields (a CSV record or a console form), with the rules of
 * `parseCatalogCsv`: sku 1..64 characters of `A-Z a-z 0-9 . _ -` starting with a letter or digit; name
 * non-empty after trimming, at most 200 characters; kind PRODUCT or PACKAGE (case-insensitive); price AED
 * with at most 2 decimals and at most 10 integer digits, > 0. Fields are trimmed.
 * @returns the item (price in bigint fils), or the message of the first problem. Never throws.
 */
export function checkCatalogFields(fields: { sku: string; name: string; kind: string; price: string }): CatalogItem | string {
  const sku = fields.sku.trim();
  if (!SKU_PATTERN.test(sku)) return `invalid sku ${JSON.stringify(sku)}: 1-64 characters of A-Z a-z 0-9 . _ -`;
  const name = fields.name.trim();
  if (name.length === 0) return "name is empty";
  if (name.length > MAX_NAME) return `name longer than ${MAX_NAME} characters`;
  const kind = fields.kind.trim().toUpperCase();
  if (kind !== "PRODUCT" && kind !== "PACKAGE") return `invalid kind ${JSON.stringify(fields.kind.trim())}: PRODUCT or PACKAGE`;
  const priceText = fields.price.trim();
  if (!AMOUNT_PATTERN.test(priceText)) return `invalid price ${JSON.stringify(priceText)}: AED with at most 2 decimals, e.g. 12.50`;
  const priceMinor = toMinor(priceText);
  if (priceMinor <= 0n) return "price must be greater than 0";
  return { sku, name, kind, priceMinor };
}

/**
 * Splits CSV text into records of raw fields with csv-parse, and the line where each record starts (1-based,
 * CRLF counted once, blank lines skipped). A record csv-parse cannot read (an unterminated quote, text after a
 * closing quote) ends the parse: the records before it are kept and the error names the line where it starts.
 */
function splitRecords(text: string): { records: CsvRecord[]; error: CatalogCsvError | null } {
  const bytes = Buffer.from(text, "utf8");
  const records: CsvRecord[] = [];
  let consumed = 0;
  const startLine = (offset: number) => {
    let at = offset;
    while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
    return 1 + lineBreaks(bytes.subarray(0, at));
  };
  try {
    parse(bytes, {
      bom: true,
      trim: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      on_record: (record: string[], context) => {
        records.push({ line: startLine(consumed), fields: record });
        consumed = context.bytes;
        return null;
      },
    });
  } catch (error) {
    const line = startLine(consumed);
    const message =
      error instanceof CsvError && error.code === "CSV_QUOTE_NOT_CLOSED"
        ? "unterminated quoted field"
        : `unreadable record: ${error instanceof Error ? error.message : String(error)}`;
    return { records, error: { line, message } };
  }
  return { records, error: null };
}

/** Line breaks in `bytes`: CRLF, LF and CR each count once. */
function lineBreaks(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) n++;
    else if (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a) n++;
  }
  return n;
}
