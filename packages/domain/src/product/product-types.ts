/** Product types (spec section 1 and 9). */
export const PRODUCT_TYPES = ['EMS', 'NURSING', 'MILITARY'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const DEFAULT_PRODUCT_TYPE: ProductType = 'EMS';

export const PRODUCT_TYPE_LABEL: Record<ProductType, string> = {
  EMS: 'Emergency',
  NURSING: 'Nursing',
  MILITARY: 'Military',
};

/** Account types offered on plain sign-up (spec section 2: EMS or Nursing). */
export const SIGNUP_ACCOUNT_TYPES = ['EMS', 'NURSING'] as const satisfies readonly ProductType[];
export const SIGNUP_ACCOUNT_TYPE_LABEL: Record<(typeof SIGNUP_ACCOUNT_TYPES)[number], string> = {
  EMS: 'EMS',
  NURSING: 'Nursing',
};

export function isProductType(value: unknown): value is ProductType {
  return typeof value === 'string' && (PRODUCT_TYPES as readonly string[]).includes(value);
}
