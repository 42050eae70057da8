import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { readOAuthQuery } from '@patientsim/domain/auth/auth.schemas';
import { SCOPE_DESCRIPTIONS } from '@patientsim/domain/applications/application.schemas';
import { useLocation } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { assignLocation } from '../../../lib/browser';
import { useAnswerConsent } from '../api/answer-consent';
import { useApplicationName } from '../api/get-application-name';

export const CONSENT_TITLE = 'Allow access';
const INVALID_REQUEST = 'This sign-in request is not valid any more. Go back to the application and try again.';

/**
 * /oauth/consent: another application asks to sign the person in (decision 0065). The platform's
 * own applications skip it; an application registered to ask for consent lands here.
 */
export function ConsentRoute() {
  const location = useLocation();
  const oauthQuery = readOAuthQuery(location.search);
  if (!oauthQuery) {
    return (
      <>
        <PageTitle title={CONSENT_TITLE}>{CONSENT_TITLE}</PageTitle>
        <Alert severity="error">{INVALID_REQUEST}</Alert>
      </>
    );
  }
  return <ConsentForm oauthQuery={oauthQuery} />;
}

function ConsentForm({ oauthQuery }: { oauthQuery: string }) {
  const params = new URLSearchParams(oauthQuery);
  const clientId = params.get('client_id') ?? '';
  const scopes = (params.get('scope') ?? 'openid').split(' ').filter((scope) => scope.length > 0);
  const application = useApplicationName(clientId);
  const answer = useAnswerConsent();
  const respond = (accept: boolean) => answer.mutate({ oauthQuery, accept }, { onSuccess: ({ url }) => assignLocation(url) });
  const isBusy = answer.isPending || answer.isSuccess;

  if (application.isPending) {
    return (
      <>
        <PageTitle title={CONSENT_TITLE}>{CONSENT_TITLE}</PageTitle>
        <LoadingState label="Loading the application..." />
      </>
    );
  }
  if (application.isError) {
    return (
      <>
        <PageTitle title={CONSENT_TITLE}>{CONSENT_TITLE}</PageTitle>
        <Alert severity="error">{errorMessage(application.error, INVALID_REQUEST)}</Alert>
        <Box sx={{ mt: 3 }}>
          <RouterLink to={paths.login}>Back to login</RouterLink>
        </Box>
      </>
    );
  }
  return (
    <>
      <PageTitle title={CONSENT_TITLE}>{CONSENT_TITLE}</PageTitle>
      <Typography component="p" sx={{ mb: 1 }}>
        <strong>{application.data}</strong> wants to use your PatientSim account. It will be able to:
      </Typography>
      <List dense aria-label="What the application asks for">
        {scopes.map((scope) => (
          <ListItem key={scope} disableGutters>
            <ListItemText primary={SCOPE_DESCRIPTIONS[scope] ?? scope} />
          </ListItem>
        ))}
      </List>
      {answer.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(answer.error, INVALID_REQUEST)}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 2, mt: 2 }}>
        <Button variant="outlined" onClick={() => respond(false)} disabled={isBusy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={() => respond(true)}
          disabled={isBusy}
          startIcon={answer.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : null}
        >
          Allow
        </Button>
      </Box>
    </>
  );
}
