from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_data_direction import EventDataDirection
from ..models.event_data_method import EventDataMethod
from ..models.event_data_status import EventDataStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_data_sandbox_clock import EventDataSandboxClock
    from ..models.payment_failure import PaymentFailure
    from ..models.payment_scenario import PaymentScenario
    from ..models.pricing_snapshot import PricingSnapshot


T = TypeVar("T", bound="EventData")


@_attrs_define
class EventData:
    """the full Payment without the customer member, as it was when the event was recorded

    Attributes:
        id (UUID): Payment id.
        merchant_id (UUID): Your merchant id.
        reference (str): Your reference, unique among your payments.
        amount (str): The original order amount, decimal text in currency.
        fee (str): The commission, decimal text in currency.
        currency (str): The original currency (ISO 4217).
        method (EventDataMethod): Payment method.
        direction (EventDataDirection): DEPOSIT (customer pays you) or WITHDRAWAL (you pay the customer).
        environment (Literal['sandbox']): Always sandbox: no money moves.
        status (EventDataStatus): The authority on the result: PENDING_APPROVAL, PENDING, SUCCEEDED, FAILED, CANCELLED
            (reserved) or EXPIRED.
        pricing (None | PricingSnapshot): null possible for historical v0.1 payments
        bank_account_id (None | UUID): Receiving bank account of a bank-transfer deposit; null otherwise.
        created_at (datetime.datetime): Creation time (ISO 8601, UTC).
        expires_at (datetime.datetime | None): end of the acceptance period; null for records of an older version (never
            auto-expired)
        approved_at (datetime.datetime | None): When a withdrawal was approved; null otherwise (ISO 8601, UTC).
        finalized_at (datetime.datetime | None): When the payment reached SUCCEEDED, FAILED or EXPIRED; null before (ISO
            8601, UTC).
        failure (PaymentFailure | Unset): Why the payment failed. Present only on a FAILED payment concluded with a
            failure code; absent otherwise.
        scenario (PaymentScenario | Unset): The scenario rule that matched this payment at creation. Present only on
            payments a rule matched.
        sandbox_clock (EventDataSandboxClock | Unset): Present only when the payment was created or expired while the
            merchant's sandbox clock was moved (docs: Sandbox clock): its times (createdAt, expiresAt, finalizedAt) are
            sandbox times.
    """

    id: UUID
    merchant_id: UUID
    reference: str
    amount: str
    fee: str
    currency: str
    method: EventDataMethod
    direction: EventDataDirection
    environment: Literal["sandbox"]
    status: EventDataStatus
    pricing: None | PricingSnapshot
    bank_account_id: None | UUID
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    approved_at: datetime.datetime | None
    finalized_at: datetime.datetime | None
    failure: PaymentFailure | Unset = UNSET
    scenario: PaymentScenario | Unset = UNSET
    sandbox_clock: EventDataSandboxClock | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.pricing_snapshot import PricingSnapshot

        id = str(self.id)

        merchant_id = str(self.merchant_id)

        reference = self.reference

        amount = self.amount

        fee = self.fee

        currency = self.currency

        method = self.method.value

        direction = self.direction.value

        environment = self.environment

        status = self.status.value

        pricing: dict[str, Any] | None
        if isinstance(self.pricing, PricingSnapshot):
            pricing = self.pricing.to_dict()
        else:
            pricing = self.pricing

        bank_account_id: None | str
        if isinstance(self.bank_account_id, UUID):
            bank_account_id = str(self.bank_account_id)
        else:
            bank_account_id = self.bank_account_id

        created_at = self.created_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        approved_at: None | str
        if isinstance(self.approved_at, datetime.datetime):
            approved_at = self.approved_at.isoformat()
        else:
            approved_at = self.approved_at

        finalized_at: None | str
        if isinstance(self.finalized_at, datetime.datetime):
            finalized_at = self.finalized_at.isoformat()
        else:
            finalized_at = self.finalized_at

        failure: dict[str, Any] | Unset = UNSET
        if not isinstance(self.failure, Unset):
            failure = self.failure.to_dict()

        scenario: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scenario, Unset):
            scenario = self.scenario.to_dict()

        sandbox_clock: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sandbox_clock, Unset):
            sandbox_clock = self.sandbox_clock.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "merchantId": merchant_id,
                "reference": reference,
                "amount": amount,
                "fee": fee,
                "currency": currency,
                "method": method,
                "direction": direction,
                "environment": environment,
                "status": status,
                "pricing": pricing,
                "bankAccountId": bank_account_id,
                "createdAt": created_at,
                "expiresAt": expires_at,
                "approvedAt": approved_at,
                "finalizedAt": finalized_at,
            }
        )
        if failure is not UNSET:
            field_dict["failure"] = failure
        if scenario is not UNSET:
            field_dict["scenario"] = scenario
        if sandbox_clock is not UNSET:
            field_dict["sandboxClock"] = sandbox_clock

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data_sandbox_clock import (
            EventDataSandboxClock,
        )
        from ..models.payment_failure import PaymentFailure
        from ..models.payment_scenario import PaymentScenario
        from ..models.pricing_snapshot import PricingSnapshot

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        merchant_id = UUID(d.pop("merchantId"))

        reference = d.pop("reference")

        amount = d.pop("amount")

        fee = d.pop("fee")

        currency = d.pop("currency")

        method = EventDataMethod(d.pop("method"))

        direction = EventDataDirection(d.pop("direction"))

        environment = cast(Literal["sandbox"], d.pop("environment"))
        if environment != "sandbox":
            raise ValueError(
                f"environment must match const 'sandbox', got '{environment}'"
            )

        status = EventDataStatus(d.pop("status"))

        def _parse_pricing(data: object) -> None | PricingSnapshot:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pricing_type_0 = PricingSnapshot.from_dict(data)

                return pricing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PricingSnapshot, data)

        pricing = _parse_pricing(d.pop("pricing"))

        def _parse_bank_account_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bank_account_id_type_0 = UUID(data)

                return bank_account_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        bank_account_id = _parse_bank_account_id(d.pop("bankAccountId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))

        def _parse_approved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approved_at_type_0 = datetime.datetime.fromisoformat(data)

                return approved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        approved_at = _parse_approved_at(d.pop("approvedAt"))

        def _parse_finalized_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finalized_at_type_0 = datetime.datetime.fromisoformat(data)

                return finalized_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finalized_at = _parse_finalized_at(d.pop("finalizedAt"))

        _failure = d.pop("failure", UNSET)
        failure: PaymentFailure | Unset
        if isinstance(_failure, Unset):
            failure = UNSET
        else:
            failure = PaymentFailure.from_dict(_failure)

        _scenario = d.pop("scenario", UNSET)
        scenario: PaymentScenario | Unset
        if isinstance(_scenario, Unset):
            scenario = UNSET
        else:
            scenario = PaymentScenario.from_dict(_scenario)

        _sandbox_clock = d.pop("sandboxClock", UNSET)
        sandbox_clock: EventDataSandboxClock | Unset
        if isinstance(_sandbox_clock, Unset):
            sandbox_clock = UNSET
        else:
            sandbox_clock = EventDataSandboxClock.from_dict(_sandbox_clock)

        event_data = cls(
            id=id,
            merchant_id=merchant_id,
            reference=reference,
            amount=amount,
            fee=fee,
            currency=currency,
            method=method,
            direction=direction,
            environment=environment,
            status=status,
            pricing=pricing,
            bank_account_id=bank_account_id,
            created_at=created_at,
            expires_at=expires_at,
            approved_at=approved_at,
            finalized_at=finalized_at,
            failure=failure,
            scenario=scenario,
            sandbox_clock=sandbox_clock,
        )

        return event_data
