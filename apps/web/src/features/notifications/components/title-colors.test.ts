import { getContrastRatio } from '@mui/material/styles';
import { NOTIFICATION_COLORS } from '@patientsim/domain/notifications/notification.schemas';
import { describe, expect, it } from 'vitest';
import { accentColor, titleColors } from './title-colors';

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
    expect(accentColor('expression(1)')).toBeNull();
    expect(accentColor('#5450d5')).toBe('#5450d5');
  });
});
