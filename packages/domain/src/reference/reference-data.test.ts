import { describe, expect, it } from 'vitest';
import { featureLabel, isFeatureAvailable } from '../product/features.js';
import { BODY_PART_KEYS, BODY_PARTS, bodyPartLabel } from './body-parts.js';
import {
  DOSAGE_FORMS,
  INFUSION_BAG_VOLUMES,
  INFUSION_DOSING_TYPES,
  PUSH_TIME_FRAMES,
  dosageFormTakesVolume,
  unitsOf,
} from './medication.js';
import { BODY_TYPES, POSITIONS } from './patient.js';
import { buildReferenceData, ReferenceDataSchema } from './reference-data.js';
import {
  GAUGE_KEYS,
  GAUGES,
  IV_CATEGORIES,
  NEEDLE_SETS,
  PLACEMENTS,
  PORT_NAMES,
  SIDES,
  SITES,
  TUBINGS,
  placementsFor,
} from './vascular-access.js';

describe('body parts (spec section 3)', () => {
  it('lists the 26 keys in the spec order', () => {
    expect(BODY_PART_KEYS).toHaveLength(26);
    expect(BODY_PARTS.map((part) => part.key)).toEqual([...BODY_PART_KEYS]);
    expect(BODY_PART_KEYS[0]).toBe('FULL_BODY');
    expect(BODY_PART_KEYS.indexOf('GENITALIA')).toBe(18);
    expect(BODY_PART_KEYS.at(-1)).toBe('BUTTOCKS');
  });

  it('carries the labels the spec gives, and no invented Spanish', () => {
    expect(bodyPartLabel('GENITALIA')).toBe('Pelvis/Genitalia');
    expect(bodyPartLabel('BUTTOCKS', 'es')).toBe('Las Nalgas');
    const spanish = BODY_PARTS.filter((part) => part.label.es !== undefined).map((part) => part.key);
    expect(spanish).toEqual(['BUTTOCKS']);
    // A missing Spanish label falls back to English.
    expect(bodyPartLabel('HEAD', 'es')).toBe('Head');
    for (const part of BODY_PARTS) expect(part.label.en).not.toBe('');
  });
});

describe('medication reference data', () => {
  it('has the 22 dosage forms; solution and suspension take volume', () => {
    expect(DOSAGE_FORMS.map((form) => form.label)).toEqual([
      'Unit',
      'MDI',
      'Tablet',
      'Pill',
      'Capsule',
      'Bottle',
      'Drop',
      'Inch',
      'Spray',
      'Tube',
      'Packet',
      'Actuation',
      'Patch',
      'Topical Ointment',
      'ODT',
      'Suppository',
      'Bullet',
      'Lozenge',
      'Gel',
      'Autoinjector',
      'Solution',
      'Suspension',
    ]);
    expect(DOSAGE_FORMS.filter((form) => form.secondCategory === 'VOLUME').map((form) => form.key)).toEqual([
      'SOLUTION',
      'SUSPENSION',
    ]);
    expect(dosageFormTakesVolume('SOLUTION')).toBe(true);
    expect(dosageFormTakesVolume('TABLET')).toBe(false);
  });

  it('groups the unit types', () => {
    expect(unitsOf('WEIGHT')).toEqual(['g', 'mg', 'mcg', 'ng']);
    expect(unitsOf('VOLUME')).toEqual(['mL', 'cc', 'L']);
    expect(unitsOf('EQUIVALENT')).toEqual(['mEq']);
    expect(unitsOf('UNITS')).toEqual(['unit', 'mUnit']);
    expect(unitsOf('COUNTABLE')).toEqual([]);
  });

  it('has the push time frames, bag volumes and dosing types', () => {
    expect(PUSH_TIME_FRAMES.map((frame) => frame.seconds)).toEqual([null, 15, 30, 45, 60, 120, 180, 300, 600]);
    expect(INFUSION_BAG_VOLUMES.map((bag) => bag.volumeMl)).toEqual([10, 50, 100, 125, 200, 250, 300, 350, 500, 1000]);
    expect(INFUSION_BAG_VOLUMES.filter((bag) => (bag.containers as readonly string[]).includes('GLASS')).length).toBeGreaterThan(
      0,
    );
    expect(INFUSION_DOSING_TYPES).toHaveLength(8 * 4);
    expect(INFUSION_DOSING_TYPES.map((type) => type.label)).toContain('mcg/kg/min');
    expect(INFUSION_DOSING_TYPES.map((type) => type.label)).toContain('munits/hr');
    expect(new Set(INFUSION_DOSING_TYPES.map((type) => type.key)).size).toBe(32);
  });
});

describe('vascular access reference data', () => {
  it('has the gauges 14G to 24G and 5FR to 12FR', () => {
    expect(GAUGES.filter((gauge) => gauge.scale === 'GAUGE').map((gauge) => gauge.size)).toEqual([
      14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
    ]);
    expect(GAUGES.filter((gauge) => gauge.scale === 'FRENCH').map((gauge) => gauge.key)).toEqual([
      '5FR',
      '6FR',
      '7FR',
      '8FR',
      '9FR',
      '10FR',
      '11FR',
      '12FR',
    ]);
  });

  it('has sides, needle sets, tubings and the two IV categories', () => {
    expect(SIDES.map((side) => side.key)).toEqual(['LEFT', 'RIGHT', 'CENTER']);
    expect(NEEDLE_SETS.map((set) => set.lengthMm)).toEqual([15, 25, 38.5, 45]);
    expect(TUBINGS.map((tubing) => tubing.dropsPerMl)).toEqual([10, 15, 60]);
    expect(IV_CATEGORIES.map((category) => category.key)).toEqual(['PERIPHERAL', 'INTRAOSSEOUS']);
  });

  it('has the six placements, each referring only to known sites, gauges, ports and product types', () => {
    expect(PLACEMENTS.map((placement) => placement.label)).toEqual([
      'Central Line',
      'PICC',
      'PortaCath',
      'Introducer',
      'Sheath',
      'Dialysis Catheter',
    ]);
    const siteKeys = new Set<string>(SITES.map((site) => site.key));
    const portKeys = new Set<string>(PORT_NAMES.map((port) => port.key));
    for (const placement of PLACEMENTS) {
      expect(placement.sites.length).toBeGreaterThan(0);
      for (const site of placement.sites) expect(siteKeys.has(site)).toBe(true);
      for (const gauge of placement.gauges) expect(GAUGE_KEYS).toContain(gauge);
      for (const option of placement.ports) {
        expect(option.names).toHaveLength(option.amount);
        for (const name of option.names) expect(portKeys.has(name)).toBe(true);
      }
      expect(placement.productTypes.length).toBeGreaterThan(0);
    }
    for (const category of IV_CATEGORIES) {
      for (const site of category.sites) expect(siteKeys.has(site)).toBe(true);
      for (const gauge of category.gauges) expect(GAUGE_KEYS).toContain(gauge);
    }
    expect(placementsFor('NURSING')).toHaveLength(6);
    expect(placementsFor('EMS').map((placement) => placement.key)).toEqual(['CENTRAL_LINE', 'PICC', 'PORTACATH']);
  });

  it('has the positions and body types', () => {
    expect(POSITIONS.map((position) => position.key)).toEqual(['SEATED_FORWARD', 'SUPINE', 'FOWLER', 'PRONE', 'SIDE']);
    expect(BODY_TYPES.map((type) => type.key)).toEqual(['INFANT', 'CHILD', 'ADULT', 'OBESE']);
  });
});

describe('features by product type (spec section 1)', () => {
  it('keys availability by feature and product type', () => {
    expect(isFeatureAvailable('DISPATCH_CODE_STATUS', 'NURSING')).toBe(true);
    expect(isFeatureAvailable('DISPATCH_CODE_STATUS', 'EMS')).toBe(false);
    expect(isFeatureAvailable('DISPATCH_CERTIFICATION_LEVEL', 'EMS')).toBe(true);
    expect(isFeatureAvailable('DISPATCH_CERTIFICATION_LEVEL', 'MILITARY')).toBe(false);
    expect(isFeatureAvailable('APP_LAB', 'MILITARY')).toBe(true);
  });

  it('overrides labels per product type', () => {
    expect(featureLabel('GOAL', 'NURSING')).toBe('Outcome');
    expect(featureLabel('TRANSFER_OF_CARE', 'NURSING')).toBe('Transfer of Care');
    expect(featureLabel('CHART', 'NURSING')).toBe('Chart');
    expect(featureLabel('GOAL', 'EMS')).toBe('Goal');
    expect(featureLabel('GOAL', 'MILITARY')).toBe('Goal');
    expect(featureLabel('CHART', 'EMS')).toBeNull();
  });
});

describe('the reference data document', () => {
  it('matches its schema, with the maximum bags per product type', () => {
    const data = buildReferenceData();
    expect(ReferenceDataSchema.parse(data)).toEqual(data);
    expect(data.maximumBags).toEqual({ EMS: 3, NURSING: 10, MILITARY: 10 });
    expect(data.bodyParts).toHaveLength(26);
    expect(data.placements).toHaveLength(6);
  });

  it('hands out copies: changing one does not change the constants', () => {
    const data = buildReferenceData();
    data.placements[0]?.sites.push('HAND');
    expect(buildReferenceData().placements[0]?.sites).toEqual(['INTERNAL_JUGULAR', 'SUBCLAVIAN', 'FEMORAL']);
  });
});
