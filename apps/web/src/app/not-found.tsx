import Typography from '@mui/material/Typography';
import { PageTitle } from '../components/page-title';
import { RouterLink } from '../components/router-link';
import { paths } from '../config/paths';

/** Any path under the app base that no route serves. */
export function NotFoundRoute() {
  return (
    <>
      <PageTitle title="Page not found">Page not found</PageTitle>
      <Typography sx={{ mb: 2 }}>This page does not exist.</Typography>
      <RouterLink to={paths.profile}>Back to account</RouterLink>
    </>
  );
}
