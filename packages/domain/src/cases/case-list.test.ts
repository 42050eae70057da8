import { describe, expect, it } from 'vitest';
import { caseUpdateLabel, isCaseUpdatePending } from './case-list.js';

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
