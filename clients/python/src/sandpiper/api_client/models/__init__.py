"""Contains all the data models used in inputs/outputs"""

from .advance_sandbox_clock import AdvanceSandboxClock
from .callback_secret_rotation import CallbackSecretRotation
from .callback_secret_state import CallbackSecretState
from .checkout_object import CheckoutObject
from .checkout_object_state import CheckoutObjectState
from .checkout_session import CheckoutSession
from .checkout_session_customer_checkout import CheckoutSessionCustomerCheckout
from .checkout_session_state import CheckoutSessionState
from .checkout_session_verification import CheckoutSessionVerification
from .complete_payment import CompletePayment
from .complete_payment_outcome import CompletePaymentOutcome
from .complete_sandbox_payment import CompleteSandboxPayment
from .complete_sandbox_payment_outcome import CompleteSandboxPaymentOutcome
from .create_checkout_session import CreateCheckoutSession
from .create_checkout_session_customer import CreateCheckoutSessionCustomer
from .create_payment import CreatePayment
from .create_payment_currency import CreatePaymentCurrency
from .create_payment_direction import CreatePaymentDirection
from .create_payment_method import CreatePaymentMethod
from .create_scenario_rule import CreateScenarioRule
from .create_scenario_rule_outcome import CreateScenarioRuleOutcome
from .create_store_payment import CreateStorePayment
from .create_store_payment_currency import CreateStorePaymentCurrency
from .customer import Customer
from .customer_page_amount import CustomerPageAmount
from .customer_page_amount_currency import CustomerPageAmountCurrency
from .customer_session_answer import CustomerSessionAnswer
from .customer_session_answer_state import CustomerSessionAnswerState
from .deleted_scenario_rule import DeletedScenarioRule
from .error import Error
from .error_code import ErrorCode
from .error_error import ErrorError
from .event import Event
from .event_data import EventData
from .event_data_direction import EventDataDirection
from .event_data_method import EventDataMethod
from .event_data_sandbox_clock import EventDataSandboxClock
from .event_data_status import EventDataStatus
from .event_delivery import EventDelivery
from .event_delivery_deliveries_item import EventDeliveryDeliveriesItem
from .event_delivery_deliveries_item_attempts_item import (
    EventDeliveryDeliveriesItemAttemptsItem,
)
from .event_delivery_deliveries_item_state import EventDeliveryDeliveriesItemState
from .event_delivery_state import EventDeliveryState
from .event_envelope import EventEnvelope
from .event_envelope_data import EventEnvelopeData
from .event_envelope_data_direction import EventEnvelopeDataDirection
from .event_envelope_data_method import EventEnvelopeDataMethod
from .event_envelope_data_sandbox_clock import EventEnvelopeDataSandboxClock
from .event_envelope_data_status import EventEnvelopeDataStatus
from .event_envelope_type import EventEnvelopeType
from .event_list import EventList
from .event_redelivery import EventRedelivery
from .event_redelivery_delivery_type_0 import EventRedeliveryDeliveryType0
from .event_stream_page import EventStreamPage
from .event_stream_page_items_item import EventStreamPageItemsItem
from .event_stream_page_items_item_chaos_type_0 import (
    EventStreamPageItemsItemChaosType0,
)
from .event_stream_page_items_item_chaos_type_0_kinds_item import (
    EventStreamPageItemsItemChaosType0KindsItem,
)
from .event_stream_page_items_item_kind import EventStreamPageItemsItemKind
from .event_stream_page_items_item_type import EventStreamPageItemsItemType
from .event_summary import EventSummary
from .event_summary_data import EventSummaryData
from .event_summary_data_direction import EventSummaryDataDirection
from .event_summary_data_method import EventSummaryDataMethod
from .event_summary_data_sandbox_clock import EventSummaryDataSandboxClock
from .event_summary_data_status import EventSummaryDataStatus
from .event_summary_delivery import EventSummaryDelivery
from .event_summary_delivery_state import EventSummaryDeliveryState
from .event_summary_type import EventSummaryType
from .event_type import EventType
from .failure_code import FailureCode
from .forwards_recorded import ForwardsRecorded
from .forwards_recorded_refused_item import ForwardsRecordedRefusedItem
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .list_events_type import ListEventsType
from .list_payments_currency import ListPaymentsCurrency
from .list_payments_direction import ListPaymentsDirection
from .list_payments_method import ListPaymentsMethod
from .list_payments_status import ListPaymentsStatus
from .list_requests_method import ListRequestsMethod
from .listener_forward import ListenerForward
from .listener_forward_attempts_item import ListenerForwardAttemptsItem
from .listener_forward_kind import ListenerForwardKind
from .listener_forward_state import ListenerForwardState
from .listener_secret_rotation import ListenerSecretRotation
from .listener_secret_state import ListenerSecretState
from .payment import Payment
from .payment_direction import PaymentDirection
from .payment_failure import PaymentFailure
from .payment_list import PaymentList
from .payment_method import PaymentMethod
from .payment_sandbox_clock import PaymentSandboxClock
from .payment_scenario import PaymentScenario
from .payment_scenario_outcome import PaymentScenarioOutcome
from .payment_status import PaymentStatus
from .payment_summary import PaymentSummary
from .payment_summary_direction import PaymentSummaryDirection
from .payment_summary_method import PaymentSummaryMethod
from .payment_summary_sandbox_clock import PaymentSummarySandboxClock
from .payment_summary_status import PaymentSummaryStatus
from .pricing_snapshot import PricingSnapshot
from .quoted_checkout_session import QuotedCheckoutSession
from .quoted_checkout_session_customer_checkout import (
    QuotedCheckoutSessionCustomerCheckout,
)
from .quoted_checkout_session_quote_type_0 import QuotedCheckoutSessionQuoteType0
from .quoted_checkout_session_quote_type_0_bank_account import (
    QuotedCheckoutSessionQuoteType0BankAccount,
)
from .quoted_checkout_session_state import QuotedCheckoutSessionState
from .quoted_checkout_session_verification import QuotedCheckoutSessionVerification
from .record_forwards import RecordForwards
from .record_forwards_forwards_item import RecordForwardsForwardsItem
from .record_forwards_forwards_item_kind import RecordForwardsForwardsItemKind
from .request_log_entry import RequestLogEntry
from .request_log_entry_resource_type_0 import RequestLogEntryResourceType0
from .request_log_entry_resource_type_0_type import RequestLogEntryResourceType0Type
from .request_log_list import RequestLogList
from .rotate_secret import RotateSecret
from .sandbox_clock import SandboxClock
from .sandbox_clock_due import SandboxClockDue
from .sandbox_clock_missing_rates_item import SandboxClockMissingRatesItem
from .sandbox_clock_move import SandboxClockMove
from .sandbox_clock_move_due import SandboxClockMoveDue
from .sandbox_clock_move_expired import SandboxClockMoveExpired
from .sandbox_clock_move_missing_rates_item import SandboxClockMoveMissingRatesItem
from .sandbox_delivery import SandboxDelivery
from .sandbox_delivery_state import SandboxDeliveryState
from .sandbox_settings import SandboxSettings
from .sandbox_settings_callback_retries import SandboxSettingsCallbackRetries
from .scenario_match import ScenarioMatch
from .scenario_match_currency import ScenarioMatchCurrency
from .scenario_match_direction import ScenarioMatchDirection
from .scenario_match_method import ScenarioMatchMethod
from .scenario_rule import ScenarioRule
from .scenario_rule_list import ScenarioRuleList
from .scenario_rule_match import ScenarioRuleMatch
from .scenario_rule_match_direction_type_0 import ScenarioRuleMatchDirectionType0
from .scenario_rule_match_method_type_0 import ScenarioRuleMatchMethodType0
from .scenario_rule_outcome import ScenarioRuleOutcome
from .session_amount import SessionAmount
from .session_amount_currency import SessionAmountCurrency
from .store_confirmation_answer import StoreConfirmationAnswer
from .store_confirmation_answer_state import StoreConfirmationAnswerState
from .store_confirmation_answer_status import StoreConfirmationAnswerStatus
from .store_payment import StorePayment
from .store_payment_direction import StorePaymentDirection
from .store_payment_method import StorePaymentMethod
from .store_payment_sandbox_clock import StorePaymentSandboxClock
from .store_payment_status import StorePaymentStatus
from .update_sandbox_settings import UpdateSandboxSettings
from .update_scenario_rule import UpdateScenarioRule
from .update_scenario_rule_outcome import UpdateScenarioRuleOutcome

__all__ = (
    "AdvanceSandboxClock",
    "CallbackSecretRotation",
    "CallbackSecretState",
    "CheckoutObject",
    "CheckoutObjectState",
    "CheckoutSession",
    "CheckoutSessionCustomerCheckout",
    "CheckoutSessionState",
    "CheckoutSessionVerification",
    "CompletePayment",
    "CompletePaymentOutcome",
    "CompleteSandboxPayment",
    "CompleteSandboxPaymentOutcome",
    "CreateCheckoutSession",
    "CreateCheckoutSessionCustomer",
    "CreatePayment",
    "CreatePaymentCurrency",
    "CreatePaymentDirection",
    "CreatePaymentMethod",
    "CreateScenarioRule",
    "CreateScenarioRuleOutcome",
    "CreateStorePayment",
    "CreateStorePaymentCurrency",
    "Customer",
    "CustomerPageAmount",
    "CustomerPageAmountCurrency",
    "CustomerSessionAnswer",
    "CustomerSessionAnswerState",
    "DeletedScenarioRule",
    "Error",
    "ErrorCode",
    "ErrorError",
    "Event",
    "EventData",
    "EventDataDirection",
    "EventDataMethod",
    "EventDataSandboxClock",
    "EventDataStatus",
    "EventDelivery",
    "EventDeliveryDeliveriesItem",
    "EventDeliveryDeliveriesItemAttemptsItem",
    "EventDeliveryDeliveriesItemState",
    "EventDeliveryState",
    "EventEnvelope",
    "EventEnvelopeData",
    "EventEnvelopeDataDirection",
    "EventEnvelopeDataMethod",
    "EventEnvelopeDataSandboxClock",
    "EventEnvelopeDataStatus",
    "EventEnvelopeType",
    "EventList",
    "EventRedelivery",
    "EventRedeliveryDeliveryType0",
    "EventStreamPage",
    "EventStreamPageItemsItem",
    "EventStreamPageItemsItemChaosType0",
    "EventStreamPageItemsItemChaosType0KindsItem",
    "EventStreamPageItemsItemKind",
    "EventStreamPageItemsItemType",
    "EventSummary",
    "EventSummaryData",
    "EventSummaryDataDirection",
    "EventSummaryDataMethod",
    "EventSummaryDataSandboxClock",
    "EventSummaryDataStatus",
    "EventSummaryDelivery",
    "EventSummaryDeliveryState",
    "EventSummaryType",
    "EventType",
    "FailureCode",
    "ForwardsRecorded",
    "ForwardsRecordedRefusedItem",
    "GetOpenApiDocumentResponse200",
    "ListEventsType",
    "ListPaymentsCurrency",
    "ListPaymentsDirection",
    "ListPaymentsMethod",
    "ListPaymentsStatus",
    "ListRequestsMethod",
    "ListenerForward",
    "ListenerForwardAttemptsItem",
    "ListenerForwardKind",
    "ListenerForwardState",
    "ListenerSecretRotation",
    "ListenerSecretState",
    "Payment",
    "PaymentDirection",
    "PaymentFailure",
    "PaymentList",
    "PaymentMethod",
    "PaymentSandboxClock",
    "PaymentScenario",
    "PaymentScenarioOutcome",
    "PaymentStatus",
    "PaymentSummary",
    "PaymentSummaryDirection",
    "PaymentSummaryMethod",
    "PaymentSummarySandboxClock",
    "PaymentSummaryStatus",
    "PricingSnapshot",
    "QuotedCheckoutSession",
    "QuotedCheckoutSessionCustomerCheckout",
    "QuotedCheckoutSessionQuoteType0",
    "QuotedCheckoutSessionQuoteType0BankAccount",
    "QuotedCheckoutSessionState",
    "QuotedCheckoutSessionVerification",
    "RecordForwards",
    "RecordForwardsForwardsItem",
    "RecordForwardsForwardsItemKind",
    "RequestLogEntry",
    "RequestLogEntryResourceType0",
    "RequestLogEntryResourceType0Type",
    "RequestLogList",
    "RotateSecret",
    "SandboxClock",
    "SandboxClockDue",
    "SandboxClockMissingRatesItem",
    "SandboxClockMove",
    "SandboxClockMoveDue",
    "SandboxClockMoveExpired",
    "SandboxClockMoveMissingRatesItem",
    "SandboxDelivery",
    "SandboxDeliveryState",
    "SandboxSettings",
    "SandboxSettingsCallbackRetries",
    "ScenarioMatch",
    "ScenarioMatchCurrency",
    "ScenarioMatchDirection",
    "ScenarioMatchMethod",
    "ScenarioRule",
    "ScenarioRuleList",
    "ScenarioRuleMatch",
    "ScenarioRuleMatchDirectionType0",
    "ScenarioRuleMatchMethodType0",
    "ScenarioRuleOutcome",
    "SessionAmount",
    "SessionAmountCurrency",
    "StoreConfirmationAnswer",
    "StoreConfirmationAnswerState",
    "StoreConfirmationAnswerStatus",
    "StorePayment",
    "StorePaymentDirection",
    "StorePaymentMethod",
    "StorePaymentSandboxClock",
    "StorePaymentStatus",
    "UpdateSandboxSettings",
    "UpdateScenarioRule",
    "UpdateScenarioRuleOutcome",
)
