import { ActionForm, Checkbox, CheckboxGroup, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, Notice, PageHeader, Pager, RecordItem, RecordList } from "@/components/console/ui";
import { addBlock, removeBlock, saveIntake } from "@/app/console/actions/settings";
import { pageParam } from "@/lib/application/console/format";
import { formatConsoleTime } from "@/lib/platform/time-format";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { CHANNELS } from "@/lib/domain/settings/intake";
import { listBlockEntries } from "@/lib/domain/risk/block-list-entries";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { BLOCK_KINDS } from "@/lib/domain/risk/block-list";
import { getSettings } from "@/lib/domain/settings/service-settings";

export const dynamic = "force-dynamic";

const CHANNEL_LABELS: Record<(typeof CHANNELS)[number], string> = { BANK_TRANSFER: "Bank transfer", GATEWAY: "Gateway", STORE: "Store checkout" };

export default async function SettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperatorPage();
  const db = getDb();
  const [settings, blocks, merchants] = await Promise.all([
    getSettings(db),
    listBlockEntries(db, { page: pageParam((await searchParams).page), limit: 20 }),
    merchantOptions(db),
  ]);
  return (
    <>
      <PageHeader
        title="Intake and block list"
        description="Pausing intake refuses new payments with 503 PAYMENT_INTAKE_PAUSED; payments already created continue. Block-list hits are refused with 403 RISK_REJECTED."
      />
      <div className="space-y-4">
        <Card title="Payment intake">
          {settings.intakePaused ? (
            <div className="mb-3">
              <Notice tone="warning">All intake is paused.</Notice>
            </div>
          ) : null}
          <ActionForm action={saveIntake} label="Payment intake" className="space-y-4">
            <Checkbox name="intakePaused" label="Pause all new payments (every channel)" defaultChecked={settings.intakePaused} />
            <CheckboxGroup
              name="pausedChannels"
              legend="Paused channels"
              options={CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABELS[c] }))}
              defaultChecked={settings.pausedChannels}
            />
            <Field name="reason" label="Reason" required />
            <SubmitButton>Save intake</SubmitButton>
          </ActionForm>
        </Card>
        <Card title="Block list" description="Customer values compared case-insensitively; an entry applies to every merchant or to one.">
          {blocks.items.length === 0 ? (
            <EmptyState title="The block list is empty" />
          ) : (
            <RecordList label="Block list">
              {blocks.items.map((b) => (
                <RecordItem
                  key={b.id}
                  title={
                    <>
                      <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">{b.kind}</span>
                      <span className="font-mono">{b.value}</span>
                    </>
                  }
                  details={`${b.merchantName ?? "every merchant"} · ${b.reason} · added ${formatConsoleTime(b.createdAt)}`}
                  action={
                    <ActionForm action={removeBlock} label={`Remove ${b.value}`} className="flex items-start gap-2">
                      <Hidden name="id" value={b.id} />
                      <input
                        name="reason"
                        aria-label="Reason for removing"
                        placeholder="reason for removing"
                        className="w-44 rounded-md border border-slate-300 px-2 py-1.5 text-sm"
                      />
                      <SubmitButton variant="secondary">Remove</SubmitButton>
                    </ActionForm>
                  }
                />
              ))}
            </RecordList>
          )}
          <Pager page={blocks.page} pages={blocks.pages} total={blocks.total} basePath="/console/settings" />
          <ActionForm action={addBlock} label="Add a block-list entry" className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4" resetOnSuccess>
            <Field name="kind" label="Kind" required options={Object.keys(BLOCK_KINDS).map((k) => ({ value: k, label: k.replace("_", " ").toLowerCase() }))} />
            <Field name="value" label="Value" required placeholder="fraud@example.com" />
            <Field
              name="merchantId"
              label="Merchant"
              options={[{ value: "", label: "Every merchant" }, ...merchants.map((m) => ({ value: m.id, label: m.name }))]}
            />
            <Field name="reason" label="Reason" required />
            <div className="sm:col-span-2 lg:col-span-4">
              <SubmitButton>Add to block list</SubmitButton>
            </div>
          </ActionForm>
        </Card>
      </div>
    </>
  );
}
