ALTER TABLE "audit_event" ADD COLUMN "target_name" text;--> statement-breakpoint
-- Earlier events get the names of their targets where the targets still exist (the writer stores
-- the name from now on), or where the event kept the name of what it deleted.
UPDATE "audit_event" SET "target_name" = coalesce(nullif(btrim(concat_ws(' ', u."given_name", u."family_name")), ''), u."email")
FROM "user" u
WHERE "audit_event"."target_type" = 'user' AND u."id" = "audit_event"."target_id";--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = regexp_replace(g."name", '^[^:[:space:]]{1,4}::', '')
FROM "group" g
WHERE "audit_event"."target_type" = 'group' AND g."id" = "audit_event"."target_id";--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = c."name"
FROM "case_configuration" c
WHERE "audit_event"."target_type" = 'case' AND c."id" = "audit_event"."target_id";--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = i."email"
FROM "invitation" i
WHERE "audit_event"."target_type" = 'invitation' AND i."id" = "audit_event"."target_id";--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = n."title"
FROM "notification" n
WHERE "audit_event"."target_type" = 'notification' AND n."id" = "audit_event"."target_id";--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = 'Version ' || "target_id"
WHERE "target_type" = 'license' AND "target_id" IS NOT NULL;--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = "target_id"
WHERE "target_type" = 'email' AND "target_id" IS NOT NULL;--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = regexp_replace("details" ->> 'name', '^[^:[:space:]]{1,4}::', '')
WHERE "target_name" IS NULL AND "action" IN ('case.remove', 'group.delete') AND "details" ->> 'name' IS NOT NULL;--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = (
  SELECT string_agg(regexp_replace(item ->> 'name', '^[^:[:space:]]{1,4}::', ''), ', ')
  FROM jsonb_array_elements("details" -> 'groups') AS item
)
WHERE "target_name" IS NULL AND "action" = 'group.delete' AND jsonb_typeof("details" -> 'groups') = 'array';--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = counted.n || CASE WHEN counted.n = 1 THEN ' case' ELSE ' cases' END
FROM (
  SELECT e."id", coalesce(e."details" ->> 'removed', e."details" ->> 'found', jsonb_array_length(e."details" -> 'ids')::text)::int AS n
  FROM "audit_event" e
  WHERE e."target_name" IS NULL AND e."action" IN ('case.bulk-remove', 'case.peer-dump') AND jsonb_typeof(e."details" -> 'ids') = 'array'
) counted
WHERE "audit_event"."id" = counted."id";--> statement-breakpoint
UPDATE "audit_event" SET "target_name" = jsonb_array_length("details" -> 'caseIds') || CASE WHEN jsonb_array_length("details" -> 'caseIds') = 1 THEN ' case' ELSE ' cases' END
WHERE "target_name" IS NULL AND "action" = 'case.copy' AND jsonb_typeof("details" -> 'caseIds') = 'array';
