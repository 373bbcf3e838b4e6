-- Rate-limit counters live one minute and need no crash safety: an unlogged table skips the
-- write-ahead log, so counting a request costs no disk flush. (Prisma's schema has no notion
-- of this; the schema diff ignores it.)
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
