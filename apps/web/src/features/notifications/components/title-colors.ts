import { getContrastRatio } from '@mui/material/styles';

/** CSS names among the notification colours (spec section 9); the others are hex values. */
const NAMED_COLORS: Record<string, string> = { red: '#ff0000' };

const LIGHT_BACKDROP = '#ffffff';
const DARK_BACKDROP = '#000000';

function toHex(color: string): string | null {
  const value = color.trim().toLowerCase();
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/.test(value)) return value;
  return NAMED_COLORS[value] ?? null;
}

/**
 * The title in the notification's colour, on whichever backdrop (light or dark) keeps it
 * readable: every colour of the palette reaches at least 4.5:1 against one of them.
 */
export function titleColors(color: string): { color: string; backgroundColor: string } | null {
  const hex = toHex(color);
  if (!hex) return null;
  const onLight = getContrastRatio(hex, LIGHT_BACKDROP);
  const onDark = getContrastRatio(hex, DARK_BACKDROP);
  return { color: hex, backgroundColor: onLight >= onDark ? LIGHT_BACKDROP : DARK_BACKDROP };
}

/** The colour as an accent (a border): any valid colour, else none. */
export function accentColor(color: string): string | null {
  return toHex(color);
}
