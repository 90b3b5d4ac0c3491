-- Return addresses of the customer pages (docs/api.md "Returning to your site"): where "Return to <merchant>" leads
-- from an ending page. A store payment's checkout and a checkout session may carry their own (return_url, and
-- cancel_url for the endings without a payment); the merchant's return_url is the default, set in the console. All
-- optional: rows from before have none, and their pages stay as they were.
ALTER TABLE "merchants" ADD COLUMN "return_url" TEXT;
ALTER TABLE "store_checkouts" ADD COLUMN "return_url" TEXT, ADD COLUMN "cancel_url" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "return_url" TEXT, ADD COLUMN "cancel_url" TEXT;
