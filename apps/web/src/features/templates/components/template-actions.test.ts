import type { TemplateCase } from '@patientsim/domain/cases/template-case.schemas';
import { describe, expect, it } from 'vitest';
import {
  TEMPLATE_TABS,
  actionTexts,
  actionVariables,
  appLabActionFor,
  hasAppLab,
  publishActionFor,
  sortTemplates,
  tabFromSlug,
  tagsText,
} from './template-actions';

const template = (id: string, name: string): TemplateCase => ({
  id,
  name,
  tags: null,
  dispatch: null,
  _avatar: null,
  _startLocation: null,
  _endLocation: null,
  errorsCount: 0,
  warningsCount: 0,
  published: false,
  applab: false,
});

describe('template tabs', () => {
  it('are EMS, Nursing and Military, EMS by default', () => {
    expect(TEMPLATE_TABS.map((tab) => tab.label)).toEqual(['EMS', 'Nursing', 'Military']);
    expect(tabFromSlug('nursing').productType).toBe('NURSING');
    expect(tabFromSlug('military').productType).toBe('MILITARY');
    expect(tabFromSlug(null).productType).toBe('EMS');
    expect(tabFromSlug('unknown').productType).toBe('EMS');
  });

  it('show App Lab where the product type has it', () => {
    for (const tab of TEMPLATE_TABS) expect(hasAppLab(tab.productType)).toBe(true);
  });
});

describe('the template list', () => {
  it('sorts by name, ignoring case, then by id', () => {
    const sorted = sortTemplates([
      template('3', 'stroke'),
      template('1', 'Asthma'),
      template('2', 'Burns'),
      template('0', 'Stroke'),
    ]);
    expect(sorted.map((c) => c.id)).toEqual(['1', '2', '0', '3']);
  });

  it("shows the tags, or 'No tags'", () => {
    expect(tagsText('cardiac, adult')).toBe('cardiac, adult');
    expect(tagsText('   ')).toBe('No tags');
    expect(tagsText(null)).toBe('No tags');
  });
});

describe('template actions', () => {
  it('toggle the published and App Lab states', () => {
    expect(publishActionFor({ published: false })).toBe('publish');
    expect(publishActionFor({ published: true })).toBe('unpublish');
    expect(appLabActionFor({ applab: false })).toBe('addAppLab');
    expect(appLabActionFor({ applab: true })).toBe('removeAppLab');
    expect(actionVariables('publish', 'c1')).toEqual({ kind: 'publish', id: 'c1', published: true });
    expect(actionVariables('unpublish', 'c1')).toEqual({ kind: 'publish', id: 'c1', published: false });
    expect(actionVariables('addAppLab', 'c1')).toEqual({ kind: 'appLab', id: 'c1', applab: true });
    expect(actionVariables('removeAppLab', 'c1')).toEqual({ kind: 'appLab', id: 'c1', applab: false });
  });

  it("use the spec's button labels and say every customer is affected", () => {
    expect(actionTexts('publish', 'Chest pain', 'EMS').label).toBe('Add To Templates');
    expect(actionTexts('unpublish', 'Chest pain', 'EMS').label).toBe('Remove From Templates');
    expect(actionTexts('addAppLab', 'Chest pain', 'EMS').label).toBe('Make Available To App Lab Users');
    expect(actionTexts('removeAppLab', 'Chest pain', 'EMS').label).toBe('Remove From All App Lab Users');
    expect(actionTexts('publish', 'Chest pain', 'EMS').consequence).toMatch(/all admins and instructors of every organization/);
    expect(actionTexts('addAppLab', 'Chest pain', 'Nursing').consequence).toMatch(/Every Nursing App Lab user/);
  });
});
