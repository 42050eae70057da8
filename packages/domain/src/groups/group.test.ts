import { describe, expect, it } from 'vitest';
import { displayGroupName, parseGroupMetadata, prefixSubgroupName, stripGroupPrefixes } from './group.schemas.js';

describe('sub-group names (decision 10)', () => {
  it('prefixes the first 4 characters of the parent id once', () => {
    expect(prefixSubgroupName('65a1b2c3d4', 'Cohort A')).toBe('65a1::Cohort A');
    expect(prefixSubgroupName('65a1b2c3d4', '65a1::Cohort A')).toBe('65a1::Cohort A');
  });

  it('strips the prefix for display and inside error messages', () => {
    expect(displayGroupName('65a1::Cohort A')).toBe('Cohort A');
    expect(displayGroupName('Riverside EMS Academy')).toBe('Riverside EMS Academy');
    expect(stripGroupPrefixes("Group '65a1::Cohort A' already exists")).toBe("Group 'Cohort A' already exists");
  });

  it('parses metadata from the description and tolerates junk', () => {
    const description = JSON.stringify({
      ownerId: null,
      seats: 3,
      memberCount: 1,
      productType: 'EMS',
      dev: false,
      testing: false,
      debug: false,
      ai: false,
      inactive: false,
    });
    expect(parseGroupMetadata({ description })?.seats).toBe(3);
    expect(parseGroupMetadata({ description: 'not json' })).toBeNull();
  });
});
