import {
  PUBLISH_TEMPLATE_MUTATION,
  PublishTemplateDataSchema,
  type TemplateCase,
} from '@patientsim/domain/cases/template-case.schemas';
import type { ProductType } from '@patientsim/domain/product/product-types';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { graphqlFetch } from '../../../lib/graphql';
import { replaceTemplateCase } from './replace-template-case';

/**
 * Publishes a template to every organisation's admins and instructors, or withdraws it
 * (mutation publishTemplate; spec section 4).
 */
export async function publishTemplate({ id, published }: { id: string; published: boolean }): Promise<TemplateCase> {
  const data = await graphqlFetch({
    query: PUBLISH_TEMPLATE_MUTATION,
    variables: { id, published },
    schema: PublishTemplateDataSchema,
  });
  return data.publishTemplate;
}

export function usePublishTemplate(productType: ProductType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishTemplate,
    // Only this library's list holds the case: its row takes the answer at once, then the list is re-read.
    onSuccess: (updated) => replaceTemplateCase(queryClient, productType, updated),
  });
}
