import Link from "next/link";
import { ActionForm, CheckboxGroup, Field, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, PageHeader, Pager, StatusBadge, Table, Td, linkClass } from "@/components/console/ui";
import { createMerchantAction } from "@/app/console/actions/merchants";
import { formatBps, pageParam } from "@/lib/application/console/format";
import { listMerchants } from "@/lib/domain/merchants/manage-merchants";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { CURRENCIES } from "@/lib/contract/money/currency";

export const dynamic = "force-dynamic";

export default async function MerchantsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireOperatorPage();
  const list = await listMerchants(getDb(), actor, { page: pageParam((await searchParams).page), limit: 20 });
  return (
    <>
      <PageHeader
        title="Merchants"
        description="A merchant starts inactive; it can be activated once it has at least one server IP and an https callback address. Deactivation revokes all its API keys."
      />
      <Card title="All merchants" className="mb-4">
        {list.items.length === 0 ? (
          <EmptyState title="No merchants yet">Create the first one below.</EmptyState>
        ) : (
          <Table caption="Merchants" head={["Name", "Status", "Currencies", "Server IPs", "Callback", "Active keys", "Fallback commission"]}>
            {list.items.map((m) => (
              <tr key={m.id}>
                <Td wrap className="min-w-[10rem]">
                  <Link className={linkClass} href={`/console/merchants/${m.id}`}>
                    {m.name}
                  </Link>
                </Td>
                <Td>
                  <StatusBadge status={m.status} />
                </Td>
                <Td wrap className="min-w-[8rem]">
                  {m.enabledCurrencies.join(", ")}
                </Td>
                <Td>
                  {m._count.allowedIps}
                  {m._count.allowedIpRequests > 0 ? (
                    <>
                      {" "}
                      ·{" "}
                      <Link className={linkClass} href={`/console/merchants/${m.id}#allow-list`}>
                        {m._count.allowedIpRequests} requested
                      </Link>
                    </>
                  ) : null}
                </Td>
                <Td>{m.callbackUrl ? (m.callbackUrl.startsWith("https://") ? "https ✓" : "set (not https)") : "not set"}</Td>
                <Td>{m._count.apiKeys}</Td>
                <Td className="tabular-nums">{formatBps(m.defaultCommissionBps)}</Td>
              </tr>
            ))}
          </Table>
        )}
        <Pager page={list.page} pages={list.pages} total={list.total} basePath="/console/merchants" />
      </Card>
      <Card title="Create a merchant">
        <ActionForm action={createMerchantAction} label="Create a merchant" className="space-y-4" resetOnSuccess>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field name="name" label="Name" required />
            <Field
              name="defaultCommissionBps"
              label="Fallback commission (bps)"
              required
              inputMode="numeric"
              defaultValue="0"
              hint="Used when no pricing profile exists; 150 = 1.50 %"
            />
          </div>
          <CheckboxGroup
            name="enabledCurrencies"
            legend="Enabled currencies"
            options={CURRENCIES.map((c) => ({ value: c, label: c }))}
            defaultChecked={[...CURRENCIES]}
          />
          <SubmitButton>Create merchant</SubmitButton>
        </ActionForm>
      </Card>
    </>
  );
}
