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
      {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
      <PageHeader
        title={
          <>
            Payment <bdi data-testid="payment-title-reference">{view.payment.reference}</bdi>
          </>
        }
        description={
          <>
            {view.payment.amount} {view.payment.currency} · <bdi>{view.merchantName}</bdi>
          </>
        }
      />
      <PaymentDetail initial={view} approve={approvePayment} />
    </>
  );
}
