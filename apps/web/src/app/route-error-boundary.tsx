import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useDocumentTitle } from '../components/page-title';
import { RouterLink } from '../components/router-link';
import { paths } from '../config/paths';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    return error.status === 404 ? 'Page not found' : error.statusText || `Error code ${error.status}`;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Unknown error';
}

function RouteError() {
  const error = useRouteError();
  useDocumentTitle('An error occurred');
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Alert severity="error" variant="outlined">
        <AlertTitle component="h1">An error occurred</AlertTitle>
        {describe(error)}
      </Alert>
      <Box sx={{ mt: 2, display: 'flex', gap: 3 }}>
        <RouterLink to={paths.profile}>Back to account</RouterLink>
        <RouterLink to={paths.login}>Back to login</RouterLink>
      </Box>
    </Box>
  );
}

/** Error boundary of the whole app: a full page. */
export function RootErrorBoundary() {
  return (
    <Box component="main" sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>
      <RouteError />
    </Box>
  );
}

/** Error boundary of a page inside a layout: the layout (nav bar, side nav) stays. */
export function PageErrorBoundary() {
  return <RouteError />;
}
