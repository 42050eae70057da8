import { describe, expect, it } from 'vitest';
import { CASE_COUNT_LIMIT, caseCountText } from './case-list.js';

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
