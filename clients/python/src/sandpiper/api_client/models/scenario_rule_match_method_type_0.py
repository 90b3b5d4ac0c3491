from enum import StrEnum


class ScenarioRuleMatchMethodType0(StrEnum):
    BANK_TRANSFER = "BANK_TRANSFER"
    GATEWAY = "GATEWAY"

    def __str__(self) -> str:
        return str(self.value)
