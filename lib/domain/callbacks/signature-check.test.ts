import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { diagnoseSignature } from "@/lib/domain/callbacks/signature-check";
import { present } from "../../../scripts/harness/present";

// "Check my verification" (docs/callbacks.md "Signature debugger"): each common slip is named, and nothing in the
// answer gives the secret away.
const secret = "whsec_2hM0b3l2s0S1xq9bX0x3m4n5o6p7q8r9s0t1u2v3w4x";
const body =
  '{"id":"0b6c5b9e-54a4-4d51-a1f1-4b1f9c9f2d11","type":"payment.succeeded","createdAt":"2026-11-23T10:00:00.000Z","data":{"reference":"order-1","amount":"10.00"}}';
const timestamp = "1795470000";
const now = 1795470010;
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();
const right = hmac(secret, `${timestamp}.${body}`).toString("hex");
const sent = { timestamp, body };
const diagnose = (given: Partial<{ timestamp: string; body: string; signature: string }>, others = [] as { label: string; secret: string }[]) =>
  diagnoseSignature({ secret, others, sent, given: { timestamp, body, signature: right, ...given }, nowSeconds: now });
const firstProblem = (d: ReturnType<typeof diagnose>) => d.findings.find((f) => !f.ok)?.message ?? "";

describe("diagnoseSignature", () => {
  it("confirms a correct signature, and still warns about a stale timestamp", () => {
    const ok = diagnose({});
    expect(ok.verified).toBe(true);
    expect(ok.findings[0]).toMatchObject({ ok: true, part: "signature" });
    expect(ok.findings.every((f) => f.ok)).toBe(true);
    const stale = diagnoseSignature({ secret, others: [], sent, given: { timestamp, body, signature: right }, nowSeconds: now + 900 });
    expect(stale.verified).toBe(true);
    expect(firstProblem(stale)).toMatch(/300 s/);
  });

  it("names encoding slips: upper case, base64, a prefix, body only, no dot, a decoded or cut secret", () => {
    expect(firstProblem(diagnose({ signature: right.toUpperCase() }))).toMatch(/upper-case/);
    expect(firstProblem(diagnose({ signature: Buffer.from(right, "hex").toString("base64") }))).toMatch(/base64/);
    expect(firstProblem(diagnose({ signature: `sha256=${right}` }))).toMatch(/prefix/);
    expect(firstProblem(diagnose({ signature: hmac(secret, body).toString("hex") }))).toMatch(/body alone/);
    expect(firstProblem(diagnose({ signature: hmac(secret, `${timestamp}${body}`).toString("hex") }))).toMatch(/"\."/);
    expect(firstProblem(diagnose({ signature: hmac(Buffer.from(secret.slice(6), "base64"), `${timestamp}.${body}`).toString("hex") }))).toMatch(
      /base64-decoded the secret/,
    );
    expect(firstProblem(diagnose({ signature: hmac(secret.slice(6), `${timestamp}.${body}`).toString("hex") }))).toMatch(/whsec_ prefix/);
  });

  it("names a re-serialised body, a trailing newline, another body, and a timestamp that is not the one sent", () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    const d = diagnose({ body: reserialised, signature: hmac(secret, `${timestamp}.${reserialised}`).toString("hex") });
    expect(d.verified).toBe(true); // their code signs what it checks...
    expect(firstProblem(d)).toMatch(/same JSON but not the same bytes/); // ...but not the bytes that were sent
    expect(firstProblem(diagnose({ body: `${body}\n`, signature: "0".repeat(64) }))).toMatch(
      /not the one sent|line break|white space|another secret|other bytes|different bytes/,
    );
    expect(diagnose({ body: `${body}\n`, signature: "0".repeat(64) }).findings.some((f) => /line break/.test(f.message))).toBe(true);
    expect(diagnose({ timestamp: "1795469999", signature: "0".repeat(64) }).findings.some((f) => /not the one sent with this attempt/.test(f.message))).toBe(
      true,
    );
  });

  it("names a body in other bytes before any guess about the secret, whatever the signature", () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(body)).reverse()));
    const wrong = "0".repeat(64);
    const listener = listenerSecret("sk_sandbox_exampleexampleexampleexampleexample");
    for (const changed of [reserialised, reordered]) {
      // A signature that matches nothing, the header's signature (right for the sent body), one made with another key.
      for (const signature of [
        wrong,
        right,
        hmac("whsec_old", `${timestamp}.${changed}`).toString("hex"),
        hmac(listener, `${timestamp}.${changed}`).toString("hex"),
      ]) {
        const d = diagnose({ body: changed, signature }, [{ label: "the sandpiper listen secret", secret: listener }]);
        expect(d.findings[0], signature).toMatchObject({ ok: false, part: "body", message: expect.stringMatching(/same JSON but not the same bytes/) });
        expect(firstProblem(d)).not.toMatch(/another secret/);
      }
    }
    expect(diagnose({ body: `${body}\n`, signature: wrong }).findings[0]).toMatchObject({
      ok: false,
      part: "body",
      message: expect.stringMatching(/line break/),
    });
    expect(
      present(diagnose({ body: `${body}\r\n`, signature: right }).findings[0], "diagnose({ body: `${body}\\r\\n`, signature: right }).fin...").message,
    ).toMatch(/line break/);
    expect(diagnose({ body: `  ${body} `, signature: wrong }).findings[0]).toMatchObject({
      ok: false,
      part: "body",
      message: expect.stringMatching(/white space around it/),
    });
    // A body that is not the sent one at all keeps the secret as the first suspect.
    expect(firstProblem(diagnose({ body: body.replace("order-1", "order-2"), signature: wrong }))).toMatch(/another secret/);
  });

  it("names the listener secret when the signature was made with it, and suspects another secret otherwise; never shows a secret", () => {
    const key = "sk_sandbox_exampleexampleexampleexampleexample";
    const listener = listenerSecret(key);
    const withListener = diagnose({ signature: hmac(listener, `${timestamp}.${body}`).toString("hex") }, [
      { label: "the sandpiper listen secret of API key sk_sandbox_exa...", secret: listener },
    ]);
    expect(firstProblem(withListener)).toMatch(/sandpiper listen secret of API key sk_sandbox_exa/);
    const other = diagnose({ signature: hmac("whsec_old", `${timestamp}.${body}`).toString("hex") });
    expect(other.verified).toBe(false);
    expect(firstProblem(other)).toMatch(/another secret/);
    for (const d of [withListener, other]) expect(JSON.stringify(d)).not.toMatch(/whsec_[A-Za-z0-9]/);
  });
});

describe('diagnoseSignature for a listener forward (docs/callbacks.md "Forwards on the service")', () => {
  const listener = listenerSecret("sk_sandbox_exampleexampleexampleexampleexample");
  const signedWith = { kind: "listener", keyPrefix: "sk_sandbox_abcdef" } as const;
  const check = (signature: string) =>
    diagnoseSignature({
      secret: listener,
      others: [{ label: "your callback secret", secret }],
      sent,
      given: { timestamp, body, signature },
      nowSeconds: now,
      signedWith,
    });

  it("names the listener secret of the reporting key, and a callback secret used by mistake", () => {
    const ok = check(hmac(listener, `${timestamp}.${body}`).toString("hex"));
    expect(ok.verified).toBe(true);
    expect(present(ok?.findings[0], "ok?.findings[0]").message).toMatch(/sandpiper listen secret of API key sk_sandbox_abcdef\.\.\./);
    const mixedUp = check(right);
    expect(mixedUp.verified).toBe(false);
    expect(firstProblem(mixedUp)).toMatch(/made with your callback secret\. Forwards of sandpiper listen are signed with the listener secret/);
    expect(firstProblem(check("0".repeat(64)))).toMatch(/does not match with the sandpiper listen secret/);
    expect(JSON.stringify([ok, mixedUp])).not.toContain(listener);
  });
});
