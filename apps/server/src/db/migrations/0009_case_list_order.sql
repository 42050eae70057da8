CREATE INDEX "case_play_accessed_order_idx" ON "case_play" USING btree ("user_id","last_accessed","case_id") WHERE "case_play"."last_accessed" is not null;--> statement-breakpoint
CREATE INDEX "case_play_played_order_idx" ON "case_play" USING btree ("user_id","last_played","case_id") WHERE "case_play"."last_played" is not null;--> statement-breakpoint
-- The cases that need attention (an update pending or errors) come first in the default order of
-- the case list; they are few, and this index holds them with what the access check reads, so the
-- list finds those the caller played without reading the case rows.
CREATE INDEX "case_attention_idx" ON "case_configuration" USING btree ("needs_ec_update","errors_count","id") INCLUDE ("owner_id","readers") WHERE ("needs_ec_update" OR "errors_count" <> 0);
