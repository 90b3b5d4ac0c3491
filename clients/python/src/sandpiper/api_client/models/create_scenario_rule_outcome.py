from enum import StrEnum


class CreateScenarioRuleOutcome(StrEnum):
    EXPIRE = "EXPIRE"
    FAILED = "FAILED"
    SUCCEEDED = "SUCCEEDED"

    def __str__(self) -> str:
        return str(self.value)
