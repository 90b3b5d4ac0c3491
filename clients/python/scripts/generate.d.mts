/** The document the Python client is generated from: the merchant operations, each error answer as the one `Error` schema. */
export function pythonDocument(doc: object): object;
/** The SHA-256 (hex) of `pythonDocument(doc)` as JSON text. */
export function documentHash(doc: object): string;
/** The text of GENERATED_FROM for `doc`: the generator's version and the document's hash. */
export function generatedFrom(doc: object): string;
/** The openapi-python-client release the committed client was made with. */
export const GENERATOR_VERSION: string;
