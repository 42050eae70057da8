import { describe, expect, it } from 'vitest';
import {
  buildCaseAccess,
  deriveCaseColumns,
  flattenReaders,
  isInAppLab,
  isPublished,
  withAppLab,
  withPublished,
} from './case-access.js';

describe('case access rules (spec section 4)', () => {
  const access = buildCaseAccess({ ownerId: 'author', ownerOrgId: 'org' });

  it('gives the organisation read and run, the author write and share', () => {
    expect(access.read.groups).toEqual(['org']);
    expect(access.run.groups).toEqual(['org']);
    expect(access.write.users).toEqual(['author']);
    expect(access.share.users).toEqual(['author']);
    expect(flattenReaders(access)).toEqual(['org']);
  });

  it('publishes with ALL_ADMINS and ALL_INSTRUCTORS in read and run groups, and unpublishes without them', () => {
    const published = withPublished(access, true);
    expect(published.read.groups).toEqual(['org', 'ALL_ADMINS', 'ALL_INSTRUCTORS']);
    expect(published.run.groups).toEqual(['org', 'ALL_ADMINS', 'ALL_INSTRUCTORS']);
    expect(isPublished(published)).toBe(true);
    expect(withPublished(published, true)).toEqual(published);
    const unpublished = withPublished(published, false);
    expect(unpublished).toEqual(access);
    expect(isPublished(unpublished)).toBe(false);
    // Published means ALL_ADMINS in read or run groups, whatever else.
    expect(isPublished({ ...access, run: { ...access.run, groups: ['ALL_ADMINS'] } })).toBe(true);
  });

  it('adds and removes the App Lab organisation in read and run groups', () => {
    const inAppLab = withAppLab(access, 'lab', true);
    expect(inAppLab.read.groups).toContain('lab');
    expect(inAppLab.run.groups).toContain('lab');
    expect(isInAppLab(inAppLab, ['lab'])).toBe(true);
    expect(isInAppLab(inAppLab, ['other-lab'])).toBe(false);
    expect(withAppLab(inAppLab, 'lab', false)).toEqual(access);
  });

  it('flattens roles, product types and timed access into the readers', () => {
    const granted = {
      ...access,
      read: { groups: ['org'], users: ['reader'], roles: ['ADMIN'], productType: ['NURSING'] },
    };
    expect(flattenReaders(granted, { users: ['assignee'], groups: ['class'] }).sort()).toEqual(
      ['assignee', 'class', 'org', 'productType:NURSING', 'reader', 'role:ADMIN'].sort(),
    );
  });

  it('derives the list columns from the document', () => {
    const columns = deriveCaseColumns(
      {
        name: 'Chest Pain',
        tags: 'Cardiac',
        _avatar: { name: { en: 'Walter' } },
        _startLocation: { name: { en: 'Gym' } },
        _endLocation: null,
        searchableText: 'extra words',
        errorsCount: 2,
        needsEcUpdate: true,
      },
      withPublished(access, true),
      [],
    );
    expect(columns).toMatchObject({
      name: 'Chest Pain',
      avatarName: 'Walter',
      startLocationName: 'Gym',
      endLocationName: null,
      published: true,
      applab: false,
      errorsCount: 2,
      needsEcUpdate: true,
      searchableText: 'chest pain cardiac walter gym extra words',
    });
  });
});
