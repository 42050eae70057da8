DROP INDEX "case_readers_idx";--> statement-breakpoint
DROP INDEX "case_created_idx";--> statement-breakpoint
ALTER TABLE "group" ADD COLUMN "app_lab_for" text;--> statement-breakpoint
CREATE INDEX "case_name_sort_idx" ON "case_configuration" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "case_avatar_sort_idx" ON "case_configuration" USING btree (coalesce("avatar_name", ''),"id");--> statement-breakpoint
CREATE INDEX "case_start_sort_idx" ON "case_configuration" USING btree (coalesce("start_location_name", ''),"id");--> statement-breakpoint
CREATE INDEX "case_end_sort_idx" ON "case_configuration" USING btree (coalesce("end_location_name", ''),"id");--> statement-breakpoint
CREATE INDEX "case_published_sort_idx" ON "case_configuration" USING btree ("published","id");--> statement-breakpoint
CREATE INDEX "case_applab_sort_idx" ON "case_configuration" USING btree ("applab","id");--> statement-breakpoint
CREATE INDEX "case_attention_sort_idx" ON "case_configuration" USING btree ("needs_ec_update","errors_count","id");--> statement-breakpoint
CREATE INDEX "case_owner_idx" ON "case_configuration" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "case_template_idx" ON "case_configuration" USING btree ("owner_org_id","is_template","name");--> statement-breakpoint
CREATE INDEX "case_search_trgm_idx" ON "case_configuration" USING gin ("searchable_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "group_app_lab_for_idx" ON "group" USING btree ("app_lab_for");--> statement-breakpoint
CREATE INDEX "case_readers_idx" ON "case_configuration" USING gin ("readers") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "case_created_idx" ON "case_configuration" USING btree ("created_at","id");--> statement-breakpoint
-- Databases seeded before this column knew their App Lab organisations by name only.
UPDATE "group" SET "app_lab_for" = CASE "name"
    WHEN 'EMS App Lab' THEN 'EMS' WHEN 'Nursing App Lab' THEN 'NURSING' WHEN 'Military App Lab' THEN 'MILITARY' END
  WHERE "parent_id" IS NULL AND "name" IN ('EMS App Lab', 'Nursing App Lab', 'Military App Lab');
--> statement-breakpoint
-- The count of a caller's cases reads this index alone (owner and readers are all the access
-- condition needs) instead of every case row.
CREATE INDEX "case_access_cover_idx" ON "case_configuration" USING btree ("owner_id") INCLUDE ("readers");
