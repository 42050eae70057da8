CREATE INDEX "user_email_trgm_idx" ON "user" USING gin ("email" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "user_given_name_trgm_idx" ON "user" USING gin ("given_name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "user_family_name_trgm_idx" ON "user" USING gin ("family_name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "group_name_trgm_idx" ON "group" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);