import Link from "next/link";
import { ActionForm, Field, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, Notice, PageHeader, Table, Td } from "@/components/console/ui";
import { enterRate, importRatesAction } from "@/app/console/actions/rates";
import { param } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { MAX_DAYS_AHEAD, missingRatesToday, rateDays, ratesOfDay } from "@/lib/domain/pricing/fx-rates";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { CURRENCIES } from "@/lib/contract/money/currency";
import { dubaiDay, isValidDay } from "@/lib/contract/money/dubai";
import { countOf } from "@/lib/application/console/words";

export const dynamic = "force-dynamic";

const currencies = CURRENCIES.map((c) => ({ value: c, label: c }));

export default async function RatesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperatorPage();
  const today = dubaiDay();
  const query = await searchParams;
  const asked = param(query.day);
  const day = asked && isValidDay(asked) ? asked : today;
  // A link from a warning (Overview, this page) fills the form with its pair and first missing day.
  const pick = (name: string, fallback: string) => {
    const v = param(query[name]);
    return v && (CURRENCIES as readonly string[]).includes(v) ? v : fallback;
  };
  const db = getDb();
  const [rates, days, missing] = await Promise.all([ratesOfDay(db, day), rateDays(db), missingRatesToday(db)]);
  const pickDays = [...new Set([today, ...days])].sort().reverse();
  return (
    <>
      <PageHeader
        title="FX rates"
        description={`Base rates per direct currency pair per Dubai business day (today is ${today}). A reverse pair is a separate entry. A cross-currency payment needs today's direct rate, or it is refused with 409 FX_RATE_MISSING.`}
      />
      <div className="space-y-4">
        {missing.length > 0 ? (
          <Notice tone="warning" title={`Missing rates for today (${today})`}>
            <ul className="list-disc pl-5" data-testid="missing-rates">
              {missing.map((m) => (
                <li key={m.pair}>
                  <strong>{m.pair}</strong> {m.usedBy > 0 ? `— needed by ${countOf(m.usedBy, "enabled pricing profile")}` : "— had a rate on an earlier day"}
                </li>
              ))}
            </ul>
          </Notice>
        ) : (
          <Notice tone="success">Every pair in use has a rate for today.</Notice>
        )}
        <Card
          title="Enter a rate"
          description={`Rate = units of the quote currency per 1 unit of the base currency. Give a last day to enter the same rate for every day of a range (up to ${MAX_DAYS_AHEAD} days ahead). Entering a pair again for a day corrects it; payments already created keep their snapshot.`}
        >
          <ActionForm action={enterRate} label="Enter a rate" className="grid grid-cols-2 gap-4 lg:grid-cols-6" resetOnSuccess>
            <Field name="base" label="Base" required options={currencies} defaultValue={pick("base", "USD")} />
            <Field name="quote" label="Quote" required options={currencies} defaultValue={pick("quote", "AED")} />
            <Field name="day" label="Dubai day (first)" type="date" required defaultValue={asked && isValidDay(asked) && asked >= today ? asked : today} />
            <Field name="through" label="Last day (optional)" type="date" />
            <Field name="rate" label="Rate" required inputMode="decimal" placeholder="3.6725" />
            <Field name="reason" label="Reason" required placeholder="e.g. daily rate from treasury" className="col-span-2" />
            <div className="col-span-2 lg:col-span-6">
              <SubmitButton>Save rate</SubmitButton>
            </div>
          </ActionForm>
        </Card>
        <Card
          title="Import rates (CSV)"
          description="One entry a line: base,quote,from,through,rate (Dubai days YYYY-MM-DD; leave through empty for one day). All or nothing: a wrong line imports nothing and is named. Each line is audited like an entry of the form."
        >
          <ActionForm action={importRatesAction} label="Import rates CSV" className="space-y-3" resetOnSuccess>
            <Field name="csv" label="CSV text" required multiline placeholder={`base,quote,from,through,rate\nUSD,AED,${today},,3.6725`} />
            <Field name="reason" label="Reason" required placeholder="monthly rates from treasury" />
            <SubmitButton>Import rates</SubmitButton>
          </ActionForm>
        </Card>
        <Card
          title={`Rates for ${day}${day === today ? " (today)" : ""}`}
          actions={
            <nav aria-label="Days" className="flex max-w-full flex-wrap gap-1.5">
              {pickDays.slice(0, 10).map((d) => (
                <Link
                  key={d}
                  href={`/console/rates?day=${d}`}
                  aria-current={d === day ? "page" : undefined}
                  className={`rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset ${d === day ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
                >
                  {d}
                </Link>
              ))}
            </nav>
          }
        >
          {rates.length === 0 ? (
            <EmptyState title={`No rates for ${day}`}>Enter one above.</EmptyState>
          ) : (
            <Table caption={`Rates for ${day}`} head={["Pair", "Rate", "Entered (Dubai)"]}>
              {rates.map((r) => (
                <tr key={r.id}>
                  <Td className="font-medium">
                    {r.base} → {r.quote}
                  </Td>
                  <Td className="tabular-nums" mono>
                    {r.rate}
                  </Td>
                  <Td>
                    <ConsoleTime at={r.createdAt} zone={false} />
                  </Td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
      </div>
    </>
  );
}
