import { getContrastRatio } from '@mui/material/styles';
import { NOTIFICATION_COLORS } from '@patientsim/domain/notifications/notification.schemas';
import { describe, expect, it } from 'vitest';
import { accentColor, formatContrast, headerContrast, titleColors } from './notification-colors';

describe('titleColors', () => {
  it('keeps every palette colour as the title colour, readable (at least 4.5:1) on its backdrop', () => {
    for (const color of NOTIFICATION_COLORS) {
      const colors = titleColors(color);
      expect(colors, color).not.toBeNull();
      if (!colors) continue;
      expect(getContrastRatio(colors.color, colors.backgroundColor), color).toBeGreaterThanOrEqual(4.5);
    }
    expect(titleColors('red')?.color).toBe('#ff0000');
  });

  it('ignores what is not a colour', () => {
    expect(titleColors('url(x)')).toBeNull();
    expect(headerContrast('expression(1)')).toBeNull();
    expect(accentColor('expression(1)')).toBeNull();
    expect(accentColor('#5450d5')).toBe('#5450d5');
  });
});

describe('headerContrast', () => {
  it('computes the contrast on the black header, and moves a colour that fails there to white', () => {
    const indigo = headerContrast('#5450d5');
    expect(formatContrast(indigo?.contrastOnDark ?? 0)).toBe('3.5:1');
    expect(indigo).toMatchObject({ isDark: false, backgroundColor: '#ffffff' });
    expect(indigo?.contrast).toBeGreaterThanOrEqual(4.5);

    const purple = headerContrast('#b329e3');
    expect(formatContrast(purple?.contrastOnDark ?? 0)).toBe('4.3:1');
    expect(purple?.isDark).toBe(false);

    const teal = headerContrast('#018786');
    expect(teal).toMatchObject({ isDark: true, backgroundColor: '#000000' });
    expect(teal?.contrast).toBe(teal?.contrastOnDark);
  });

  it('never shows a failing ratio as 4.5:1', () => {
    expect(formatContrast(4.46)).toBe('4.4:1');
    expect(formatContrast(4.5)).toBe('4.5:1');
    expect(formatContrast(3.48)).toBe('3.5:1');
  });
});
