from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="DeletedScenarioRule")


@_attrs_define
class DeletedScenarioRule:
    """The rule is gone from the list and from matching; payments it already matched keep their conclusion. Deleting it
    again answers the same.

        Attributes:
            id (UUID): The deleted rule's id.
            deleted (bool): Always true.
    """

    id: UUID
    deleted: bool

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        deleted = self.deleted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "deleted": deleted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        deleted = d.pop("deleted")

        deleted_scenario_rule = cls(
            id=id,
            deleted=deleted,
        )

        return deleted_scenario_rule
