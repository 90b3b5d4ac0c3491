import Link from "next/link";
import { attemptNowAction, checkForwardSignatureAction, checkSignatureAction } from "@/app/console/actions/callbacks";
import { addressWaitText } from "@/lib/contract/callbacks/retry-schedule";
import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, DefinitionList, EmptyState, PageHeader, StatusBadge, Table, Td, linkClass } from "@/components/console/ui";
import { deliveryDetail } from "@/lib/domain/callbacks/manage-callbacks";
import { ConsoleTime } from "@/components/console/time";
import { formatConsoleTime } from "@/lib/platform/time-format";
import { orNotFound, requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { callbackHeaderNames } from "@/lib/contract/callbacks/signing";
import { forwardAttemptsOf } from "@/lib/domain/events/listener-forwards";

export const dynamic = "force-dynamic";

const pre = "max-h-80 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 font-mono text-xs text-slate-800";

export default async function DeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const actor = await requireActor();
  const { deliveryId } = await params;
  const d = await orNotFound(deliveryDetail(getDb(), actor, deliveryId));
  const names = callbackHeaderNames();
  const forwards = await forwardAttemptsOf(getDb(), d.eventId);
  const lastForward = forwards.at(-1);
  const signed = d.attempts.filter((a) => a.signedTimestamp && a.signature);
  const last = signed[signed.length - 1];
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className={linkClass} href="/console/callbacks">
          ← Callbacks
        </Link>
      </p>
      <PageHeader
        title={`Delivery of ${d.event.type}`}
        description={
          <>
            Event id <code className="font-mono text-xs">{d.eventId}</code> (X-Service-Event-Id, kept across retries)
          </>
        }
        actions={<StatusBadge status={d.state} />}
      />
      <div className="space-y-4">
        <Card
          title="Delivery"
          description="Created is the merchant's clock: under a moved sandbox clock, the sandbox time beside the real one. Attempts run on the real clock."
        >
          <DefinitionList
            items={[
              ["State", d.state.replace("_", " ")],
              ["Created", <ConsoleTime key="c" at={d.createdAt} recordedAt={d.recordedAt} />],
              ["Attempts this round", `${d.attemptCount} of 8`],
              [
                "Next attempt",
                d.state === "PENDING"
                  ? `${formatConsoleTime(d.nextAttemptAt)} (real clock)${d.event.merchant.fastRetries ? " (fast retries: waits 0.5 s to 60 s)" : " (waits 30 s to 1 h)"}`
                  : "—",
              ],
              ...(d.state === "PENDING" && d.waitingSince
                ? [
                    [
                      "Waiting",
                      <span
                        key="w"
                        data-testid="delivery-waiting"
                      >{`${addressWaitText(formatConsoleTime(d.waitingSince))}; sent as soon as it accepts connections`}</span>,
                    ] satisfies [string, React.ReactNode],
                  ]
                : []),
              ["Delivered", formatConsoleTime(d.deliveredAt)],
              ["Last error", d.lastError ?? "—"],
              [
                "Payment",
                d.event.paymentId ? (
                  <Link key="p" className={linkClass} href={`/console/payments/${d.event.paymentId}`}>
                    {d.event.paymentId}
                  </Link>
                ) : (
                  "test event"
                ),
              ],
            ]}
          />
          {d.state === "PENDING" ? (
            <ActionForm action={attemptNowAction} label="Attempt now" className="mt-4">
              <Hidden name="deliveryId" value={d.id} />
              <SubmitButton variant="secondary">Attempt now</SubmitButton>
            </ActionForm>
          ) : null}
        </Card>
        <Card title="Attempts">
          {d.attempts.length === 0 ? (
            <EmptyState title="No attempts yet" />
          ) : (
            <Table caption="Attempts" head={["#", "Started (Dubai)", "Duration", "HTTP", "Error", "Response (start)", "Address"]}>
              {d.attempts.map((a) => (
                <tr key={a.id}>
                  <Td>{a.number}</Td>
                  <Td>
                    <ConsoleTime at={a.startedAt} zone={false} seconds />
                  </Td>
                  <Td className="tabular-nums">{a.durationMs} ms</Td>
                  <Td>{a.statusCode ?? "—"}</Td>
                  <Td wrap className="min-w-[10rem]">
                    {a.error ?? "—"}
                  </Td>
                  <Td mono>
                    <span className="block max-w-[14rem] truncate" title={a.responseSnippet ?? undefined}>
                      {a.responseSnippet ?? "—"}
                    </span>
                  </Td>
                  <Td mono>
                    <span className="block max-w-[16rem] truncate" title={a.url}>
                      {a.url}
                    </span>
                  </Td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
        <Card
          title="Listener forwards"
          description="What sandpiper listen processes reported of forwarding this event to a receiver on a developer's machine, signed with the listener secret of their API key. They are not attempts of this delivery and never change its state."
        >
          {forwards.length === 0 ? (
            <EmptyState title="No listener forwarded this event" />
          ) : (
            <Table
              caption="Listener forwards"
              head={["Forward", "#", "Started (Dubai)", "Duration", "HTTP", "Error", "Next attempt (Dubai)", names.timestamp, names.signature, "Receiver"]}
            >
              {forwards.map((f) => (
                <tr key={f.id} data-testid="listener-forward">
                  <Td mono>
                    {f.forwardId.slice(0, 8)}
                    {f.kind === "redelivery" ? " (redelivery)" : ""}
                  </Td>
                  <Td>{f.attempt}</Td>
                  <Td>
                    <ConsoleTime at={f.startedAt} zone={false} seconds />
                  </Td>
                  <Td className="tabular-nums">{f.durationMs} ms</Td>
                  <Td>{f.statusCode ?? "—"}</Td>
                  <Td wrap className="min-w-[8rem]">
                    {f.error ?? "—"}
                  </Td>
                  <Td>
                    <ConsoleTime at={f.nextAttemptAt} zone={false} seconds />
                  </Td>
                  <Td mono>{f.signedTimestamp}</Td>
                  <Td mono>
                    <span className="block max-w-[10rem] truncate" title={f.signature}>
                      {f.signature}
                    </span>
                  </Td>
                  <Td mono>
                    <span className="block max-w-[12rem] truncate" title={f.forwardTo}>
                      {f.forwardTo}
                    </span>
                  </Td>
                </tr>
              ))}
            </Table>
          )}
          {lastForward ? (
            <div className="mt-4 border-t border-slate-100 pt-4" data-testid="forward-signature-check">
              <h3 className="text-sm font-semibold text-slate-800">Check my verification (listener forward)</h3>
              <p className="mb-3 text-xs text-slate-600">
                The signed text of a forward is its timestamp + &quot;.&quot; + the body below, keyed with the listener secret that sandpiper listen printed
                when it started. Paste what your receiver verified and the signature it computed.
              </p>
              <ActionForm action={checkForwardSignatureAction} label="Check the verification of a listener forward" className="space-y-3">
                <Hidden name="deliveryId" value={d.id} />
                <Field
                  name="forwardAttemptId"
                  label="Forward attempt"
                  required
                  defaultValue={lastForward.id}
                  options={forwards.map((f) => ({
                    value: f.id,
                    label: `Forward ${f.forwardId.slice(0, 8)}, attempt ${f.attempt} (timestamp ${f.signedTimestamp})`,
                  }))}
                />
                <Field name="timestamp" label="Timestamp your code used" required defaultValue={lastForward.signedTimestamp} inputMode="numeric" />
                <Field name="body" label="Body your code verified" required multiline rows={6} defaultValue={d.event.body} />
                <Field name="signature" label="Signature your code computed" required placeholder="64 lowercase hex characters" />
                <SubmitButton>Check</SubmitButton>
              </ActionForm>
            </div>
          ) : null}
        </Card>
        {d.injections.length > 0 ? (
          <Card
            title="Chaos mode: injected requests"
            description="Sent on top of the real delivery to test your receiver. They are not attempts and never change this delivery's state."
          >
            <Table caption="Injected requests" head={["Kind", "Sent (Dubai)", "A correct receiver", "Your receiver answered", "As expected"]}>
              {d.injections.map((i) => {
                const answered2xx = i.statusCode !== null && i.statusCode >= 200 && i.statusCode < 300;
                const asExpected = i.expected === "2xx" ? answered2xx : i.statusCode !== null && !answered2xx;
                return (
                  <tr key={i.id} data-testid="injection">
                    <Td>{i.kind.replace("_", " ")}</Td>
                    <Td>
                      <ConsoleTime at={i.sentAt} zone={false} seconds />
                    </Td>
                    <Td>{i.expected === "2xx" ? "answers 2xx" : "refuses it (4xx)"}</Td>
                    <Td>{i.statusCode ?? i.error ?? "—"}</Td>
                    <Td>{asExpected ? "yes" : <strong className="text-rose-700">no</strong>}</Td>
                  </tr>
                );
              })}
            </Table>
          </Card>
        ) : null}
        <Card
          title="Signature debugger"
          description={`What each attempt was signed with. The signature is the lowercase hex HMAC-SHA256 of the signed text, keyed with your callback secret (the whole whsec_... string); the secret is never shown here.`}
        >
          {signed.length === 0 ? (
            <EmptyState title="No signed attempt yet" />
          ) : (
            <div className="space-y-4">
              {signed.map((a) => (
                <div key={a.id} data-testid={`signed-attempt-${a.number}`} className="rounded-md border border-slate-200 p-3">
                  <p className="text-sm font-semibold text-slate-800">
                    Attempt {a.number}: {a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no answer")}
                  </p>
                  <p className="mt-2 text-xs font-medium text-slate-600">Headers sent</p>
                  <pre
                    className={pre}
                  >{`Content-Type: application/json\n${names.eventId}: ${d.eventId}\n${names.timestamp}: ${a.signedTimestamp}\n${names.signature}: ${a.signature}`}</pre>
                  <p className="mt-2 text-xs font-medium text-slate-600">Signed text (timestamp + &quot;.&quot; + body)</p>
                  <pre className={pre} data-testid="signed-text">{`${a.signedTimestamp}.${d.event.body}`}</pre>
                  <p className="mt-2 text-xs font-medium text-slate-600">Your receiver&apos;s answer (first 1 KiB)</p>
                  <pre className={pre}>{a.responseSnippet || "(empty)"}</pre>
                </div>
              ))}
              <div className="border-t border-slate-100 pt-4">
                <h3 className="text-sm font-semibold text-slate-800">Check my verification</h3>
                <p className="mb-3 text-xs text-slate-600">
                  Paste the timestamp and the body your code verified and the signature it computed: the check says which part differs (another secret, a
                  re-serialised body, a stale timestamp, an encoding slip).
                </p>
                <ActionForm action={checkSignatureAction} label="Check my verification" className="space-y-3">
                  <Hidden name="deliveryId" value={d.id} />
                  <Field
                    name="attempt"
                    label="Attempt"
                    required
                    defaultValue={last!.number}
                    inputMode="numeric"
                    options={signed.map((a) => ({ value: String(a.number), label: `Attempt ${a.number} (timestamp ${a.signedTimestamp})` }))}
                  />
                  <Field name="timestamp" label="Timestamp your code used" required defaultValue={last!.signedTimestamp!} inputMode="numeric" />
                  <Field name="body" label="Body your code verified" required multiline rows={6} defaultValue={d.event.body} />
                  <Field name="signature" label="Signature your code computed" required placeholder="64 lowercase hex characters" />
                  <SubmitButton>Check</SubmitButton>
                </ActionForm>
              </div>
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
