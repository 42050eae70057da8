ALTER TABLE "case_play" ADD COLUMN "case_attention" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Each play carries whether its case needs attention (an update pending or errors counted), so that
-- the default order reads a caller's opened cases that need attention from an index of a few rows
-- instead of joining every play of the caller to the cases that need attention.
UPDATE "case_play" AS p SET "case_attention" = true
  FROM "case_configuration" AS c
  WHERE c."id" = p."case_id" AND (c."needs_ec_update" OR c."errors_count" <> 0);--> statement-breakpoint
CREATE INDEX "case_play_attention_idx" ON "case_play" USING btree ("user_id","case_id") WHERE "case_play"."case_attention" and "case_play"."last_accessed" is not null;--> statement-breakpoint
-- A new play takes its case's value. The case row is read FOR SHARE: a play written while another
-- transaction changes the case waits for it and takes the value it committed, and a change to the
-- case waits for a play being written, whose row its own trigger below then sees.
CREATE FUNCTION "case_play_attention"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c."needs_ec_update" OR c."errors_count" <> 0 INTO NEW."case_attention"
    FROM "case_configuration" AS c WHERE c."id" = NEW."case_id" FOR SHARE;
  NEW."case_attention" := coalesce(NEW."case_attention", false);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "case_play_attention" BEFORE INSERT OR UPDATE OF "case_id" ON "case_play"
  FOR EACH ROW EXECUTE FUNCTION "case_play_attention"();--> statement-breakpoint
-- A case whose attention changes passes it on to its plays.
CREATE FUNCTION "case_attention_to_plays"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "case_play" SET "case_attention" = (NEW."needs_ec_update" OR NEW."errors_count" <> 0)
    WHERE "case_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "case_attention_to_plays" AFTER UPDATE OF "needs_ec_update", "errors_count" ON "case_configuration"
  FOR EACH ROW
  WHEN ((OLD."needs_ec_update" OR OLD."errors_count" <> 0) IS DISTINCT FROM (NEW."needs_ec_update" OR NEW."errors_count" <> 0))
  EXECUTE FUNCTION "case_attention_to_plays"();
