CREATE TABLE "email_reclaim" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"new_email" text NOT NULL,
	"changed_by_id" text,
	"org_id" text,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_reclaim" ADD CONSTRAINT "email_reclaim_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_reclaim" ADD CONSTRAINT "email_reclaim_changed_by_id_user_id_fk" FOREIGN KEY ("changed_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_reclaim_token_hash_unique" ON "email_reclaim" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_reclaim_email_idx" ON "email_reclaim" USING btree ("email");--> statement-breakpoint
CREATE INDEX "email_reclaim_user_idx" ON "email_reclaim" USING btree ("user_id");