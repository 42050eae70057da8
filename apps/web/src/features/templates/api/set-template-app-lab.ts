import {
  SET_TEMPLATE_APP_LAB_MUTATION,
  SetTemplateAppLabDataSchema,
  type TemplateCase,
} from '@patientsim/domain/cases/template-case.schemas';
import type { ProductType } from '@patientsim/domain/product/product-types';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { graphqlFetch } from '../../../lib/graphql';
import { replaceTemplateCase } from './replace-template-case';

/**
 * Makes a template available to the App Lab users of its product type, or removes it from them
 * (mutation setTemplateAppLab; spec section 4).
 */
export async function setTemplateAppLab({ id, applab }: { id: string; applab: boolean }): Promise<TemplateCase> {
  const data = await graphqlFetch({
    query: SET_TEMPLATE_APP_LAB_MUTATION,
    variables: { id, applab },
    schema: SetTemplateAppLabDataSchema,
  });
  return data.setTemplateAppLab;
}

export function useSetTemplateAppLab(productType: ProductType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTemplateAppLab,
    onSuccess: (updated) => replaceTemplateCase(queryClient, productType, updated),
  });
}
