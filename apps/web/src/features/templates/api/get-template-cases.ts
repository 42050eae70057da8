import { TEMPLATE_CASES_QUERY, type TemplateCase, TemplateCasesDataSchema } from '@patientsim/domain/cases/template-case.schemas';
import type { ProductType } from '@patientsim/domain/product/product-types';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlFetch } from '../../../lib/graphql';

export const templateCasesKey = (productType: ProductType) => ['template-cases', productType] as const;

/** The template organisation's cases of a product type, by name (query templateCases; super admins). */
export async function getTemplateCases(productType: ProductType, signal?: AbortSignal): Promise<TemplateCase[]> {
  const data = await graphqlFetch({
    query: TEMPLATE_CASES_QUERY,
    variables: { productType },
    schema: TemplateCasesDataSchema,
    ...(signal ? { signal } : {}),
  });
  return data.templateCases;
}

export const templateCasesQueryOptions = (productType: ProductType) =>
  queryOptions({
    queryKey: templateCasesKey(productType),
    queryFn: ({ signal }) => getTemplateCases(productType, signal),
  });

export function useTemplateCases(productType: ProductType) {
  return useQuery(templateCasesQueryOptions(productType));
}
