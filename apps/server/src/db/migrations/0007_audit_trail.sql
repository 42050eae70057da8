DROP INDEX "audit_org_idx";--> statement-breakpoint
CREATE INDEX "audit_created_idx" ON "audit_event" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_org_created_idx" ON "audit_event" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_on_behalf_of_idx" ON "audit_event" USING btree ("on_behalf_of_id");