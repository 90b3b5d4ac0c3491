-- Request rate limits shared by every process on this database (lib/application/http/rate-limit.ts, store "postgres"):
-- one row per limited key (API key or source IP) with the points used in its current window.
CREATE TABLE "rate_limits" (
  "key" VARCHAR(255) NOT NULL,
  "points" INTEGER NOT NULL DEFAULT 0,
  "expire" BIGINT,
  CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);
