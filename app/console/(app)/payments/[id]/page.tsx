import Link from "next/link";
import { approvePayment } from "@/app/console/actions/payments";
import { PaymentDetail } from "@/components/console/payment-detail";
import { PageHeader, linkClass } from "@/components/console/ui";
import { getPaymentView } from "@/lib/domain/payments/payment-views";
import { orNotFound, requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  const { id } = await params;
  const view = await orNotFound(getPaymentView(getDb(), actor, id));
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className={linkClass} href="/console/payments">
          ← Payments
        </Link>
      </p>
      <PageHeader title={`Payment ${view.payment.reference}`} description={`${view.payment.amount} ${view.payment.currency} · ${view.merchantName}`} />
      <PaymentDetail initial={view} approve={approvePayment} />
    </>
  );
}
