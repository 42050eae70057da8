ALTER TABLE "group_member" ADD COLUMN "user_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "group_member" ADD COLUMN "user_given_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "group_member" ADD COLUMN "user_family_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "group_member" ADD COLUMN "user_search" text GENERATED ALWAYS AS (lower(user_family_name || chr(10) || user_given_name || chr(10) || user_email)) STORED NOT NULL;--> statement-breakpoint
-- Existing memberships take their users' e-mail and names (user_search follows, being generated).
UPDATE "group_member" AS gm SET "user_email" = u."email", "user_given_name" = u."given_name", "user_family_name" = u."family_name"
  FROM "user" AS u WHERE u."id" = gm."user_id";--> statement-breakpoint
CREATE INDEX "group_member_listing_idx" ON "group_member" USING btree ("group_id","user_family_name","user_given_name","user_email","user_id","removed_at","subscribed","role","user_search");--> statement-breakpoint
-- Every query of this table reads one group or one user: never plan a parallel scan of it.
ALTER TABLE "group_member" SET (parallel_workers = 0);--> statement-breakpoint
-- A new membership copies its user's e-mail and names; every insert goes through here, whoever writes it.
CREATE FUNCTION "group_member_copy_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT u."email", u."given_name", u."family_name" INTO NEW."user_email", NEW."user_given_name", NEW."user_family_name"
    FROM "user" AS u WHERE u."id" = NEW."user_id";
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "group_member_copy_user" BEFORE INSERT OR UPDATE OF "user_id" ON "group_member"
  FOR EACH ROW EXECUTE FUNCTION "group_member_copy_user"();--> statement-breakpoint
-- A change of a user's e-mail or names reaches their memberships in the same transaction.
CREATE FUNCTION "user_copy_to_group_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "group_member" SET "user_email" = NEW."email", "user_given_name" = NEW."given_name", "user_family_name" = NEW."family_name"
    WHERE "user_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "user_copy_to_group_member" AFTER UPDATE OF "email", "given_name", "family_name" ON "user"
  FOR EACH ROW
  WHEN (OLD."email" IS DISTINCT FROM NEW."email" OR OLD."given_name" IS DISTINCT FROM NEW."given_name"
    OR OLD."family_name" IS DISTINCT FROM NEW."family_name")
  EXECUTE FUNCTION "user_copy_to_group_member"();
