import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { NOTIFICATION_BODY_MAX, NOTIFICATION_HEADER_MAX } from '@patientsim/domain/common/constants';
import { displayGroupName, prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { NOTIFICATION_COLORS, NotificationActionSchema } from '@patientsim/domain/notifications/notification.schemas';
import { PRODUCT_TYPES } from '@patientsim/domain/product/product-types';
import { TUTORIAL_CATEGORIES } from '@patientsim/domain/tutorials/tutorial.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { PGLITE_EXTENSIONS } from '../db/extensions.js';
import * as schema from '../db/schema/index.js';
import { verifyPassword } from '../identity/password.js';
import {
  APP_LAB_ORG_NAMES,
  DEMO_ACCOUNTS,
  PUBLIC_CONTENT_ORG_NAMES,
  DEMO_PASSWORD,
  SEED_ASSETS_DIR,
  isDatabaseEmpty,
  seedDemo,
} from './demo.js';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../db/migrations', import.meta.url));
const DAY_MS = 24 * 60 * 60 * 1000;

// The migrations create extensions: they must be loaded as in db/client.ts.
const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
const pglite = drizzle(client, { schema });
const db: Database = pglite;

type Rows = Awaited<ReturnType<typeof loadRows>>;
let rows: Rows;
let wasEmptyBefore: boolean;

async function loadRows() {
  return {
    users: await db.select().from(schema.user),
    accounts: await db.select().from(schema.account),
    licenseAcceptances: await db.select().from(schema.licenseAcceptance),
    groups: await db.select().from(schema.group),
    members: await db.select().from(schema.groupMember),
    invitations: await db.select().from(schema.invitation),
    cases: await db.select().from(schema.caseConfiguration),
    shares: await db.select().from(schema.caseShare),
    favorites: await db.select().from(schema.caseFavorite),
    plays: await db.select().from(schema.casePlay),
    media: await db.select().from(schema.media),
    tutorials: await db.select().from(schema.tutorial),
    notifications: await db.select().from(schema.notification),
    targets: await db.select().from(schema.notificationTarget),
    receipts: await db.select().from(schema.notificationReceipt),
  };
}

function userByEmail(email: string) {
  const found = rows.users.find((row) => row.email === email);
  if (!found) throw new Error(`missing user ${email}`);
  return found;
}

function orgByName(name: string) {
  const found = rows.groups.find((row) => row.name === name && row.parentId === null);
  if (!found) throw new Error(`missing organisation ${name}`);
  return found;
}

/** Organisation name -> role, for the active (not removed) memberships of a user in top-level organisations. */
function organisationsOf(email: string): Record<string, string | null> {
  const userId = userByEmail(email).id;
  const result: Record<string, string | null> = {};
  for (const member of rows.members) {
    if (member.userId !== userId || member.removedAt) continue;
    const org = rows.groups.find((row) => row.id === member.groupId);
    if (org && org.parentId === null) result[org.name] = member.role;
  }
  return result;
}

function activeMembers(groupId: string) {
  return rows.members.filter((member) => member.groupId === groupId && !member.removedAt);
}

beforeAll(async () => {
  await migrate(pglite, { migrationsFolder: MIGRATIONS_FOLDER });
  wasEmptyBefore = await isDatabaseEmpty(db);
  await seedDemo(db);
  rows = await loadRows();
}, 60_000);

afterAll(async () => {
  await client.close();
});

describe('seedDemo', () => {
  it('fills an empty database', async () => {
    expect(wasEmptyBefore).toBe(true);
    expect(await isDatabaseEmpty(db)).toBe(false);
  });

  describe('accounts', () => {
    const documented: [email: string, role: string, organisations: Record<string, string>][] = [
      ['super@demo.test', 'SUPER_ADMIN', { 'PatientSim Provider': 'SUPER_ADMIN' }],
      ['owner@demo.test', 'ADMIN', { 'Riverside EMS Academy': 'ADMIN' }],
      ['admin@demo.test', 'ADMIN', { 'Riverside EMS Academy': 'ADMIN' }],
      ['instructor@demo.test', 'USER', { 'Riverside EMS Academy': 'USER' }],
      ['student@demo.test', 'STUDENT', { 'Riverside EMS Academy': 'STUDENT' }],
      ['student2@demo.test', 'STUDENT', { 'Riverside EMS Academy': 'STUDENT' }],
      ['nurse@demo.test', 'ADMIN', { 'Northgate Nursing School': 'ADMIN' }],
      ['multi@demo.test', 'USER', { 'Riverside EMS Academy': 'USER', 'Northgate Nursing School': 'USER' }],
      ['medic@demo.test', 'ADMIN', { 'Harbor Medic Unit': 'ADMIN' }],
      ['unverified@demo.test', 'STUDENT', { 'Riverside EMS Academy': 'STUDENT' }],
      ['nolicense@demo.test', 'STUDENT', { 'Riverside EMS Academy': 'STUDENT' }],
      ['noorg@demo.test', 'STUDENT', {}],
      ['removed@demo.test', 'STUDENT', {}],
    ];

    it.each(documented)('%s has global role %s and the documented organisations', (email, role, organisations) => {
      expect(userByEmail(email).role).toBe(role);
      expect(organisationsOf(email)).toEqual(organisations);
      expect(DEMO_ACCOUNTS.find((demo) => demo.email === email)?.role).toBe(role);
    });

    it('stores every user once, by lower-case e-mail, with a name from the given and family names', () => {
      for (const row of rows.users) {
        expect(row.email).toBe(row.email.toLowerCase());
        expect(row.name).toBe(`${row.givenName} ${row.familyName}`);
        expect(row.givenName).not.toBe('');
      }
      expect(new Set(rows.users.map((row) => row.email)).size).toBe(rows.users.length);
      expect(rows.users.map((row) => row.email).sort()).toEqual(DEMO_ACCOUNTS.map((demo) => demo.email).sort());
    });

    it('gives every account a credential with the demo password', async () => {
      expect(rows.accounts).toHaveLength(rows.users.length);
      for (const credential of rows.accounts) {
        expect(credential.providerId).toBe('credential');
        expect(credential.accountId).toBe(credential.userId);
      }
      const [first] = rows.accounts;
      expect(first?.password).toBeTruthy();
      expect(await verifyPassword({ hash: first?.password ?? '', password: DEMO_PASSWORD })).toBe(true);
      expect(new Set(rows.accounts.map((row) => row.password)).size).toBe(1);
    });

    it('verifies every e-mail but one, and records license acceptance for all but one', () => {
      const unverified = rows.users.filter((row) => !row.emailVerified).map((row) => row.email);
      expect(unverified).toEqual(['unverified@demo.test']);
      const withoutLicense = rows.users.filter((row) => row.licenseVersion !== '1.0').map((row) => row.email);
      expect(withoutLicense).toEqual(['nolicense@demo.test']);
      const accepted = new Set(rows.licenseAcceptances.filter((row) => row.version === '1.0').map((row) => row.userId));
      expect(accepted.has(userByEmail('nolicense@demo.test').id)).toBe(false);
      expect(accepted.size).toBe(rows.users.length - 1);
    });

    it('keeps the removed user in the Riverside archive', () => {
      const riverside = orgByName('Riverside EMS Academy');
      const removed = rows.members.filter((member) => member.userId === userByEmail('removed@demo.test').id);
      expect(removed).toHaveLength(1);
      expect(removed[0]?.groupId).toBe(riverside.id);
      expect(removed[0]?.removedAt).toBeInstanceOf(Date);
    });

    it('has no membership at all for noorg', () => {
      expect(rows.members.filter((member) => member.userId === userByEmail('noorg@demo.test').id)).toEqual([]);
      expect(userByEmail('noorg@demo.test').emailVerified).toBe(true);
    });

    it('gives owner a payment customer and medic a past-due subscription', () => {
      expect(userByEmail('owner@demo.test').stripeCustomerId).toBeTruthy();
      expect(userByEmail('medic@demo.test').stripeCustomerId).toBeTruthy();
      expect(userByEmail('medic@demo.test').subscriptionStatus).toBe('past_due');
      expect(userByEmail('owner@demo.test').subscriptionStatus).not.toBe('past_due');
    });

    it('points the active organisation at a membership', () => {
      expect(userByEmail('student@demo.test').activeOrgId).toBe(orgByName('Riverside EMS Academy').id);
      expect(userByEmail('noorg@demo.test').activeOrgId).toBeNull();
    });
  });

  describe('organisations', () => {
    const documented: [name: string, productType: string, seats: number][] = [
      ['PatientSim Provider', 'EMS', 100],
      ['Riverside EMS Academy', 'EMS', 25],
      ['Northgate Nursing School', 'NURSING', 10],
      ['Harbor Medic Unit', 'MILITARY', 3],
      ['EMS Templates', 'EMS', 0],
      ['Nursing Templates', 'NURSING', 0],
      ['Military Templates', 'MILITARY', 0],
      ['Dormant Ambulance Service', 'EMS', 5],
    ];

    it.each(documented)('%s is a %s organisation with %i seats', (name, productType, seats) => {
      const org = orgByName(name);
      expect(org.productType).toBe(productType);
      expect(org.seats).toBe(seats);
    });

    it('sets the flags', () => {
      const flagged = (flag: 'dev' | 'inactive' | 'testing') =>
        rows.groups.filter((row) => row[flag]).map((row) => displayGroupName(row.name));
      expect(flagged('dev')).toEqual(['PatientSim Provider']);
      expect(flagged('inactive')).toEqual(['Dormant Ambulance Service']);
      expect(flagged('testing')).toEqual(['QA Sandbox']);
      expect(orgByName('EMS Templates').templatesFor).toBe('EMS');
      expect(orgByName('Nursing Templates').templatesFor).toBe('NURSING');
      expect(orgByName('Military Templates').templatesFor).toBe('MILITARY');
      expect(rows.groups.filter((row) => row.templatesFor !== null)).toHaveLength(3);
    });

    it('names the key owners', () => {
      expect(orgByName('Riverside EMS Academy').ownerId).toBe(userByEmail('owner@demo.test').id);
      expect(orgByName('Northgate Nursing School').ownerId).toBe(userByEmail('nurse@demo.test').id);
      expect(orgByName('Harbor Medic Unit').ownerId).toBe(userByEmail('medic@demo.test').id);
    });

    it('fills Harbor Medic Unit to its seats', () => {
      const harbor = orgByName('Harbor Medic Unit');
      expect(activeMembers(harbor.id)).toHaveLength(harbor.seats);
    });

    it('gives one organisation more active members than a page of the Users table, and Riverside a second archive page', () => {
      const provider = orgByName('PatientSim Provider');
      expect(activeMembers(provider.id).length).toBeGreaterThan(50);
      const riverside = orgByName('Riverside EMS Academy');
      const archived = rows.members.filter((member) => member.groupId === riverside.id && member.removedAt !== null);
      expect(archived.length).toBeGreaterThan(50);
    });

    it('keeps every organisation within its seats', () => {
      for (const org of rows.groups.filter((row) => row.parentId === null && row.seats > 0)) {
        expect(activeMembers(org.id).length).toBeLessThanOrEqual(org.seats);
      }
    });

    it('stores the sub-groups with the prefix of their parent', () => {
      const riverside = orgByName('Riverside EMS Academy');
      const northgate = orgByName('Northgate Nursing School');
      const subgroupsOf = (parentId: string) =>
        rows.groups
          .filter((row) => row.parentId === parentId)
          .map((row) => row.name)
          .sort();
      expect(subgroupsOf(riverside.id)).toEqual(
        ['Paramedic Cohort A', 'Paramedic Cohort B', 'QA Sandbox'].map((name) => prefixSubgroupName(riverside.id, name)),
      );
      expect(subgroupsOf(northgate.id)).toEqual([prefixSubgroupName(northgate.id, 'Cohort 2027')]);
      for (const name of ['PatientSim Provider', 'Harbor Medic Unit', 'EMS Templates', 'Dormant Ambulance Service']) {
        expect(subgroupsOf(orgByName(name).id)).toEqual([]);
      }
    });

    it('puts instructor and student in Paramedic Cohort A', () => {
      const riverside = orgByName('Riverside EMS Academy');
      const cohortA = rows.groups.find((row) => row.name === prefixSubgroupName(riverside.id, 'Paramedic Cohort A'));
      const memberIds = activeMembers(cohortA?.id ?? '').map((member) => member.userId);
      expect(memberIds).toContain(userByEmail('instructor@demo.test').id);
      expect(memberIds).toContain(userByEmail('student@demo.test').id);
    });

    it('creates an App Lab organisation per product type, marked as such', () => {
      for (const productType of PRODUCT_TYPES) {
        const appLab = orgByName(APP_LAB_ORG_NAMES[productType]);
        expect(appLab.productType).toBe(productType);
        expect(appLab.inactive).toBe(false);
        expect(appLab.appLabFor).toBe(productType);
      }
      expect(rows.groups.filter((row) => row.appLabFor !== null)).toHaveLength(PRODUCT_TYPES.length);
    });
  });

  describe('invitations', () => {
    it.each([
      ['invitee@demo.test', 'STUDENT'],
      ['instructor@demo.test', 'USER'],
    ])('%s has a pending invitation to Northgate Nursing School as %s', (email, role) => {
      const invites = rows.invitations.filter((row) => row.email === email);
      expect(invites).toHaveLength(1);
      const [invite] = invites;
      expect(invite?.orgId).toBe(orgByName('Northgate Nursing School').id);
      expect(invite?.role).toBe(role);
      expect(invite?.status).toBe('pending');
      expect(invite?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(invite?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * DAY_MS);
    });

    it('has no account for the invitee yet', () => {
      expect(rows.users.some((row) => row.email === 'invitee@demo.test')).toBe(false);
    });
  });

  describe('cases', () => {
    const riversideCases = () => rows.cases.filter((row) => row.ownerOrgId === orgByName('Riverside EMS Academy').id);

    it('gives Riverside at least 60 varied cases over the last two years', () => {
      const cases = riversideCases();
      expect(cases.length).toBeGreaterThanOrEqual(60);
      expect(new Set(cases.map((row) => row.avatarName)).size).toBeGreaterThanOrEqual(8);
      expect(new Set(cases.map((row) => row.startLocationName)).size).toBeGreaterThanOrEqual(8);
      expect(new Set(cases.map((row) => row.endLocationName)).size).toBeGreaterThanOrEqual(3);
      const created = cases.map((row) => row.createdAt.getTime());
      expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(600 * DAY_MS);
      expect(Math.min(...created)).toBeGreaterThanOrEqual(Date.now() - 731 * DAY_MS);
      expect(new Set(cases.map((row) => row.ownerId)).size).toBeGreaterThan(1);
    });

    it('records last played and last opened dates', () => {
      const ids = new Set(riversideCases().map((row) => row.id));
      const plays = rows.plays.filter((row) => ids.has(row.caseId));
      expect(plays.filter((row) => row.lastPlayed).length).toBeGreaterThan(10);
      expect(plays.filter((row) => row.lastAccessed).length).toBe(plays.length);
      expect(new Set(plays.map((row) => row.userId)).size).toBeGreaterThan(3);
      for (const play of plays) {
        if (play.lastPlayed && play.lastAccessed)
          expect(play.lastPlayed.getTime()).toBeLessThanOrEqual(play.lastAccessed.getTime());
      }
    });

    it('flags cases for an effect-chain update and with validation errors', () => {
      expect(riversideCases().filter((row) => row.needsEcUpdate).length).toBeGreaterThanOrEqual(3);
      expect(riversideCases().filter((row) => row.errorsCount > 0).length).toBeGreaterThanOrEqual(2);
    });

    it('shares a case with Northgate Nursing School', () => {
      const northgateId = orgByName('Northgate Nursing School').id;
      const shared = rows.shares.filter((row) => row.shareType === 'group' && row.toId === northgateId);
      expect(shared.length).toBeGreaterThanOrEqual(1);
      for (const share of shared) {
        const row = rows.cases.find((candidate) => candidate.id === share.caseId);
        expect(row?.ownerOrgId).toBe(orgByName('Riverside EMS Academy').id);
        expect(row?.access.read.groups).toContain(northgateId);
        expect(row?.readers).toContain(northgateId);
      }
    });

    it('gives the instructor favorites', () => {
      const instructorId = userByEmail('instructor@demo.test').id;
      expect(rows.favorites.filter((row) => row.userId === instructorId).length).toBeGreaterThanOrEqual(2);
    });

    it('keeps the document, the access and the indexed columns consistent', () => {
      for (const row of rows.cases) {
        const document = row.document as {
          id: string;
          name: string;
          _avatar: { name: { en: string }; picture: { url: string } };
          _startLocation: { name: { en: string } };
          _endLocation: { name: { en: string } };
          dispatch: { chiefComplaint: { caption: { en: string } }; learningObjectives: { caption: { en: string } } };
        };
        expect(document.id).toBe(row.id);
        expect(document.name).toBe(row.name);
        expect(document._avatar.name.en).toBe(row.avatarName);
        expect(document._avatar.picture.url).toMatch(/^\/media\/[0-9a-f]{24}$/);
        expect(document._startLocation.name.en).toBe(row.startLocationName);
        expect(document._endLocation.name.en).toBe(row.endLocationName);
        expect(document.dispatch.chiefComplaint.caption.en).not.toBe('');
        expect(document.dispatch.learningObjectives.caption.en).not.toBe('');
        expect(row.searchableText).toBe(row.searchableText.toLowerCase());
        expect(row.searchableText).toContain(row.name.toLowerCase());
        expect(row.access.owner).toBe(row.ownerId);
        expect(row.access.ownerOrg).toBe(row.ownerOrgId);
        expect(row.readers).toContain(row.ownerOrgId);
        const readers = [...row.access.read.groups, ...row.access.run.groups, ...row.access.read.users, ...row.access.run.users];
        expect(new Set(row.readers)).toEqual(new Set(readers));
      }
    });

    it('gives each template organisation published and App Lab templates', () => {
      for (const productType of PRODUCT_TYPES) {
        const templateOrg = rows.groups.find((row) => row.templatesFor === productType);
        const appLabId = orgByName(APP_LAB_ORG_NAMES[productType]).id;
        const templates = rows.cases.filter((row) => row.ownerOrgId === templateOrg?.id);
        expect(templates.length).toBeGreaterThanOrEqual(4);
        expect(templates.every((row) => row.isTemplate)).toBe(true);

        const published = templates.filter((row) => row.published);
        expect(published.length).toBeGreaterThanOrEqual(1);
        for (const row of published) {
          for (const list of [row.access.read.groups, row.access.run.groups]) {
            expect(list).toEqual(expect.arrayContaining(['ALL_ADMINS', 'ALL_INSTRUCTORS']));
          }
        }
        const appLab = templates.filter((row) => row.applab);
        expect(appLab.length).toBeGreaterThanOrEqual(1);
        for (const row of appLab) {
          expect(row.access.read.groups).toContain(appLabId);
          expect(row.access.run.groups).toContain(appLabId);
        }
        for (const row of templates.filter((candidate) => !candidate.published)) {
          expect(row.access.read.groups).not.toContain('ALL_ADMINS');
        }
      }
    });

    it('gives each product type a public content organisation with published and unpublished scenarios', () => {
      for (const productType of PRODUCT_TYPES) {
        const content = orgByName(PUBLIC_CONTENT_ORG_NAMES[productType]);
        expect(content.contentFor).toBe(productType);
        expect(content.productType).toBe(productType);
        expect(content.inactive).toBe(false);
        const scenarios = rows.cases.filter((row) => row.ownerOrgId === content.id);
        expect(scenarios.filter((row) => row.published).length).toBeGreaterThanOrEqual(2);
        expect(scenarios.filter((row) => !row.published).length).toBeGreaterThanOrEqual(1);
        expect(scenarios.some((row) => row.isTemplate)).toBe(false);
      }
      expect(rows.groups.filter((row) => row.contentFor !== null)).toHaveLength(PRODUCT_TYPES.length);
    });

    it('keeps templates out of the organisation libraries', () => {
      expect(riversideCases().some((row) => row.isTemplate)).toBe(false);
    });
  });

  describe('tutorials and media', () => {
    it.each(['EMS', 'NURSING'])('has a video tutorial in every category for %s', (productType) => {
      for (const category of TUTORIAL_CATEGORIES) {
        const tutorials = rows.tutorials.filter((row) => row.category === category && row.productType === productType);
        expect(tutorials.length, category).toBeGreaterThanOrEqual(1);
        for (const row of tutorials) {
          const video = rows.media.find((candidate) => candidate.id === row.mediaId);
          expect(video?.contentType).toMatch(/^video\//);
        }
      }
    });

    it('orders tutorials and gives them titles', () => {
      for (const row of rows.tutorials) {
        expect(row.title.length).toBeGreaterThan(5);
        expect(row.ordinal).toBeGreaterThan(0);
      }
    });

    it('points every media row at a file in the seed assets', () => {
      for (const row of rows.media) {
        expect(row.path).not.toBeNull();
        const file = path.join(SEED_ASSETS_DIR, row.path ?? '');
        expect(existsSync(file), row.path ?? '').toBe(true);
        expect(statSync(file).size).toBeGreaterThan(0);
        expect(path.relative(SEED_ASSETS_DIR, file).startsWith('..')).toBe(false);
      }
    });
  });

  describe('notifications', () => {
    const targetsOf = (notificationId: string) => rows.targets.filter((row) => row.notificationId === notificationId);

    it('sends an INFO notification to all instructors', () => {
      const forInstructors = rows.notifications.filter(
        (row) =>
          row.type === 'INFO' &&
          targetsOf(row.id).some((target) => target.principalType === 'GROUP' && target.principalId === 'ALL_INSTRUCTORS'),
      );
      expect(forInstructors.length).toBeGreaterThanOrEqual(1);
    });

    it('gives student2 three unread popup messages, one with an image', () => {
      const student2Id = userByEmail('student2@demo.test').id;
      const popups = rows.notifications.filter(
        (row) =>
          row.type === 'POPUP_MESSAGE' &&
          targetsOf(row.id).some((target) => target.principalType === 'USER' && target.principalId === student2Id),
      );
      expect(popups).toHaveLength(3);
      expect(rows.receipts.filter((row) => row.userId === student2Id)).toEqual([]);
      for (const popup of popups) {
        expect(NOTIFICATION_COLORS).toContain(popup.color);
        expect(popup.actions.length).toBeGreaterThanOrEqual(1);
      }
      const withImage = popups.filter((row) => row.media?.type === 'IMAGE');
      expect(withImage).toHaveLength(1);
      const mediaId = withImage[0]?.media?.url.replace('/media/', '');
      expect(rows.media.find((row) => row.id === mediaId)?.contentType).toBe('image/png');
    });

    it('keeps titles and messages within the composer limits', () => {
      for (const row of rows.notifications) {
        expect(row.title.length).toBeLessThanOrEqual(NOTIFICATION_HEADER_MAX);
        expect(row.message.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
        expect(NOTIFICATION_COLORS).toContain(row.color);
        for (const action of row.actions) expect(NotificationActionSchema.safeParse(action).success).toBe(true);
      }
    });
  });
});
