import Link from "next/link";
import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, DefinitionList, Notice, PageHeader, StatusBadge, linkClass } from "@/components/console/ui";
import { revokeKeyAction } from "@/app/console/actions/keys";
import { formatConsoleTime } from "@/lib/platform/time-format";
import { getKey, keyState } from "@/lib/domain/keys/manage-keys";
import { orNotFound, requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

export default async function KeyPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  const { id } = await params;
  const key = await orNotFound(getKey(getDb(), actor, id));
  const state = keyState(key);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className={linkClass} href="/console/keys">
          ← API keys
        </Link>
      </p>
      <PageHeader
        title={`Key ${key.prefix}…`}
        description={key.name || "Unnamed key"}
        actions={
          <span data-testid="key-state">
            <StatusBadge status={state} />
          </span>
        }
      />
      <div className="space-y-4">
        <Card title="Details">
          <DefinitionList
            items={[
              [
                "Prefix",
                <code key="p" className="font-mono text-xs">
                  {key.prefix}…
                </code>,
              ],
              ["Merchant", key.merchantName],
              ["Owner", key.owner],
              ["Scopes", key.scopes.join(", ")],
              ["Created", formatConsoleTime(key.createdAt)],
              ["Expires", formatConsoleTime(key.expiresAt)],
              ["Last used", key.lastUsedAt ? formatConsoleTime(key.lastUsedAt) : "never"],
              ["Revoked", formatConsoleTime(key.revokedAt)],
            ]}
          />
        </Card>
        {state === "revoked" ? (
          <Notice tone="warning" title="Revoked">
            Since {formatConsoleTime(key.revokedAt)}, requests with this key get 401 INVALID_API_KEY.
          </Notice>
        ) : (
          <Card title="Revoke" description="Requests with a revoked key get 401 INVALID_API_KEY. This cannot be undone.">
            <ActionForm
              action={revokeKeyAction}
              label="Revoke key"
              confirm={`Revoke ${key.prefix}…? Requests with it will fail from now on.`}
              className="flex flex-col gap-3 sm:flex-row sm:items-end"
            >
              <Hidden name="keyId" value={key.id} />
              <Field name="reason" label="Reason (optional)" className="flex-1" />
              <SubmitButton variant="danger">Revoke key</SubmitButton>
            </ActionForm>
          </Card>
        )}
      </div>
    </>
  );
}
