import { ActionForm, Checkbox, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Badge, Card, EmptyState, Notice, PageHeader, Pager, Table, Td } from "@/components/console/ui";
import { importItems, saveItem, switchItem } from "@/app/console/actions/catalog";
import { param } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { listCatalogItems } from "@/lib/simulators/test-store/catalog-admin";
import { storeCatalogProblem } from "@/lib/simulators/test-store/catalog-cache";

export const dynamic = "force-dynamic";

const kinds = [
  { value: "PRODUCT", label: "Product" },
  { value: "PACKAGE", label: "Package (fixed bundle)" },
];

/** Store catalog (operator): products and packages with AED prices that store checkouts are matched against. */
export default async function CatalogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperatorPage();
  const q = await searchParams;
  const search = param(q.search)?.trim() || undefined;
  const page = Math.max(1, Number(param(q.page)) || 1);
  const [list, problem] = await Promise.all([listCatalogItems(getDb(), { page, limit: 50, search }), storeCatalogProblem(getDb())]);
  return (
    <>
      <PageHeader
        title="Store catalog"
        description="Products and packages of the connected sandbox store, priced in AED. A store checkout first looks for an exact-price product or package, else a basket of products with one order discount of at most 20 %. Changes apply to checkouts handed off from now on."
      />
      <div className="space-y-4">
        {problem && (
          <Notice tone="warning" title="Discounted baskets are unavailable">
            {problem}. Until the active catalog changes, a store checkout is READY only for an exact-price product or package; every other checkout is REJECTED
            at once with this reason.
          </Notice>
        )}
        <Card title="Add or update an item" description="Saving an existing sku replaces its name, kind and price and makes it active.">
          <ActionForm action={saveItem} label="Add or update a catalog item" className="grid grid-cols-2 gap-4 lg:grid-cols-5" resetOnSuccess>
            <Field name="sku" label="SKU" required placeholder="GIFT-100" />
            <Field name="name" label="Name" required className="col-span-2" placeholder="Gift card AED 100" />
            <Field name="kind" label="Kind" required options={kinds} defaultValue="PRODUCT" />
            <Field name="price" label="Price (AED)" required inputMode="decimal" placeholder="100.00" />
            <div className="col-span-2 lg:col-span-5">
              <SubmitButton>Save item</SubmitButton>
            </div>
          </ActionForm>
        </Card>
        <Card
          title="Import CSV"
          description="Header sku,name,kind,price; price in AED with at most 2 decimals. All or nothing: any bad line changes nothing and is listed."
        >
          <ActionForm action={importItems} label="Import catalog CSV" className="space-y-3" resetOnSuccess>
            <Field name="csv" label="CSV text" required multiline placeholder={"sku,name,kind,price\nGIFT-100,Gift card AED 100,PRODUCT,100.00"} />
            <Checkbox name="deactivateMissing" label="Deactivate active items that are not in the file" />
            <SubmitButton>Import</SubmitButton>
          </ActionForm>
        </Card>
        <Card
          title={`Items (${list.total})`}
          actions={
            <form method="get" className="flex gap-2" role="search">
              <label htmlFor="catalog-search" className="sr-only">
                Search sku or name
              </label>
              <input
                id="catalog-search"
                name="search"
                defaultValue={search}
                placeholder="Search sku or name"
                className="rounded-md border border-slate-300 px-2 py-1 text-sm focus:outline-none focus:ring-2 focus:ring-indigo-500"
              />
              <button className="rounded-md bg-slate-800 px-3 py-1 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus:ring-2 focus:ring-indigo-500">
                Search
              </button>
            </form>
          }
        >
          {list.items.length === 0 ? (
            <EmptyState title="No items">{search ? "Nothing matches this search." : "Add an item or import a CSV above."}</EmptyState>
          ) : (
            <Table caption="Store catalog items" head={["SKU", "Name", "Kind", "Price (AED)", "State", "Updated (Dubai)", ""]}>
              {list.items.map((item) => (
                <tr key={item.sku}>
                  <Td mono>{item.sku}</Td>
                  <Td>{item.name}</Td>
                  <Td>{item.kind === "PACKAGE" ? "Package" : "Product"}</Td>
                  <Td className="tabular-nums" mono>
                    {item.price}
                  </Td>
                  <Td>
                    <Badge tone={item.active ? "green" : "gray"}>{item.active ? "active" : "inactive"}</Badge>
                  </Td>
                  <Td>
                    <ConsoleTime at={item.updatedAt} zone={false} />
                  </Td>
                  <Td>
                    <ActionForm action={switchItem} label={`${item.active ? "Deactivate" : "Activate"} ${item.sku}`}>
                      <Hidden name="sku" value={item.sku} />
                      <Hidden name="active" value={item.active ? "false" : "true"} />
                      <SubmitButton variant="secondary">{item.active ? "Deactivate" : "Activate"}</SubmitButton>
                    </ActionForm>
                  </Td>
                </tr>
              ))}
            </Table>
          )}
          <Pager page={list.page} pages={list.pages} total={list.total} basePath="/console/catalog" params={{ search }} />
        </Card>
      </div>
    </>
  );
}
