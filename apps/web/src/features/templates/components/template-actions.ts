import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import { TEMPLATE_TEXTS, type TemplateCase, compareTemplatesByName } from '@patientsim/domain/cases/template-case.schemas';
import { isFeatureAvailable } from '@patientsim/domain/product/features';
import type { ProductType } from '@patientsim/domain/product/product-types';

/** The three template libraries, one tab each (spec section 2), and their `?tab=` value. */
export const TEMPLATE_TABS = [
  { productType: 'EMS', label: 'EMS', slug: 'ems' },
  { productType: 'NURSING', label: 'Nursing', slug: 'nursing' },
  { productType: 'MILITARY', label: 'Military', slug: 'military' },
] as const satisfies readonly { productType: ProductType; label: string; slug: string }[];
export type TemplateTab = (typeof TEMPLATE_TABS)[number];

/** The tab a `?tab=` value names; EMS (the default product type) for anything else. */
export function tabFromSlug(slug: string | null): TemplateTab {
  return TEMPLATE_TABS.find((tab) => tab.slug === slug) ?? TEMPLATE_TABS[0];
}

/** The App Lab column and button show only where the product type has App Lab (spec sections 1 and 2). */
export function hasAppLab(productType: ProductType): boolean {
  return isFeatureAvailable('APP_LAB', productType);
}

/** The list's order: by name (spec section 9). */
export function sortTemplates(cases: readonly TemplateCase[]): TemplateCase[] {
  return [...cases].sort(compareTemplatesByName);
}

/** The preview's tags, or 'No tags'. */
export function tagsText(tags: string | null): string {
  const trimmed = tags?.trim();
  return trimmed ? trimmed : CASE_TEXTS.noTags;
}

export type TemplateAction = 'publish' | 'unpublish' | 'addAppLab' | 'removeAppLab';

/** What the published toggle or button does to a case. */
export function publishActionFor(template: Pick<TemplateCase, 'published'>): TemplateAction {
  return template.published ? 'unpublish' : 'publish';
}

/** What the App Lab toggle or button does to a case. */
export function appLabActionFor(template: Pick<TemplateCase, 'applab'>): TemplateAction {
  return template.applab ? 'removeAppLab' : 'addAppLab';
}

/** The variables of the mutation an action sends. */
export function actionVariables(action: TemplateAction, id: string) {
  switch (action) {
    case 'publish':
    case 'unpublish':
      return { kind: 'publish', id, published: action === 'publish' } as const;
    case 'addAppLab':
    case 'removeAppLab':
      return { kind: 'appLab', id, applab: action === 'addAppLab' } as const;
  }
}

export type ActionTexts = { label: string; question: string; consequence: string; done: string };

/**
 * The button label and the confirmation of an action. Each reaches every customer (every
 * organisation's admins and instructors, or every App Lab user of the product type), so each is
 * confirmed first and the confirmation says who is affected.
 */
export function actionTexts(action: TemplateAction, name: string, productLabel: string): ActionTexts {
  switch (action) {
    case 'publish':
      return {
        label: TEMPLATE_TEXTS.publish,
        question: `Add “${name}” to the ${productLabel} templates?`,
        consequence:
          'Every customer is affected: all admins and instructors of every organization will be able to read and run this scenario.',
        done: `“${name}” added to the ${productLabel} templates`,
      };
    case 'unpublish':
      return {
        label: TEMPLATE_TEXTS.unpublish,
        question: `Remove “${name}” from the ${productLabel} templates?`,
        consequence:
          'Every customer is affected: admins and instructors of every organization will no longer be able to read or run this scenario.',
        done: `“${name}” removed from the ${productLabel} templates`,
      };
    case 'addAppLab':
      return {
        label: TEMPLATE_TEXTS.addAppLab,
        question: `Make “${name}” available to App Lab users?`,
        consequence: `Every ${productLabel} App Lab user will be able to read and run this scenario.`,
        done: `“${name}” is available to ${productLabel} App Lab users`,
      };
    case 'removeAppLab':
      return {
        label: TEMPLATE_TEXTS.removeAppLab,
        question: `Remove “${name}” from all App Lab users?`,
        consequence: `No ${productLabel} App Lab user will be able to read or run this scenario any more.`,
        done: `“${name}” removed from all ${productLabel} App Lab users`,
      };
  }
}
