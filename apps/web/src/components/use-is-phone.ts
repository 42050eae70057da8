import { type SxProps, type Theme, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/**
 * Whether the screen is a phone's (below the `sm` breakpoint): tables show as cards there (UX
 * guide: card lists at 390 px). Known from the first render (`noSsr`), so a phone never shows the
 * table first; follows the screen as it turns.
 */
export function useIsPhone(): boolean {
  // The material theme (its default without a provider), not the function form's bare system theme.
  return useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
}

/** A control a finger can hit (UX guide: 44 px targets on phones). */
export const PHONE_TARGET_SIZE = { minWidth: 44, minHeight: 44 } as const;

/** PHONE_TARGET_SIZE below the `sm` breakpoint; wider screens keep the control's own size. */
export const touchTargetSx: SxProps<Theme> = (theme) => ({ [theme.breakpoints.down('sm')]: PHONE_TARGET_SIZE });
