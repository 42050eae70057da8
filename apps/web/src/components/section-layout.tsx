import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** An area's left menu beside its page; stacked on small screens. */
export function SectionLayout({ menu, children }: { menu: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 3, alignItems: 'flex-start' }}>
      <Box sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0 }}>{menu}</Box>
      <Box sx={{ flexGrow: 1, minWidth: 0, width: '100%' }}>{children}</Box>
    </Box>
  );
}
