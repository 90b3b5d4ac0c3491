from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateCheckoutSessionCustomer")


@_attrs_define
class CreateCheckoutSessionCustomer:
    """id, firstName, lastName, email and phone (international format with the country code) are required. A missing or
    blank one answers 400 CUSTOMER_PROFILE_REQUIRED naming it.

        Attributes:
            id (str): Your stable customer identifier (merchant UID), at most 120 characters.
            email (str): E-mail address, at most 254 characters. Malformed: 400 INVALID_EMAIL.
            phone (str): Phone in international format with the country code, e.g. +971501234567. Not verified.
            first_name (str): Given name, at most 120 characters.
            last_name (str): Family name, at most 120 characters.
            ip (str | Unset): The customer's device IP (your declaration; unrelated to your server allow-list).
            country (str | Unset): ISO 3166-1 alpha-2 country code, e.g. AE (your declaration; not verified).
            username (str | Unset): The customer's user name with you, at most 120 characters; a store payment's stable
                customer reference when id is absent.
    """

    id: str
    email: str
    phone: str
    first_name: str
    last_name: str
    ip: str | Unset = UNSET
    country: str | Unset = UNSET
    username: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email: str
        email = self.email

        phone: str
        phone = self.phone

        first_name = self.first_name

        last_name = self.last_name

        ip: str | Unset
        if isinstance(self.ip, Unset):
            ip = UNSET
        else:
            ip = self.ip

        country: str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        else:
            country = self.country

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
                "phone": phone,
                "firstName": first_name,
                "lastName": last_name,
            }
        )
        if ip is not UNSET:
            field_dict["ip"] = ip
        if country is not UNSET:
            field_dict["country"] = country
        if username is not UNSET:
            field_dict["username"] = username

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_email(data: object) -> str:
            return cast(str, data)

        email = _parse_email(d.pop("email"))

        def _parse_phone(data: object) -> str:
            return cast(str, data)

        phone = _parse_phone(d.pop("phone"))

        first_name = d.pop("firstName")

        last_name = d.pop("lastName")

        def _parse_ip(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        ip = _parse_ip(d.pop("ip", UNSET))

        def _parse_country(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        country = _parse_country(d.pop("country", UNSET))

        username = d.pop("username", UNSET)

        create_checkout_session_customer = cls(
            id=id,
            email=email,
            phone=phone,
            first_name=first_name,
            last_name=last_name,
            ip=ip,
            country=country,
            username=username,
        )

        return create_checkout_session_customer
