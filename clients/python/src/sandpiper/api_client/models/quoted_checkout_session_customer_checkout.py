from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="QuotedCheckoutSessionCustomerCheckout")


@_attrs_define
class QuotedCheckoutSessionCustomerCheckout:
    """The customer's page: give url to the customer.

    Attributes:
        url (str): bearer link for the customer: never log or publish it
        expires_at (datetime.datetime): When the link stops working (ISO 8601, UTC).
    """

    url: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "expiresAt": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        quoted_checkout_session_customer_checkout = cls(
            url=url,
            expires_at=expires_at,
        )

        return quoted_checkout_session_customer_checkout
