import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The page's one h1, also used as the document title. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  return (
    <>
      <title>{`${title} | PatientSim`}</title>
      <Typography variant="h1" component="h1" gutterBottom>
        {children}
      </Typography>
    </>
  );
}
