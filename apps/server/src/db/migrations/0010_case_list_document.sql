-- The fields of a case document the case list answers (the GraphQL fields of a case that come from
-- its document), stored apart so that a page of the list reads 50 small values instead of 50 whole
-- documents. jsonb_build_object is only stable (it accepts any type), but on jsonb values alone it
-- always gives the same answer, so the function may be immutable, as a generated column needs.
CREATE FUNCTION "case_list_document"("document" jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT jsonb_build_object(
    'tags', "document" -> 'tags',
    'dispatch', "document" -> 'dispatch',
    '_avatar', "document" -> '_avatar',
    '_startLocation', "document" -> '_startLocation',
    '_endLocation', "document" -> '_endLocation',
    'outdatedMedications', "document" -> 'outdatedMedications',
    'outdatedEcNodes', "document" -> 'outdatedEcNodes',
    'shares', "document" -> 'shares',
    'timed_access', "document" -> 'timed_access')
$$;--> statement-breakpoint
ALTER TABLE "case_configuration" ADD COLUMN "list_document" jsonb GENERATED ALWAYS AS (case_list_document(document)) STORED;
