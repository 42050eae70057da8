-- The few deleted accounts, for searches of an organisation's members that leave them out.
CREATE INDEX "user_deleted_idx" ON "user" USING btree ("id") WHERE "user"."deleted_at" is not null;
