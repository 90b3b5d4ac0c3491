from enum import StrEnum


class ScenarioRuleOutcome(StrEnum):
    EXPIRE = "EXPIRE"
    FAILED = "FAILED"
    SUCCEEDED = "SUCCEEDED"

    def __str__(self) -> str:
        return str(self.value)
