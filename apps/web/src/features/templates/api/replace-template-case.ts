import type { TemplateCase } from '@patientsim/domain/cases/template-case.schemas';
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { QueryClient } from '@tanstack/react-query';
import { templateCasesKey } from './get-template-cases';

/** Puts a changed template into its library's cached list, then has that list re-read. */
export async function replaceTemplateCase(queryClient: QueryClient, productType: ProductType, updated: TemplateCase) {
  const key = templateCasesKey(productType);
  queryClient.setQueryData<TemplateCase[]>(key, (cases) => cases?.map((item) => (item.id === updated.id ? updated : item)));
  await queryClient.invalidateQueries({ queryKey: key });
}
