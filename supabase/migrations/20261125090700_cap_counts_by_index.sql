-- =============================================================================
-- The caps' counts always go through their indexes (issue 13).
-- =============================================================================
--
-- private.enforce_plan_cap counts the plan's guests, ideas or slots, or the
-- idea's comments, on every insert into those tables. PL/pgSQL keeps a plan
-- of that count per connection, made while the table was as small as the
-- statistics last said. Planned on a nearly empty table, the count was a
-- sequential scan, and it stayed one: issue 13's bench analyses its fixture
-- (one comment), then adds thousands of comments in seconds, and every
-- comment read every comment of every plan (pg_stat_user_tables: ~6,900
-- sequential scans of app.idea_comments, 23 million rows read, for ~6,800
-- comments). Autovacuum's next analyse would re-plan it, but a count that
-- runs on every insert should not wait for that: with sequential scans off
-- for this function the planner takes the index each count has (guests,
-- ideas and slots by plan_id; comments by (idea_id, plan_id, created_at)),
-- however small the table looked when it planned.

alter function private.enforce_plan_cap() set enable_seqscan = off;
