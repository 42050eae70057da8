import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect } from 'react';

/**
 * Sets the document title while the page shows. An effect rather than a `<title>` element: the
 * app renders with Preact in production (decision 0021), which leaves a `<title>` where it is
 * rendered (in the body) instead of moving it into the head as React does.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | PatientSim`;
  }, [title]);
}

/** The page's one h1, also used as the document title. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  useDocumentTitle(title);
  return (
    <Typography variant="h1" component="h1" gutterBottom>
      {children}
    </Typography>
  );
}
