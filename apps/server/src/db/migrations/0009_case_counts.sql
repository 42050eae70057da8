ALTER TABLE "group" ADD COLUMN "case_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing organisations take their counts: the cases naming them in their readers.
UPDATE "group" AS g SET "case_count" = c."n"
  FROM (
    SELECT r."reader" AS "group_id", count(*)::integer AS "n"
      FROM "case_configuration" AS cc, LATERAL (SELECT DISTINCT unnest(cc."readers") AS "reader") AS r
     GROUP BY r."reader"
  ) AS c
  WHERE g."id" = c."group_id";--> statement-breakpoint
-- Every statement that writes cases moves the counts of the groups their readers name by what it
-- changed, in its own transaction (like the member counts of migration 0005). Each statement's
-- groups are locked in id order first, so that two statements touching the same groups wait for
-- each other instead of deadlocking. A statement that changes no readers locks and writes nothing.
CREATE FUNCTION "case_reader_count"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT r."reader" AS "group_id", count(*) AS "n"
        FROM "new_rows" AS x, LATERAL (SELECT DISTINCT unnest(x."readers") AS "reader") AS r
       GROUP BY r."reader"
    ) AS d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT r."reader" AS "group_id", -count(*) AS "n"
        FROM "old_rows" AS x, LATERAL (SELECT DISTINCT unnest(x."readers") AS "reader") AS r
       GROUP BY r."reader"
    ) AS d;
  ELSE
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT "group_id", sum("n") AS "n"
        FROM (
          SELECT r."reader" AS "group_id", 1 AS "n"
            FROM "new_rows" AS x, LATERAL (SELECT DISTINCT unnest(x."readers") AS "reader") AS r
          UNION ALL
          SELECT r."reader", -1
            FROM "old_rows" AS x, LATERAL (SELECT DISTINCT unnest(x."readers") AS "reader") AS r
        ) AS moves
       GROUP BY "group_id"
      HAVING sum("n") <> 0
    ) AS d;
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM "group"
    WHERE "id" IN (SELECT c->>'group_id' FROM jsonb_array_elements(changes) AS c)
    ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "group" AS g SET "case_count" = g."case_count" + (c->>'n')::integer
    FROM jsonb_array_elements(changes) AS c
    WHERE g."id" = c->>'group_id';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "case_reader_count_insert" AFTER INSERT ON "case_configuration"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "case_reader_count"();--> statement-breakpoint
CREATE TRIGGER "case_reader_count_update" AFTER UPDATE ON "case_configuration"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "case_reader_count"();--> statement-breakpoint
CREATE TRIGGER "case_reader_count_delete" AFTER DELETE ON "case_configuration"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "case_reader_count"();
