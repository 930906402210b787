-- Atlas reads the primary's replication lag through this function. It runs with its owner's
-- rights (the owner role, a member of pg_read_all_stats), so the app role sees the lag columns of
-- pg_stat_replication and nothing else of the server's statistics (not other sessions' queries).
CREATE FUNCTION "public"."meridian_replication_status"()
RETURNS TABLE (
    application_name TEXT,
    state TEXT,
    write_lag INTERVAL,
    flush_lag INTERVAL,
    replay_lag INTERVAL,
    replay_lsn PG_LSN
)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
  SELECT application_name::text, state::text, write_lag, flush_lag, replay_lag, replay_lsn
    FROM pg_catalog.pg_stat_replication
$$;

REVOKE ALL ON FUNCTION "public"."meridian_replication_status"() FROM PUBLIC;
