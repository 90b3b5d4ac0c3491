-- The refusal code of a single-statement write travels in the error's DETAIL member, where the service reads it
-- (lib/domain/payments/create.ts); the message says in words what happened, for a log or a psql session.
CREATE OR REPLACE FUNCTION refuse_statement(code text) RETURNS boolean AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'SPREF', MESSAGE = 'statement refused by its bound: ' || code, DETAIL = code;
END
$$ LANGUAGE plpgsql VOLATILE;
