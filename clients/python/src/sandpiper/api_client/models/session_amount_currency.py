from enum import StrEnum


class SessionAmountCurrency(StrEnum):
    AED = "AED"
    CHF = "CHF"
    EUR = "EUR"
    GBP = "GBP"
    SAR = "SAR"
    TRY = "TRY"
    USD = "USD"

    def __str__(self) -> str:
        return str(self.value)
