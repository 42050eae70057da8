import { DEFAULT_CASE_COLUMNS } from '@patientsim/domain/cases/case-list';
import { describe, expect, it } from 'vitest';
import { columnsStorageKey, nextSort, readColumns, toggleColumn, writeColumns } from './case-list-state';

describe('nextSort', () => {
  it('starts a new column ascending and flips the same column', () => {
    expect(nextSort(null, 'CREATED_AT')).toEqual({ field: 'CREATED_AT', direction: 'ASC' });
    expect(nextSort({ field: 'CREATED_AT', direction: 'ASC' }, 'CREATED_AT')).toEqual({ field: 'CREATED_AT', direction: 'DESC' });
    expect(nextSort({ field: 'CREATED_AT', direction: 'DESC' }, 'CREATED_AT')).toEqual({ field: 'CREATED_AT', direction: 'ASC' });
    expect(nextSort({ field: 'CREATED_AT', direction: 'DESC' }, 'AVATAR_NAME')).toEqual({
      field: 'AVATAR_NAME',
      direction: 'ASC',
    });
  });
});

describe('toggleColumn', () => {
  it('refuses a fifth column and keeps the spec order', () => {
    expect(toggleColumn(DEFAULT_CASE_COLUMNS, 'published')).toEqual({ shown: [...DEFAULT_CASE_COLUMNS], isRefused: true });
    expect(toggleColumn(['patient', 'createdAt'], 'scene1')).toEqual({
      shown: ['patient', 'scene1', 'createdAt'],
      isRefused: false,
    });
    expect(toggleColumn(['patient', 'createdAt'], 'patient')).toEqual({ shown: ['createdAt'], isRefused: false });
  });
});

describe('column storage', () => {
  it('keeps the choice per product type under a product prefix, and falls back to the first four', () => {
    expect(readColumns('EMS')).toEqual([...DEFAULT_CASE_COLUMNS]);
    writeColumns('NURSING', ['applab', 'patient']);
    expect(window.localStorage.getItem('patientsim.NURSING.caseList.columns')).toBe('["applab","patient"]');
    expect(readColumns('NURSING')).toEqual(['patient', 'applab']);
    expect(readColumns('EMS')).toEqual([...DEFAULT_CASE_COLUMNS]);
    window.localStorage.setItem(columnsStorageKey('EMS'), '["patient","scene1","origin","createdAt","author"]');
    expect(readColumns('EMS')).toEqual([...DEFAULT_CASE_COLUMNS]);
    window.localStorage.setItem(columnsStorageKey('EMS'), 'not json');
    expect(readColumns('EMS')).toEqual([...DEFAULT_CASE_COLUMNS]);
  });
});
