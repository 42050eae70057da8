import { getContrastRatio } from '@mui/material/styles';

/** The contrast text needs against its background (WCAG 2 AA, normal text). */
export const MIN_TEXT_CONTRAST = 4.5;

/** CSS names among the notification colours (spec section 9); the others are hex values. */
const NAMED_COLORS: Record<string, string> = { red: '#ff0000' };

const DARK_HEADER = '#000000';
const LIGHT_HEADER = '#ffffff';

function toHex(color: string): string | null {
  const value = color.trim().toLowerCase();
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/.test(value)) return value;
  return NAMED_COLORS[value] ?? null;
}

export type HeaderContrast = {
  /** The header's background: black, or white for a colour that is not readable on black. */
  backgroundColor: string;
  isDark: boolean;
  /** The title colour against that background. */
  contrast: number;
  /** The title colour against black, the header's usual background. */
  contrastOnDark: number;
};

/**
 * How the popup's header shows a colour: the title in that colour on black, unless it falls below
 * 4.5:1 there and reads better on white. Every colour of the palette then reaches 4.5:1.
 */
export function headerContrast(color: string): HeaderContrast | null {
  const hex = toHex(color);
  if (!hex) return null;
  const contrastOnDark = getContrastRatio(hex, DARK_HEADER);
  const contrastOnLight = getContrastRatio(hex, LIGHT_HEADER);
  const isDark = contrastOnDark >= MIN_TEXT_CONTRAST || contrastOnDark >= contrastOnLight;
  return {
    backgroundColor: isDark ? DARK_HEADER : LIGHT_HEADER,
    isDark,
    contrast: isDark ? contrastOnDark : contrastOnLight,
    contrastOnDark,
  };
}

/** The title's colour and background in the popup's header, or null for what is not a colour. */
export function titleColors(color: string): { color: string; backgroundColor: string } | null {
  const hex = toHex(color);
  const header = headerContrast(color);
  return hex && header ? { color: hex, backgroundColor: header.backgroundColor } : null;
}

/**
 * A contrast ratio as people quote it ("3.5:1"), to one decimal; a ratio below 4.5 never shows as
 * 4.5, which would read as a pass.
 */
export function formatContrast(ratio: number): string {
  const rounded = Math.round(ratio * 10) / 10;
  const shown = ratio < MIN_TEXT_CONTRAST && rounded >= MIN_TEXT_CONTRAST ? Math.floor(ratio * 10) / 10 : rounded;
  return `${shown.toFixed(1)}:1`;
}

/** The colour as an accent (a border): any valid colour, else none. */
export function accentColor(color: string): string | null {
  return toHex(color);
}
