-- Single-statement writes (docs/architecture.md "Hot paths"): a payment is created by one INSERT ... WITH statement
-- whose counters carry their bounds in their WHERE clauses. When a bound is not met the statement calls
-- refuse_statement(code), which raises and so undoes everything the statement wrote; the service maps the code
-- (DAILY_LIMIT, MONTHLY_LIMIT, RISK_REJECTED:<rule ids>, BANK_ROUTE_TAKEN) to the API's error.
CREATE OR REPLACE FUNCTION refuse_statement(code text) RETURNS boolean AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'SPREF', MESSAGE = code;
END
$$ LANGUAGE plpgsql VOLATILE;
