from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.failure_code import FailureCode
from ..models.update_scenario_rule_outcome import UpdateScenarioRuleOutcome
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scenario_match import ScenarioMatch


T = TypeVar("T", bound="UpdateScenarioRule")


@_attrs_define
class UpdateScenarioRule:
    """The members of a scenario rule to change; the others keep their values.

    Attributes:
        name (str | Unset): A name shown on the payments the rule concludes.
        enabled (bool | Unset): Switch the rule on or off.
        position (int | Unset): Order among the merchant's rules (the first enabled match wins).
        match (ScenarioMatch | Unset): Which new payments the rule concludes: every member given must hold. amount or
            referencePrefix is required.
        outcome (UpdateScenarioRuleOutcome | Unset): SUCCEEDED, FAILED or EXPIRE.
        delay_ms (int | Unset): Milliseconds from creation (for a withdrawal: from approval) to the conclusion, 0 to
            3600000. Ignored for EXPIRE.
        failure_code (FailureCode | None | Unset): Only with outcome FAILED: the failure code the payments the rule
            fails show as `failure: {code, message}` (docs: "Failure codes"). null removes it (needed when outcome changes
            from FAILED while the rule has one).
    """

    name: str | Unset = UNSET
    enabled: bool | Unset = UNSET
    position: int | Unset = UNSET
    match: ScenarioMatch | Unset = UNSET
    outcome: UpdateScenarioRuleOutcome | Unset = UNSET
    delay_ms: int | Unset = UNSET
    failure_code: FailureCode | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        enabled = self.enabled

        position = self.position

        match: dict[str, Any] | Unset = UNSET
        if not isinstance(self.match, Unset):
            match = self.match.to_dict()

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value

        delay_ms = self.delay_ms

        failure_code: None | str | Unset
        if isinstance(self.failure_code, Unset):
            failure_code = UNSET
        elif isinstance(self.failure_code, FailureCode):
            failure_code = self.failure_code.value
        else:
            failure_code = self.failure_code

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if position is not UNSET:
            field_dict["position"] = position
        if match is not UNSET:
            field_dict["match"] = match
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if delay_ms is not UNSET:
            field_dict["delayMs"] = delay_ms
        if failure_code is not UNSET:
            field_dict["failureCode"] = failure_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scenario_match import ScenarioMatch

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        enabled = d.pop("enabled", UNSET)

        position = d.pop("position", UNSET)

        _match = d.pop("match", UNSET)
        match: ScenarioMatch | Unset
        if isinstance(_match, Unset):
            match = UNSET
        else:
            match = ScenarioMatch.from_dict(_match)

        _outcome = d.pop("outcome", UNSET)
        outcome: UpdateScenarioRuleOutcome | Unset
        if isinstance(_outcome, Unset):
            outcome = UNSET
        else:
            outcome = UpdateScenarioRuleOutcome(_outcome)

        delay_ms = d.pop("delayMs", UNSET)

        def _parse_failure_code(data: object) -> FailureCode | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failure_code_type_0 = FailureCode(data)

                return failure_code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FailureCode | None | Unset, data)

        failure_code = _parse_failure_code(d.pop("failureCode", UNSET))

        update_scenario_rule = cls(
            name=name,
            enabled=enabled,
            position=position,
            match=match,
            outcome=outcome,
            delay_ms=delay_ms,
            failure_code=failure_code,
        )

        return update_scenario_rule
