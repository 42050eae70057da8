DROP INDEX "group_member_listing_idx";--> statement-breakpoint
ALTER TABLE "group" ADD COLUMN "member_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "group" ADD COLUMN "subscribed_member_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "group" ADD COLUMN "removed_member_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A search within a group reads the group's trigram matches only: btree_gin holds the group id next
-- to the trigrams of user_search. The embedded engine does not load btree_gin (its build of it
-- breaks pg_trgm's similarity operator in the same database), so there the index holds the
-- trigrams alone.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gin') THEN
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE INDEX "group_member_search_idx" ON "group_member" USING gin ("group_id", "user_search" gin_trgm_ops) WITH (fastupdate = false);
  ELSE
    CREATE INDEX "group_member_search_idx" ON "group_member" USING gin ("user_search" gin_trgm_ops) WITH (fastupdate = false);
  END IF;
END
$$;--> statement-breakpoint
CREATE INDEX "group_member_listing_idx" ON "group_member" USING btree ("group_id","user_family_name","user_given_name","user_email","user_id","removed_at","subscribed","role");--> statement-breakpoint
-- Existing groups take their counts.
UPDATE "group" AS g SET
    "member_count" = c."active", "subscribed_member_count" = c."subscribed", "removed_member_count" = c."removed"
  FROM (
    SELECT "group_id",
           count(*) FILTER (WHERE "removed_at" IS NULL) AS "active",
           count(*) FILTER (WHERE "removed_at" IS NULL AND "subscribed") AS "subscribed",
           count(*) FILTER (WHERE "removed_at" IS NOT NULL) AS "removed"
      FROM "group_member" GROUP BY "group_id"
  ) AS c
  WHERE g."id" = c."group_id";--> statement-breakpoint
-- Every statement that writes memberships moves its groups' counts by what it changed, in its own
-- transaction. Each statement's groups are locked in id order first, so that two statements
-- touching the same groups wait for each other instead of deadlocking. A statement that changes no
-- count (a member's new e-mail copied to their memberships) locks and writes nothing.
CREATE FUNCTION "group_member_count"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT "group_id",
             count(*) FILTER (WHERE "removed_at" IS NULL) AS "active",
             count(*) FILTER (WHERE "removed_at" IS NULL AND "subscribed") AS "subscribed",
             count(*) FILTER (WHERE "removed_at" IS NOT NULL) AS "removed"
        FROM "new_rows" GROUP BY "group_id"
    ) AS d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT "group_id",
             -count(*) FILTER (WHERE "removed_at" IS NULL) AS "active",
             -count(*) FILTER (WHERE "removed_at" IS NULL AND "subscribed") AS "subscribed",
             -count(*) FILTER (WHERE "removed_at" IS NOT NULL) AS "removed"
        FROM "old_rows" GROUP BY "group_id"
    ) AS d;
  ELSE
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT "group_id", sum("active") AS "active", sum("subscribed") AS "subscribed", sum("removed") AS "removed"
        FROM (
          SELECT "group_id", ("removed_at" IS NULL)::int AS "active",
                 ("removed_at" IS NULL AND "subscribed")::int AS "subscribed", ("removed_at" IS NOT NULL)::int AS "removed"
            FROM "new_rows"
          UNION ALL
          SELECT "group_id", -("removed_at" IS NULL)::int, -("removed_at" IS NULL AND "subscribed")::int,
                 -("removed_at" IS NOT NULL)::int
            FROM "old_rows"
        ) AS moves
        GROUP BY "group_id"
        HAVING sum("active") <> 0 OR sum("subscribed") <> 0 OR sum("removed") <> 0
    ) AS d;
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM "group"
    WHERE "id" IN (SELECT c->>'group_id' FROM jsonb_array_elements(changes) AS c)
    ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "group" AS g SET
      "member_count" = g."member_count" + (c->>'active')::integer,
      "subscribed_member_count" = g."subscribed_member_count" + (c->>'subscribed')::integer,
      "removed_member_count" = g."removed_member_count" + (c->>'removed')::integer
    FROM jsonb_array_elements(changes) AS c
    WHERE g."id" = c->>'group_id';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "group_member_count_insert" AFTER INSERT ON "group_member"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "group_member_count"();--> statement-breakpoint
CREATE TRIGGER "group_member_count_update" AFTER UPDATE ON "group_member"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "group_member_count"();--> statement-breakpoint
CREATE TRIGGER "group_member_count_delete" AFTER DELETE ON "group_member"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "group_member_count"();
