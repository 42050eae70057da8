import { createTheme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { belowAppBar } from './below-app-bar';

describe('belowAppBar', () => {
  const theme = createTheme();

  it('places an element at the toolbar height of each screen size', () => {
    expect(belowAppBar(theme, 'top')).toEqual({
      top: 56,
      '@media (min-width:0px)': { '@media (orientation: landscape)': { top: 48 } },
      '@media (min-width:600px)': { top: 64 },
    });
  });

  it('adds the extra pixels, for a scroll margin under the app bar and a sticky header', () => {
    expect(belowAppBar(theme, 'scrollMarginTop', 40)).toEqual({
      scrollMarginTop: 96,
      '@media (min-width:0px)': { '@media (orientation: landscape)': { scrollMarginTop: 88 } },
      '@media (min-width:600px)': { scrollMarginTop: 104 },
    });
  });
});
