/** The demo accounts: who they are, and their credentials and license acceptance. */
import { LICENSE_VERSION } from '@patientsim/domain/common/constants';
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { licenseAcceptance } from '../../db/schema/index.js';
import type { Auth, NewCredential } from '../../identity/auth.js';
import { createAccount } from '../../modules/users/users.service.js';
import { buildLicenseAcceptance, buildUser } from '../builders.js';
import { type DemoContext, daysAgo, idOf } from './context.js';
import type { DemoOrgKey, DemoSubgroupKey } from './organisations.js';

/** The password of every demo account. */
export const DEMO_PASSWORD = 'Sim-Demo-2026';

export type DemoAccount = {
  email: string;
  /** Global role. */
  role: Role;
  givenName: string;
  familyName: string;
  productType: ProductType;
  /** Organisations and the role there; the first one is the active organisation. */
  memberships: readonly { org: DemoOrgKey; role: Role }[];
  /** Sub-groups, with the role the account has in the parent organisation. */
  subgroups?: readonly DemoSubgroupKey[];
  /** Organisations the account was removed from (archived for grading). */
  removedFrom?: readonly DemoOrgKey[];
  emailVerified?: boolean;
  hasAcceptedLicense?: boolean;
};

/** Every demo account; all share `DEMO_PASSWORD`. The first thirteen are the documented ones. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'super@demo.test',
    role: 'SUPER_ADMIN',
    givenName: 'Morgan',
    familyName: 'Hale',
    productType: 'EMS',
    memberships: [{ org: 'provider', role: 'SUPER_ADMIN' }],
  },
  {
    email: 'owner@demo.test',
    role: 'ADMIN',
    givenName: 'Olivia',
    familyName: 'Bennett',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'ADMIN' }],
  },
  {
    email: 'admin@demo.test',
    role: 'ADMIN',
    givenName: 'Adrian',
    familyName: 'Cole',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'ADMIN' }],
    subgroups: ['qaSandbox'],
  },
  {
    email: 'instructor@demo.test',
    role: 'USER',
    givenName: 'Isabel',
    familyName: 'Turner',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'USER' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'student@demo.test',
    role: 'STUDENT',
    givenName: 'Sean',
    familyName: 'Walker',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'student2@demo.test',
    role: 'STUDENT',
    givenName: 'Stella',
    familyName: 'Nguyen',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
  },
  {
    email: 'nurse@demo.test',
    role: 'ADMIN',
    givenName: 'Nora',
    familyName: 'Lindqvist',
    productType: 'NURSING',
    memberships: [{ org: 'northgate', role: 'ADMIN' }],
  },
  {
    email: 'multi@demo.test',
    role: 'USER',
    givenName: 'Miles',
    familyName: 'Carter',
    productType: 'EMS',
    memberships: [
      { org: 'riverside', role: 'USER' },
      { org: 'northgate', role: 'USER' },
    ],
  },
  {
    email: 'medic@demo.test',
    role: 'ADMIN',
    givenName: 'Mateo',
    familyName: 'Delgado',
    productType: 'MILITARY',
    memberships: [{ org: 'harbor', role: 'ADMIN' }],
  },
  {
    email: 'unverified@demo.test',
    role: 'STUDENT',
    givenName: 'Uma',
    familyName: 'Patel',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    emailVerified: false,
  },
  {
    email: 'nolicense@demo.test',
    role: 'STUDENT',
    givenName: 'Noel',
    familyName: 'Fraser',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    hasAcceptedLicense: false,
  },
  { email: 'noorg@demo.test', role: 'STUDENT', givenName: 'Nadia', familyName: 'Ortiz', productType: 'EMS', memberships: [] },
  {
    email: 'removed@demo.test',
    role: 'STUDENT',
    givenName: 'Rhea',
    familyName: 'Sullivan',
    productType: 'EMS',
    memberships: [],
    removedFrom: ['riverside'],
  },
  // Classmates and colleagues, so that cohorts and units are not empty.
  {
    email: 'jordan.price@demo.test',
    role: 'STUDENT',
    givenName: 'Jordan',
    familyName: 'Price',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'emily.zhang@demo.test',
    role: 'STUDENT',
    givenName: 'Emily',
    familyName: 'Zhang',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'carlos.mendes@demo.test',
    role: 'STUDENT',
    givenName: 'Carlos',
    familyName: 'Mendes',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortB'],
  },
  {
    email: 'hannah.kim@demo.test',
    role: 'STUDENT',
    givenName: 'Hannah',
    familyName: 'Kim',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortB'],
  },
  {
    email: 'priya.shah@demo.test',
    role: 'STUDENT',
    givenName: 'Priya',
    familyName: 'Shah',
    productType: 'NURSING',
    memberships: [{ org: 'northgate', role: 'STUDENT' }],
    subgroups: ['cohort2027'],
  },
  {
    email: 'liam.oconnor@demo.test',
    role: 'STUDENT',
    givenName: 'Liam',
    familyName: "O'Connor",
    productType: 'NURSING',
    memberships: [{ org: 'northgate', role: 'STUDENT' }],
    subgroups: ['cohort2027'],
  },
  {
    email: 'corpsman@demo.test',
    role: 'USER',
    givenName: 'Tyler',
    familyName: 'Grant',
    productType: 'MILITARY',
    memberships: [{ org: 'harbor', role: 'USER' }],
  },
  {
    email: 'fieldmedic@demo.test',
    role: 'STUDENT',
    givenName: 'Jess',
    familyName: 'Alvarez',
    productType: 'MILITARY',
    memberships: [{ org: 'harbor', role: 'STUDENT' }],
  },
  // Former learners in Riverside's grading archive: enough rows for a second page of the Users
  // table (page size 50). Archived, so they take no seats (Riverside has 25).
  ...Array.from({ length: 60 }, (_, index): DemoAccount => {
    const nn = String(index + 1).padStart(2, '0');
    return {
      email: `cohort.learner${nn}@demo.test`,
      role: 'STUDENT',
      givenName: 'Cohort',
      familyName: `Learner ${nn}`,
      productType: 'EMS',
      memberships: [],
      removedFrom: ['riverside'],
    };
  }),
  // The provider's scenario testers, who play cases as students: enough active members for a
  // second page of the provider's Users table (page size 50) within its 100 seats.
  ...Array.from({ length: 55 }, (_, index): DemoAccount => {
    const nn = String(index + 1).padStart(2, '0');
    return {
      email: `tester${nn}@demo.test`,
      role: 'STUDENT',
      givenName: 'Scenario',
      familyName: `Tester ${nn}`,
      productType: 'EMS',
      memberships: [{ org: 'provider', role: 'STUDENT' }],
    };
  }),
];

/** Accounts are older than the oldest case, a few days apart in the order of `DEMO_ACCOUNTS`. */
export function accountCreatedAt(now: Date, index: number): Date {
  return daysAgo(now, 800 - index * 9);
}

/**
 * Creates every demo account through the product's account creation (`credential` is
 * `DEMO_PASSWORD` and its hash), with its license acceptance. The first organisation of an account
 * is its active one.
 */
export async function seedAccounts(
  db: Database,
  { now, userIds, orgIds }: DemoContext,
  { auth, credential }: { auth: Auth; credential: NewCredential },
): Promise<void> {
  const users = DEMO_ACCOUNTS.map((demo, index) => {
    const firstOrg = demo.memberships[0]?.org;
    const createdAt = accountCreatedAt(now, index);
    const id = idOf(userIds, demo.email);
    const values = buildUser({
      id,
      email: demo.email,
      givenName: demo.givenName,
      familyName: demo.familyName,
      role: demo.role,
      productType: demo.productType,
      emailVerified: demo.emailVerified ?? true,
      licenseVersion: (demo.hasAcceptedLicense ?? true) ? LICENSE_VERSION : null,
      activeOrgId: firstOrg ? orgIds[firstOrg] : null,
      createdAt,
      updatedAt: createdAt,
    });
    return { ...values, id };
  });
  for (const values of users) await createAccount(db, { auth, credential, values });
  await db
    .insert(licenseAcceptance)
    .values(
      users
        .filter((row) => row.licenseVersion !== null)
        .map((row) => buildLicenseAcceptance({ userId: row.id }, { acceptedAt: row.createdAt })),
    );
}
