import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import { ScreenHeader } from '../../../components/screen-header';
import { useCurrentUser } from '../../../lib/use-session';

/** /account/profile (route name profile): the user's names, e-mail and organisations. */
export function ProfileRoute() {
  const user = useCurrentUser();
  if (!user) return null;

  return (
    <>
      <ScreenHeader title="Profile" />
      <Paper variant="outlined" sx={{ p: 3, mb: 3 }}>
        <Typography component="h2" variant="h2" gutterBottom>
          Your details
        </Typography>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, '& dd': { m: 0 } }}
        >
          <dt>First name</dt>
          <dd>{user.givenName}</dd>
          <dt>Last name</dt>
          <dd>{user.familyName}</dd>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </Box>
      </Paper>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography component="h2" variant="h2">
          {`You are currently a member of ${user.organisations.length} organization(s)`}
        </Typography>
        <List>
          {user.organisations.map((org) => (
            <ListItem key={org.id} disableGutters>
              <ListItemText primary={org.name} secondary={ROLE_LABEL[org.role]} />
              {org.id === user.activeOrg?.id ? <Chip label="Current" color="primary" size="small" /> : null}
              {org.isInactive ? <Chip label="Inactive" size="small" sx={{ ml: 1 }} /> : null}
            </ListItem>
          ))}
        </List>
      </Paper>
    </>
  );
}
