// Generates the `sandpiper.api_client` package of the Python wheel from the service's published OpenAPI document with
// openapi-python-client (never written by hand; docs/guides/test-in-your-own-suite.md "Python"):
//   src/sandpiper/api_client/      the generated client: AuthenticatedClient, a module per operation, a model per schema
//   src/sandpiper/api_client/GENERATED_FROM   the generator's version and the SHA-256 of the document it was given
// Usage: node clients/python/scripts/generate.mjs [document URL or file]
// Default document: http://127.0.0.1:3000/v1/openapi.json (a running service). The generator is the command
// `openapi-python-client` on PATH, or OPENAPI_PYTHON_CLIENT (e.g. `pipx install openapi-python-client==0.29.0`).
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { merchantDocument } from "../../typescript/scripts/generate.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.resolve(here, "..", "src", "sandpiper", "api_client");
/** The generator release the committed client was made with. */
export const GENERATOR_VERSION = "0.29.0";

/**
 * The document the Python client is generated from: the merchant operations (the customer pages' actions left out,
 * as for the TypeScript client), and each error answer as the one `Error` schema. The document narrows each
 * operation's error `code` to the codes it can answer (`allOf` of `Error` and an enum); the generator would make a
 * model class for every operation and status of them (800 files). `Error.error.code` stays the typed enum of every code.
 * @param {object} doc the service's OpenAPI 3.1 document
 * @returns {object} a new document; `doc` is not changed
 */
export function pythonDocument(doc) {
  const out = structuredClone(merchantDocument(doc));
  for (const item of Object.values(out.paths))
    for (const operation of Object.values(item))
      for (const response of Object.values(operation?.responses ?? {})) {
        const content = response?.content?.["application/json"];
        if (content?.schema?.allOf?.[0]?.$ref === "#/components/schemas/Error") content.schema = { $ref: "#/components/schemas/Error" };
      }
  return out;
}

/** The SHA-256 (hex) of the document the client is generated from: `pythonDocument(doc)` as JSON text. */
export const documentHash = (doc) =>
  createHash("sha256")
    .update(JSON.stringify(pythonDocument(doc)))
    .digest("hex");

/** The text of GENERATED_FROM for `doc`. */
export const generatedFrom = (doc) => `openapi-python-client ${GENERATOR_VERSION}\nsha256 ${documentHash(doc)}\n`;

async function main() {
  const source = process.argv[2] ?? "http://127.0.0.1:3000/v1/openapi.json";
  const doc = /^https?:/.test(source) ? await (await fetch(source)).json() : JSON.parse(fs.readFileSync(source, "utf8"));
  const generator = process.env.OPENAPI_PYTHON_CLIENT ?? "openapi-python-client";
  const version = spawnSync(generator, ["--version"], { encoding: "utf8" });
  if (version.status !== 0 || !version.stdout.includes(GENERATOR_VERSION)) {
    console.error(
      `needs ${generator} ${GENERATOR_VERSION} (found: ${version.stdout?.trim() || "none"}); pipx install openapi-python-client==${GENERATOR_VERSION}`,
    );
    process.exit(1);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-python-client-"));
  try {
    fs.writeFileSync(path.join(work, "openapi.json"), JSON.stringify(pythonDocument(doc), null, 2));
    const out = path.join(work, "api_client");
    const generated = spawnSync(generator, ["generate", "--path", path.join(work, "openapi.json"), "--meta", "none", "--output-path", out], {
      stdio: "inherit",
    });
    if (generated.status !== 0) process.exit(generated.status ?? 1);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(out, target, { recursive: true });
    fs.writeFileSync(path.join(target, "GENERATED_FROM"), generatedFrom(doc));
    console.log(`generated ${path.relative(process.cwd(), target)} from ${source}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
