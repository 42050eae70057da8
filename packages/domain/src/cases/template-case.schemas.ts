/**
 * The template libraries (spec sections 2, 4 and 9): what the Templates screen reads of a case
 * through the case API (query templateCases, mutations publishTemplate and setTemplateAppLab), and
 * the screen's texts.
 */
import { z } from 'zod';

const PictureSchema = z.object({ url: z.string() }).nullable();
const CaptionedTextSchema = z.object({ caption: z.object({ en: z.string() }), displayed: z.boolean() }).nullable();
const PlaceSchema = z.object({ name: z.object({ en: z.string() }), picture: PictureSchema }).nullable();

/** A template case with the fields of the list and its preview. */
export const TemplateCaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.string().nullable(),
  dispatch: z.object({ learningObjectives: CaptionedTextSchema, chiefComplaint: CaptionedTextSchema }).nullable(),
  _avatar: z.object({ id: z.string(), key: z.string(), name: z.object({ en: z.string() }), picture: PictureSchema }).nullable(),
  _startLocation: PlaceSchema,
  _endLocation: PlaceSchema,
  errorsCount: z.number().int(),
  warningsCount: z.number().int(),
  published: z.boolean(),
  applab: z.boolean(),
});
export type TemplateCase = z.infer<typeof TemplateCaseSchema>;

/** The fields above, as a GraphQL selection of CaseConfiguration. */
export const TEMPLATE_CASE_FIELDS = `
  id
  name
  tags
  dispatch { learningObjectives { caption { en } displayed } chiefComplaint { caption { en } displayed } }
  _avatar { id key name { en } picture { url } }
  _startLocation { name { en } picture { url } }
  _endLocation { name { en } picture { url } }
  errorsCount
  warningsCount
  published
  applab
`;

export const TEMPLATE_CASES_QUERY = `query TemplateCases($productType: ProductType!) {
  templateCases(productType: $productType) { ${TEMPLATE_CASE_FIELDS} }
}`;

export const PUBLISH_TEMPLATE_MUTATION = `mutation PublishTemplate($id: ID!, $published: Boolean!) {
  publishTemplate(id: $id, published: $published) { ${TEMPLATE_CASE_FIELDS} }
}`;

export const SET_TEMPLATE_APP_LAB_MUTATION = `mutation SetTemplateAppLab($id: ID!, $applab: Boolean!) {
  setTemplateAppLab(id: $id, applab: $applab) { ${TEMPLATE_CASE_FIELDS} }
}`;

export const TemplateCasesDataSchema = z.object({ templateCases: z.array(TemplateCaseSchema) });
export const PublishTemplateDataSchema = z.object({ publishTemplate: TemplateCaseSchema });
export const SetTemplateAppLabDataSchema = z.object({ setTemplateAppLab: TemplateCaseSchema });

/** The Templates screen's buttons (spec section 2). */
export const TEMPLATE_TEXTS = {
  publish: 'Add To Templates',
  unpublish: 'Remove From Templates',
  addAppLab: 'Make Available To App Lab Users',
  removeAppLab: 'Remove From All App Lab Users',
} as const;

/** Templates are listed by name (spec section 9), case-insensitively, then by id for a stable order. */
export function compareTemplatesByName(a: Pick<TemplateCase, 'id' | 'name'>, b: Pick<TemplateCase, 'id' | 'name'>): number {
  return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id);
}
