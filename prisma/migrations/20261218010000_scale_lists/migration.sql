-- Issue 28, from the scale bench (npm run bench scale): Atlas' audit log by actor reads the actor's
-- events newest first from an index instead of sorting all of them (an actor with 100,000 events
-- took 69 ms); its actor_id prefix serves what the old index did (the foreign key's look-ups).
DROP INDEX "public"."audit_events_actor_id_idx";
CREATE INDEX "audit_events_actor_id_created_at_id_idx" ON "public"."audit_events"("actor_id", "created_at" DESC, "id" DESC);
