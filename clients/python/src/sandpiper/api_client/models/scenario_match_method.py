from enum import StrEnum


class ScenarioMatchMethod(StrEnum):
    BANK_TRANSFER = "BANK_TRANSFER"
    GATEWAY = "GATEWAY"

    def __str__(self) -> str:
        return str(self.value)
