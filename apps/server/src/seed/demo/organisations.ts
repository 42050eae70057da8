/**
 * The organisations of the demo: customers, the provider, template, App Lab and public content
 * organisations, and sub-groups.
 */
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { Database } from '../../db/client.js';
import { group } from '../../db/schema/index.js';
import { buildOrganisation, buildSubgroup } from '../builders.js';
import { type DemoContext, daysAgo, entriesOf, idOf } from './context.js';

/**
 * The public content organisation of each product type (spec section 1): a person with no
 * organisation reads its published scenarios.
 */
export const PUBLIC_CONTENT_ORG_NAMES: Record<ProductType, string> = {
  EMS: 'EMS Public Scenarios',
  NURSING: 'Nursing Public Scenarios',
  MILITARY: 'Military Public Scenarios',
};

/** The organisation of each product type that App Lab users read and run cases through. */
export const APP_LAB_ORG_NAMES: Record<ProductType, string> = {
  EMS: 'EMS App Lab',
  NURSING: 'Nursing App Lab',
  MILITARY: 'Military App Lab',
};

type OrgSpec = {
  name: string;
  productType: ProductType;
  seats: number;
  dev?: boolean;
  inactive?: boolean;
  templatesFor?: ProductType;
  /** The product type whose App Lab users read and run templates through this organisation. */
  appLabFor?: ProductType;
  /** The product type whose people without an organisation read this organisation's published scenarios. */
  contentFor?: ProductType;
  /** E-mail of the key owner. */
  keyOwner?: string;
};

/** Every top-level organisation of the demo, by key. */
export const DEMO_ORGANISATIONS = {
  provider: { name: 'PatientSim Provider', productType: 'EMS', seats: 100, dev: true, keyOwner: 'super@demo.test' },
  riverside: { name: 'Riverside EMS Academy', productType: 'EMS', seats: 25, keyOwner: 'owner@demo.test' },
  northgate: { name: 'Northgate Nursing School', productType: 'NURSING', seats: 10, keyOwner: 'nurse@demo.test' },
  harbor: { name: 'Harbor Medic Unit', productType: 'MILITARY', seats: 3, keyOwner: 'medic@demo.test' },
  emsTemplates: { name: 'EMS Templates', productType: 'EMS', seats: 0, templatesFor: 'EMS' },
  nursingTemplates: { name: 'Nursing Templates', productType: 'NURSING', seats: 0, templatesFor: 'NURSING' },
  militaryTemplates: { name: 'Military Templates', productType: 'MILITARY', seats: 0, templatesFor: 'MILITARY' },
  dormant: { name: 'Dormant Ambulance Service', productType: 'EMS', seats: 5, inactive: true },
  emsAppLab: { name: APP_LAB_ORG_NAMES.EMS, productType: 'EMS', seats: 0, appLabFor: 'EMS' },
  nursingAppLab: { name: APP_LAB_ORG_NAMES.NURSING, productType: 'NURSING', seats: 0, appLabFor: 'NURSING' },
  militaryAppLab: { name: APP_LAB_ORG_NAMES.MILITARY, productType: 'MILITARY', seats: 0, appLabFor: 'MILITARY' },
  emsContent: { name: PUBLIC_CONTENT_ORG_NAMES.EMS, productType: 'EMS', seats: 0, contentFor: 'EMS' },
  nursingContent: { name: PUBLIC_CONTENT_ORG_NAMES.NURSING, productType: 'NURSING', seats: 0, contentFor: 'NURSING' },
  militaryContent: { name: PUBLIC_CONTENT_ORG_NAMES.MILITARY, productType: 'MILITARY', seats: 0, contentFor: 'MILITARY' },
} as const satisfies Record<string, OrgSpec>;
export type DemoOrgKey = keyof typeof DEMO_ORGANISATIONS;

/** The template organisation of each product type. */
export const TEMPLATE_ORG: Record<ProductType, DemoOrgKey> = {
  EMS: 'emsTemplates',
  NURSING: 'nursingTemplates',
  MILITARY: 'militaryTemplates',
};

/** The App Lab organisation of each product type. */
export const APP_LAB_ORG: Record<ProductType, DemoOrgKey> = {
  EMS: 'emsAppLab',
  NURSING: 'nursingAppLab',
  MILITARY: 'militaryAppLab',
};

/** The public content organisation of each product type. */
export const PUBLIC_CONTENT_ORG: Record<ProductType, DemoOrgKey> = {
  EMS: 'emsContent',
  NURSING: 'nursingContent',
  MILITARY: 'militaryContent',
};

type SubgroupSpec = { parent: DemoOrgKey; name: string; testing?: boolean; owner: string };

/** Sub-groups (classes), by key; names are plain here and stored with the parent's prefix. */
export const DEMO_SUBGROUPS = {
  cohortA: { parent: 'riverside', name: 'Paramedic Cohort A', owner: 'instructor@demo.test' },
  cohortB: { parent: 'riverside', name: 'Paramedic Cohort B', owner: 'admin@demo.test' },
  qaSandbox: { parent: 'riverside', name: 'QA Sandbox', testing: true, owner: 'admin@demo.test' },
  cohort2027: { parent: 'northgate', name: 'Cohort 2027', owner: 'nurse@demo.test' },
} as const satisfies Record<string, SubgroupSpec>;
export type DemoSubgroupKey = keyof typeof DEMO_SUBGROUPS;

/** Inserts the organisations, then their sub-groups. Their key owners must exist. */
export async function seedOrganisations(db: Database, { now, userIds, orgIds, subgroupIds }: DemoContext): Promise<void> {
  const keyOwnerOf = (spec: OrgSpec): string | null => (spec.keyOwner ? idOf(userIds, spec.keyOwner) : null);
  const organisations = entriesOf(DEMO_ORGANISATIONS).map(([key, spec]: [DemoOrgKey, OrgSpec]) =>
    buildOrganisation({
      id: orgIds[key],
      name: spec.name,
      productType: spec.productType,
      seats: spec.seats,
      dev: spec.dev ?? false,
      inactive: spec.inactive ?? false,
      templatesFor: spec.templatesFor ?? null,
      appLabFor: spec.appLabFor ?? null,
      contentFor: spec.contentFor ?? null,
      ownerId: keyOwnerOf(spec),
      createdAt: daysAgo(now, 900),
      updatedAt: daysAgo(now, 900),
    }),
  );
  const parents = new Map(organisations.map((row) => [row.id, row]));
  const subgroups = entriesOf(DEMO_SUBGROUPS).map(([key, spec]: [DemoSubgroupKey, SubgroupSpec]) => {
    const parent = parents.get(orgIds[spec.parent]);
    if (!parent) throw new Error(`Unknown parent organisation ${spec.parent}`);
    return buildSubgroup(parent, {
      id: subgroupIds[key],
      name: spec.name,
      testing: spec.testing ?? false,
      ownerId: idOf(userIds, spec.owner),
      createdAt: daysAgo(now, 300),
      updatedAt: daysAgo(now, 300),
    });
  });
  await db.insert(group).values(organisations);
  await db.insert(group).values(subgroups);
}
