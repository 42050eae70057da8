import { describe, expect, it } from 'vitest';
import { CASE_COUNT_LIMIT, caseCountText, caseUpdateLabel, isCaseUpdatePending } from './case-list.js';

describe('caseCountText', () => {
  it('says how many are shown of an exact count, in the singular for one', () => {
    expect(caseCountText(1, 1, false)).toBe('Showing 1 of 1 scenario');
    expect(caseCountText(0, 0, false)).toBe('Showing 0 of 0 scenarios');
    expect(caseCountText(50, 640, false)).toBe('Showing 50 of 640 scenarios');
  });

  it('says "or more" with a plus past the counting limit, with thousands separated', () => {
    expect(caseCountText(150, CASE_COUNT_LIMIT, true)).toBe('Showing 150 of 1,000+ scenarios');
    expect(caseCountText(1200, CASE_COUNT_LIMIT, true)).toBe('Showing 1,200 of 1,200+ scenarios');
  });
});

describe('isCaseUpdatePending', () => {
  it('offers the Y/N choice only for a case that needs an update the user has not declined', () => {
    expect(isCaseUpdatePending({ needsEcUpdate: true, ignoreEcUpdate: false })).toBe(true);
    // Declined: updated later in the Medications or Case Logic panel.
    expect(isCaseUpdatePending({ needsEcUpdate: true, ignoreEcUpdate: true })).toBe(false);
    // Nothing to update (never needed, or updated already: an update clears needsEcUpdate).
    expect(isCaseUpdatePending({ needsEcUpdate: false, ignoreEcUpdate: false })).toBe(false);
    expect(isCaseUpdatePending({ needsEcUpdate: false, ignoreEcUpdate: true })).toBe(false);
  });
});

describe('caseUpdateLabel', () => {
  it("says 'Updated', 'Error', 'Declined' or 'No Action' (spec section 4)", () => {
    expect(caseUpdateLabel({ updateStatus: 'UPDATED' })).toBe('Updated');
    expect(caseUpdateLabel({ updateStatus: 'ERRORED' })).toBe('Error');
    expect(caseUpdateLabel({ updateStatus: 'DECLINED', ignoreEcUpdate: true })).toBe('Declined');
    expect(caseUpdateLabel({ ignoreEcUpdate: true })).toBe('Declined');
    expect(caseUpdateLabel({ updateStatus: null, ignoreEcUpdate: false })).toBe('No Action');
  });
});
