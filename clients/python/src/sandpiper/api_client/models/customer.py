from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="Customer")


@_attrs_define
class Customer:
    """
    Attributes:
        id (str | Unset): Your stable customer identifier (merchant UID), at most 120 characters.
        email (str | Unset): E-mail address, at most 254 characters. Malformed: 400 INVALID_EMAIL.
        phone (str | Unset): Phone in international format with the country code, e.g. +971501234567. Not verified.
        ip (str | Unset): The customer's device IP (your declaration; unrelated to your server allow-list).
        country (str | Unset): ISO 3166-1 alpha-2 country code, e.g. AE (your declaration; not verified).
        username (str | Unset): The customer's user name with you, at most 120 characters; a store payment's stable
            customer reference when id is absent.
        first_name (str | Unset): Given name, at most 120 characters.
        last_name (str | Unset): Family name, at most 120 characters.
    """

    id: str | Unset = UNSET
    email: str | Unset = UNSET
    phone: str | Unset = UNSET
    ip: str | Unset = UNSET
    country: str | Unset = UNSET
    username: str | Unset = UNSET
    first_name: str | Unset = UNSET
    last_name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email: str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        phone: str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

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

        first_name = self.first_name

        last_name = self.last_name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if id is not UNSET:
            field_dict["id"] = id
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone
        if ip is not UNSET:
            field_dict["ip"] = ip
        if country is not UNSET:
            field_dict["country"] = country
        if username is not UNSET:
            field_dict["username"] = username
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if last_name is not UNSET:
            field_dict["lastName"] = last_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id", UNSET)

        def _parse_email(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_phone(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

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

        first_name = d.pop("firstName", UNSET)

        last_name = d.pop("lastName", UNSET)

        customer = cls(
            id=id,
            email=email,
            phone=phone,
            ip=ip,
            country=country,
            username=username,
            first_name=first_name,
            last_name=last_name,
        )

        return customer
