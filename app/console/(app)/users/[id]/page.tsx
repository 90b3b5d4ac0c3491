import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm, Checkbox, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, Notice, PageHeader, linkClass } from "@/components/console/ui";
import { changeAccess } from "@/app/console/actions/users";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { getUser } from "@/lib/domain/users/manage-users";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { countOf } from "@/lib/application/console/words";

export const dynamic = "force-dynamic";

export default async function UserPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireOperatorPage();
  const { id } = await params;
  const user = await getUser(getDb(), id);
  if (!user) notFound();
  const merchants = await merchantOptions(getDb());
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className={linkClass} href="/console/users">
          ← Users
        </Link>
      </p>
      <PageHeader
        title={user.username}
        description={`${user.role === "OPERATOR" ? "Operator" : "Merchant user"} · ${countOf(user._count.apiKeys, "active API key")}`}
      />
      <Card title="Access">
        {user.id === actor.id ? (
          <Notice tone="info">You cannot change your own access; ask another operator.</Notice>
        ) : (
          <ActionForm
            action={changeAccess}
            label="Change access"
            className="space-y-4"
            confirm={user._count.apiKeys > 0 ? `Changing access revokes ${countOf(user._count.apiKeys, "API key")} of ${user.username}. Continue?` : undefined}
          >
            <Hidden name="userId" value={user.id} />
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <Field
                name="role"
                label="Role"
                required
                defaultValue={user.role}
                options={[
                  { value: "MERCHANT", label: "Merchant user" },
                  { value: "OPERATOR", label: "Operator" },
                ]}
              />
              <Field
                name="merchantId"
                label="Merchant (merchant users)"
                defaultValue={user.merchantId ?? ""}
                options={[{ value: "", label: "—" }, ...merchants.map((m) => ({ value: m.id, label: m.name }))]}
              />
            </div>
            <Checkbox name="active" label="Active (may sign in; its keys work)" defaultChecked={user.active} />
            <Field name="reason" label="Reason" required />
            <Notice tone="warning">Any change revokes every API key this user owns. Re-activating does not bring keys back.</Notice>
            <SubmitButton variant="danger">Save access and revoke keys</SubmitButton>
          </ActionForm>
        )}
      </Card>
    </>
  );
}
