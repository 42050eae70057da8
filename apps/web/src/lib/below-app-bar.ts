import type { CSSObject, Theme } from '@mui/material/styles';

type Style = { [key: string]: unknown };

/**
 * Styles placing something right below the app bar, which sticks to the top of the window: its
 * height is the toolbar's (`theme.mixins.toolbar`), which changes with the width and orientation
 * of the screen. Gives `property` (`top` for a sticky element, `scrollMarginTop` for one that
 * must not scroll under it) the toolbar's height plus `extra` pixels, at each of those sizes.
 */
export function belowAppBar(theme: Theme, property: 'top' | 'scrollMarginTop', extra = 0): CSSObject {
  const convert = (style: Style): Style =>
    Object.fromEntries(
      Object.entries(style).map(([key, value]) => {
        if (key === 'minHeight') return [property, typeof value === 'number' ? value + extra : value];
        return [key, value !== null && typeof value === 'object' ? convert(value as Style) : value];
      }),
    );
  return convert(theme.mixins.toolbar);
}
