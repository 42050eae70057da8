import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useStagedRender } from '../lib/use-staged-render';

/**
 * An area's left menu beside its page; stacked on small screens. The menu renders first, the page
 * in the next task (beside the menu, or below it: nothing shown moves).
 */
export function SectionLayout({ menu, children }: { menu: ReactNode; children: ReactNode }) {
  const shown = useStagedRender(1);
  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 3, alignItems: 'flex-start' }}>
      <Box sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0 }}>{menu}</Box>
      <Box sx={{ flexGrow: 1, minWidth: 0, width: '100%' }}>{shown >= 1 ? children : null}</Box>
    </Box>
  );
}
