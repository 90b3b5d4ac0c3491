import Link from "next/link";
import { ActionForm, Field, SubmitButton } from "@/components/console/forms";
import { Badge, Card, PageHeader, Pager, Table, Td, linkClass } from "@/components/console/ui";
import { createUserAction } from "@/app/console/actions/users";
import { pageParam } from "@/lib/application/console/format";
import { formatConsoleDay } from "@/lib/platform/time-format";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { requireOperatorPage } from "@/lib/application/console/session";
import { listUsers, MIN_PASSWORD_LENGTH } from "@/lib/domain/users/manage-users";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperatorPage();
  const [users, merchants] = await Promise.all([listUsers(getDb(), { page: pageParam((await searchParams).page), limit: 25 }), merchantOptions(getDb())]);
  return (
    <>
      <PageHeader
        title="Console users"
        description="Operators work on every merchant; merchant users only on their own. Open a user to change its access: changing the role, merchant or active flag revokes every API key the user owns."
      />
      <Card title="Users" className="mb-4">
        <Table caption="Console users" head={["User name", "Role", "Merchant", "State", "Active keys", "Created"]}>
          {users.items.map((u) => (
            <tr key={u.id}>
              <Td>
                <Link className={linkClass} href={`/console/users/${u.id}`} title="Change access">
                  {u.username}
                </Link>
              </Td>
              <Td>{u.role === "OPERATOR" ? <Badge tone="violet">operator</Badge> : <Badge tone="blue">merchant</Badge>}</Td>
              <Td>{u.merchant?.name ?? "—"}</Td>
              <Td>
                {/* Sign-in locks belong to a source address, not to the account (docs/operating.md "Console sign-in limits"). */}
                {!u.active ? <Badge tone="gray">deactivated</Badge> : <Badge tone="green">active</Badge>}
              </Td>
              <Td>{u._count.apiKeys}</Td>
              <Td>{formatConsoleDay(u.createdAt)}</Td>
            </tr>
          ))}
        </Table>
        <Pager page={users.page} pages={users.pages} total={users.total} basePath="/console/users" />
      </Card>
      <Card title="Create a user">
        <ActionForm action={createUserAction} label="Create a user" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4" resetOnSuccess>
          <Field name="username" label="User name" required autoComplete="off" />
          <Field
            name="password"
            label="Password"
            type="password"
            required
            autoComplete="new-password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters; hand it over privately.`}
          />
          <Field
            name="role"
            label="Role"
            required
            options={[
              { value: "MERCHANT", label: "Merchant user" },
              { value: "OPERATOR", label: "Operator" },
            ]}
          />
          <Field
            name="merchantId"
            label="Merchant (merchant users)"
            options={[{ value: "", label: "—" }, ...merchants.map((m) => ({ value: m.id, label: m.name }))]}
          />
          <div className="sm:col-span-2 lg:col-span-4">
            <SubmitButton>Create user</SubmitButton>
          </div>
        </ActionForm>
      </Card>
    </>
  );
}
