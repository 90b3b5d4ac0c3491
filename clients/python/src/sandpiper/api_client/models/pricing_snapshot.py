from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="PricingSnapshot")


@_attrs_define
class PricingSnapshot:
    """Immutable pricing terms fixed at creation. Internal provider costs and company profit are never included.

    Attributes:
        schema (Literal[1]): Snapshot format version.
        fallback (bool): true when the merchant had no pricing profile: its default commission in the payment currency
            was used.
        rule_id (None | UUID): The pricing profile applied; null for fallback pricing.
        rule_version (int): The profile version applied; 0 for fallback pricing.
        rate_day (datetime.date): Dubai business day of the rate
        timezone (Literal['Asia/Dubai']): Time zone of rateDay.
        original_currency (str): The payment's currency (ISO 4217).
        charge_currency (str): Currency the customer is charged in (ISO 4217).
        settlement_currency (str): Currency the merchant is settled in (ISO 4217).
        base_rate (str): Direct rate originalCurrency -> chargeCurrency of rateDay, decimal text; "1" for the same
            currency.
        effective_rate (str): baseRate x (1 + markup) x (1 + buffer), decimal text: chargeCurrency per 1
            originalCurrency.
        settlement_rate (str): Direct rate originalCurrency -> settlementCurrency of rateDay, decimal text.
        commission_bps (int): Commission in basis points (250 = 2.50 %); 0 with a fixed commission.
        markup_bps (int): FX markup in basis points.
        buffer_bps (int): Risk buffer in basis points.
        reserve_bps (int): Reserve held back, in basis points of the amount.
        amount_minor (str): The amount in minor units of originalCurrency, integer string (112352 = 1123.52).
        fee (str): Commission, decimal text in originalCurrency.
        reserve (str): Reserve held back, decimal text in originalCurrency.
        merchant_net (str): Deposit: amount - fee - reserve; withdrawal: the merchant's debt, amount + fee. Decimal text
            in originalCurrency.
        settlement_net (str): merchantNet converted at settlementRate, decimal text in settlementCurrency.
        gateway (str): The charge: amount x effectiveRate, in minor units of chargeCurrency, integer string.
        at_base (str): amount x baseRate, in minor units of chargeCurrency, integer string.
        markup_income (str): Part of the charge from the markup, in minor units of chargeCurrency.
        buffer_income (str): Part of the charge from the buffer, in minor units of chargeCurrency.
        fx_income (str): markupIncome + bufferIncome, in minor units of chargeCurrency.
        delay_days (int): Settlement delay, in days.
        reserve_days (int): How long the reserve is held, in days.
    """

    schema: Literal[1]
    fallback: bool
    rule_id: None | UUID
    rule_version: int
    rate_day: datetime.date
    timezone: Literal["Asia/Dubai"]
    original_currency: str
    charge_currency: str
    settlement_currency: str
    base_rate: str
    effective_rate: str
    settlement_rate: str
    commission_bps: int
    markup_bps: int
    buffer_bps: int
    reserve_bps: int
    amount_minor: str
    fee: str
    reserve: str
    merchant_net: str
    settlement_net: str
    gateway: str
    at_base: str
    markup_income: str
    buffer_income: str
    fx_income: str
    delay_days: int
    reserve_days: int

    def to_dict(self) -> dict[str, Any]:
        schema = self.schema

        fallback = self.fallback

        rule_id: None | str
        if isinstance(self.rule_id, UUID):
            rule_id = str(self.rule_id)
        else:
            rule_id = self.rule_id

        rule_version = self.rule_version

        rate_day = self.rate_day.isoformat()

        timezone = self.timezone

        original_currency = self.original_currency

        charge_currency = self.charge_currency

        settlement_currency = self.settlement_currency

        base_rate = self.base_rate

        effective_rate = self.effective_rate

        settlement_rate = self.settlement_rate

        commission_bps = self.commission_bps

        markup_bps = self.markup_bps

        buffer_bps = self.buffer_bps

        reserve_bps = self.reserve_bps

        amount_minor = self.amount_minor

        fee = self.fee

        reserve = self.reserve

        merchant_net = self.merchant_net

        settlement_net = self.settlement_net

        gateway = self.gateway

        at_base = self.at_base

        markup_income = self.markup_income

        buffer_income = self.buffer_income

        fx_income = self.fx_income

        delay_days = self.delay_days

        reserve_days = self.reserve_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schema": schema,
                "fallback": fallback,
                "ruleId": rule_id,
                "ruleVersion": rule_version,
                "rateDay": rate_day,
                "timezone": timezone,
                "originalCurrency": original_currency,
                "chargeCurrency": charge_currency,
                "settlementCurrency": settlement_currency,
                "baseRate": base_rate,
                "effectiveRate": effective_rate,
                "settlementRate": settlement_rate,
                "commissionBps": commission_bps,
                "markupBps": markup_bps,
                "bufferBps": buffer_bps,
                "reserveBps": reserve_bps,
                "amountMinor": amount_minor,
                "fee": fee,
                "reserve": reserve,
                "merchantNet": merchant_net,
                "settlementNet": settlement_net,
                "gateway": gateway,
                "atBase": at_base,
                "markupIncome": markup_income,
                "bufferIncome": buffer_income,
                "fxIncome": fx_income,
                "delayDays": delay_days,
                "reserveDays": reserve_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        schema = cast(Literal[1], d.pop("schema"))
        if schema != 1:
            raise ValueError(f"schema must match const 1, got '{schema}'")

        fallback = d.pop("fallback")

        def _parse_rule_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rule_id_type_0 = UUID(data)

                return rule_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        rule_id = _parse_rule_id(d.pop("ruleId"))

        rule_version = d.pop("ruleVersion")

        rate_day = datetime.date.fromisoformat(d.pop("rateDay"))

        timezone = cast(Literal["Asia/Dubai"], d.pop("timezone"))
        if timezone != "Asia/Dubai":
            raise ValueError(
                f"timezone must match const 'Asia/Dubai', got '{timezone}'"
            )

        original_currency = d.pop("originalCurrency")

        charge_currency = d.pop("chargeCurrency")

        settlement_currency = d.pop("settlementCurrency")

        base_rate = d.pop("baseRate")

        effective_rate = d.pop("effectiveRate")

        settlement_rate = d.pop("settlementRate")

        commission_bps = d.pop("commissionBps")

        markup_bps = d.pop("markupBps")

        buffer_bps = d.pop("bufferBps")

        reserve_bps = d.pop("reserveBps")

        amount_minor = d.pop("amountMinor")

        fee = d.pop("fee")

        reserve = d.pop("reserve")

        merchant_net = d.pop("merchantNet")

        settlement_net = d.pop("settlementNet")

        gateway = d.pop("gateway")

        at_base = d.pop("atBase")

        markup_income = d.pop("markupIncome")

        buffer_income = d.pop("bufferIncome")

        fx_income = d.pop("fxIncome")

        delay_days = d.pop("delayDays")

        reserve_days = d.pop("reserveDays")

        pricing_snapshot = cls(
            schema=schema,
            fallback=fallback,
            rule_id=rule_id,
            rule_version=rule_version,
            rate_day=rate_day,
            timezone=timezone,
            original_currency=original_currency,
            charge_currency=charge_currency,
            settlement_currency=settlement_currency,
            base_rate=base_rate,
            effective_rate=effective_rate,
            settlement_rate=settlement_rate,
            commission_bps=commission_bps,
            markup_bps=markup_bps,
            buffer_bps=buffer_bps,
            reserve_bps=reserve_bps,
            amount_minor=amount_minor,
            fee=fee,
            reserve=reserve,
            merchant_net=merchant_net,
            settlement_net=settlement_net,
            gateway=gateway,
            at_base=at_base,
            markup_income=markup_income,
            buffer_income=buffer_income,
            fx_income=fx_income,
            delay_days=delay_days,
            reserve_days=reserve_days,
        )

        return pricing_snapshot
