// "Check my verification" of the signature debugger (docs/callbacks.md "Signature debugger"): given what a
// merchant's code used and computed, say which part differs from what the service signed. Pure: the caller
// supplies the secrets; nothing here returns or logs a secret.
import { createHmac } from "node:crypto";
import { signCallback } from "@/lib/contract/callbacks/signing";

/** What the merchant's code had: the timestamp header, the body bytes it verified, the signature it computed. */
export type SignatureAttempt = { timestamp: string; body: string; signature: string };

/** A secret to try, with how to name it to the merchant (never the secret itself). */
export type NamedSecret = { label: string; secret: string };

/** One finding: `ok` true for what is right, false for what differs, with what to do. */
export type Finding = { ok: boolean; part: "signature" | "secret" | "body" | "timestamp" | "encoding"; message: string };

/** What `diagnoseSignature` takes (see its parameters). */
export type SignatureDiagnosisInput = {
  secret: string;
  others: NamedSecret[];
  sent: { timestamp: string; body: string } | null;
  given: SignatureAttempt;
  nowSeconds: number;
  /** Which key signed what is debugged: a delivery's callback secret (default), or a listener's secret. */
  signedWith?: SignedWith;
};

/** The key that signed the request being debugged, and how the findings name it. */
export type SignedWith = { kind: "callback" } | { kind: "listener"; keyPrefix: string };

const SECRET_TEXTS = {
  callback: () => ({
    name: "the current callback secret",
    where: "Requests to your configured address are signed with the callback secret shown when the address was set.",
    earlier: "an earlier one: setting the address again generates a new secret, shown once",
  }),
  listener: (keyPrefix: string) => ({
    name: `the sandpiper listen secret of API key ${keyPrefix}...`,
    where: `Forwards of sandpiper listen are signed with the listener secret it printed when it started (the one of API key ${keyPrefix}...).`,
    earlier: "the callback secret, or the listener secret of another API key: sandpiper listen prints the one it signs with when it starts",
  }),
};
/** The answer: `verified` when the computed signature is the correct one for the given timestamp and body. */
export type SignatureDiagnosis = { verified: boolean; expectedMatchesSent: boolean | null; findings: Finding[] };

const hmacHex = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest("hex");

function jsonEqual(a: string, b: string): boolean {
  try {
    return JSON.stringify(sortKeys(JSON.parse(a))) === JSON.stringify(sortKeys(JSON.parse(b)));
  } catch {
    return false;
  }
}
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  return value;
}

/**
 * Diagnoses a signature a merchant's receiver computed (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks": lowercase hex HMAC-SHA256
 * of `timestamp + "." + raw body`, keyed with the whole `whsec_...` secret as UTF-8 bytes).
 * @param input.secret the merchant's current callback secret.
 * @param input.others other secrets the merchant may have used by mistake (e.g. listener secrets), tried by label.
 * @param input.sent the timestamp and body the service actually sent in the attempt being debugged, when known.
 * @param input.given what the merchant's code used and computed.
 * @param input.nowSeconds the service's clock, Unix seconds (for the 300-second tolerance).
 * @param input.signedWith the key that signed it: a delivery's callback secret (default) or, for a listener forward
 *   (docs/callbacks.md "Forwards on the service"), the listener secret of the reporting API key.
 * @returns findings in the order a merchant should fix them (a body that is the sent one in other bytes first, then
 *   encoding slips, the secret, the timestamp); `verified` when the signature is right.
 */
export function diagnoseSignature(input: SignatureDiagnosisInput): SignatureDiagnosis {
  const { secret, others, sent, given, nowSeconds } = input;
  const signedWith = input.signedWith ?? { kind: "callback" };
  const texts = signedWith.kind === "listener" ? SECRET_TEXTS.listener(signedWith.keyPrefix) : SECRET_TEXTS.callback();
  const findings: Finding[] = [];
  const signature = given.signature.trim();
  const expected = signCallback(secret, given.timestamp, given.body);
  const verified = signature === expected;

  // The inputs against what was sent. A body with the sent content in other bytes (a line break or white space
  // added, or re-serialised JSON) is the cause to fix first: it is named before any guess about the secret.
  let changedBytes: Finding | null = null;
  if (sent) {
    if (given.body === sent.body) findings.push({ ok: true, part: "body", message: "The body is byte for byte the one sent." });
    else if (given.body.replace(/\r?\n$/, "") === sent.body)
      changedBytes = {
        ok: false,
        part: "body",
        message: "The body has a line break at the end that was not sent: verify the raw request body exactly as received.",
      };
    else if (given.body.trim() === sent.body)
      changedBytes = {
        ok: false,
        part: "body",
        message: "The body has white space around it that was not sent: verify the raw request body exactly as received.",
      };
    else if (jsonEqual(given.body, sent.body))
      changedBytes = {
        ok: false,
        part: "body",
        message:
          "The body is the same JSON but not the same bytes (re-serialised: white space, member order or escaping changed). Verify the raw request body before parsing it.",
      };
    else
      findings.push({
        ok: false,
        part: "body",
        message: "The body is not the one sent with this attempt: check that you pasted the request body of this event.",
      });
    if (given.timestamp.trim() !== sent.timestamp)
      findings.push({
        ok: false,
        part: "timestamp",
        message: `The timestamp is not the one sent with this attempt (${sent.timestamp}). The timestamp header is renewed on every attempt: read it from the request you verify.`,
      });
    else findings.push({ ok: true, part: "timestamp", message: "The timestamp is the one sent with this attempt." });
  }
  if (!/^\d{10}$/.test(given.timestamp.trim()))
    findings.push({ ok: false, part: "timestamp", message: "The timestamp must be the 10-digit Unix seconds of the timestamp header, used as text." });
  else if (Math.abs(nowSeconds - Number(given.timestamp)) > 300)
    findings.push({
      ok: false,
      part: "timestamp",
      message: `The timestamp is ${Math.abs(nowSeconds - Number(given.timestamp))} s away from the service's clock: a receiver refuses requests more than 300 s old or ahead (a stale or replayed request), even with a correct signature.`,
    });

  const expectedMatchesSent = sent ? signCallback(secret, sent.timestamp, sent.body) === expected : null;
  if (verified) {
    findings.unshift({ ok: true, part: "signature", message: `Your signature is correct for this timestamp and body with ${texts.name}.` });
    if (changedBytes) findings.unshift(changedBytes);
    return { verified, expectedMatchesSent, findings };
  }

  // Encoding slips of the right key over the right text.
  const raw = Buffer.from(expected, "hex");
  const slips: [boolean, string][] = [
    [signature === expected.toUpperCase(), "Your signature is upper-case hex. Compare the lowercase hex digest."],
    [
      signature === raw.toString("base64") || signature === raw.toString("base64url"),
      "Your signature is base64. The signature header is lowercase hex (64 characters): use digest('hex').",
    ],
    [
      signature.replace(/^(sha256=|v1,)/, "") === expected && signature !== expected,
      "Your value has a prefix (such as sha256= or v1,). The header holds the bare 64 hex characters.",
    ],
    [signature === hmacHex(secret, given.body), 'You signed the body alone. Sign the text timestamp + "." + body.'],
    [signature === hmacHex(secret, `${given.timestamp}${given.body}`), 'You left out the "." between the timestamp and the body.'],
    [
      signature === hmacHex(secret, `${given.timestamp}.${given.body}\n`) || signature === hmacHex(secret, `${given.timestamp}.${given.body.trim()}`),
      "The signed text has different white space at the end of the body: sign the raw body exactly as received.",
    ],
    [
      signature === hmacHex(Buffer.from(secret.replace(/^whsec_/, ""), "base64"), `${given.timestamp}.${given.body}`),
      "You base64-decoded the secret after whsec_ (as Standard Webhooks does). Here the key is the whole whsec_... string as UTF-8 bytes.",
    ],
    [
      signature === hmacHex(secret.replace(/^whsec_/, ""), `${given.timestamp}.${given.body}`),
      "You left out the whsec_ prefix of the secret. The key is the whole whsec_... string.",
    ],
  ];
  for (const [matches, message] of slips) if (matches) findings.unshift({ ok: false, part: "encoding", message });
  if (!slips.some(([m]) => m)) {
    const other = others.find((o) => signature === signCallback(o.secret, given.timestamp, given.body));
    if (other) findings.unshift({ ok: false, part: "secret", message: `This signature was made with ${other.label}. ${texts.where}` });
    else if (sent && given.body !== sent.body && signature === signCallback(secret, given.timestamp, sent.body))
      findings.unshift({
        ok: false,
        part: "body",
        message: "Your signature is right for the body that was sent, but you pasted another body: your code signs different bytes from the ones it checks.",
      });
    else if (changedBytes)
      findings.unshift({
        ok: false,
        part: "secret",
        message: `The signature does not match this body with ${texts.name}, nor with a common slip. Verify the raw body as received first; if it still fails, your code may use another secret (${texts.earlier}).`,
      });
    else
      findings.unshift({
        ok: false,
        part: "secret",
        message: `The signature does not match with ${texts.name}, nor with a common slip. Your code most likely uses another secret (${texts.earlier}), or the body or timestamp it signs are not the ones above.`,
      });
  }
  if (changedBytes) findings.unshift(changedBytes);
  return { verified, expectedMatchesSent, findings };
}
