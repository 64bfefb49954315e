-- ledger_close_holds runs on every result, cancellation and expiry. Two of its statements — the
-- lock on its players' accounts (user_id = ANY of an array) and the UPDATE of its holds (id = ANY
-- of an array) — were planned afresh on every call: PL/pgSQL's plan cache keeps choosing custom
-- plans when the generic plan's estimate for an array parameter looks costlier, although both
-- plans are the same index scans. Measured with pg_stat_statements (track = all, track_planning):
-- 73 µs and 30 µs of planning per call, about a tenth of the function's time. Its statements
-- all look rows up by key or by a small array, so one generic plan each serves every call.
ALTER FUNCTION ledger_close_holds(text, text, uuid, uuid, uuid, uuid, uuid, text) SET plan_cache_mode = force_generic_plan;
