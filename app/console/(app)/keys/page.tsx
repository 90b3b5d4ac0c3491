import Link from "next/link";
import { ActionForm, CheckboxGroup, Field, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, PageHeader, Pager, StatusBadge, Table, Td, linkClass } from "@/components/console/ui";
import { createKeyAction } from "@/app/console/actions/keys";
import { pageParam, param } from "@/lib/application/console/format";
import { RelativeTime } from "@/components/console/time";
import { formatConsoleDay } from "@/lib/platform/time-format";
import { keyState, listKeys } from "@/lib/domain/keys/manage-keys";
import { requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/domain/keys/api-keys";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { systemNow } from "@/lib/platform/clock";

export const dynamic = "force-dynamic";

export default async function KeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const sp = await searchParams;
  const merchant = param(sp.merchant);
  const keys = await listKeys(getDb(), actor, { page: pageParam(sp.page), limit: 20, merchantId: merchant && isUuid(merchant) ? merchant : undefined });
  const now = systemNow();
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys are valid 90 days and bound to one merchant. A new key does not revoke older ones. Only the prefix is kept; the full key is shown once, when it is created."
      />
      {actor.role === "MERCHANT" ? (
        <Card title="Create a key" className="mb-4" description="You become the key's owner: withdrawals created with it must be approved by someone else.">
          <ActionForm
            action={createKeyAction}
            label="Create a key"
            className="space-y-4"
            shownOnceNote="Copy the key now. It is not shown again; only its prefix is kept."
            resetOnSuccess
          >
            <Field name="name" label="Name" placeholder="e.g. checkout server" className="max-w-md" />
            <CheckboxGroup
              name="scopes"
              legend="Scopes"
              options={SCOPES.map((s) => ({ value: s, label: `${s} — ${SCOPE_DESCRIPTIONS[s]}` }))}
              defaultChecked={["payments:read", "payments:create"]}
            />
            <SubmitButton>Create key</SubmitButton>
          </ActionForm>
        </Card>
      ) : null}
      <Card title={actor.role === "OPERATOR" ? "All keys" : "Your merchant's keys"}>
        {keys.items.length === 0 ? (
          <EmptyState title="No API keys yet" />
        ) : (
          <Table
            caption="API keys"
            head={["Key", ...(actor.role === "OPERATOR" ? ["Merchant"] : []), "Owner", "Scopes", "State", "Expires (Dubai)", "Last used"]}
          >
            {keys.items.map((k) => (
              <tr key={k.id} data-testid={`key-${k.prefix}`}>
                <Td>
                  <Link className={`${linkClass} font-mono text-xs`} href={`/console/keys/${k.id}`}>
                    {k.prefix}…
                  </Link>
                  <span className="block text-xs text-slate-500">{k.name || "unnamed"}</span>
                </Td>
                {actor.role === "OPERATOR" ? <Td>{k.merchantName}</Td> : null}
                <Td>{k.owner}</Td>
                <Td wrap className="min-w-[10rem] text-xs">
                  {k.scopes.join(", ")}
                </Td>
                <Td>
                  <StatusBadge status={keyState(k, now)} />
                </Td>
                <Td>{formatConsoleDay(k.expiresAt)}</Td>
                <Td>{k.lastUsedAt ? <RelativeTime at={k.lastUsedAt} now={now} /> : "never"}</Td>
              </tr>
            ))}
          </Table>
        )}
        <Pager page={keys.page} pages={keys.pages} total={keys.total} basePath="/console/keys" params={{ merchant }} />
      </Card>
    </>
  );
}
