import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { VIEW_AS_REASON_MAX } from '@patientsim/domain/auth/view-as.schemas';
import type { Group } from '@patientsim/domain/groups/group.schemas';
import type { FoundUser } from '@patientsim/domain/users/users.schemas';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PersonSearchField } from '../../../components/person-search-field';
import { paths } from '../../../config/paths';
import { useLoginAs } from '../api/login-as';
import { useOrganisationSearch } from '../../../lib/organisation-search';
import { useUserSearch } from '../../../lib/user-search';
import { OrganisationSearchField } from '../../../components/organisation-search-field';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}

/**
 * View As User (spec sections 2 and 5): an organisation, then one of its people; 'Login As' only
 * when both are chosen and nothing is loading. An optional reason goes to the audit trail.
 */
export function ViewAsForm() {
  const navigate = useNavigate();
  const [organisation, setOrganisation] = useState<Group | null>(null);
  const [orgTerm, setOrgTerm] = useState('');
  const [person, setPerson] = useState<FoundUser | null>(null);
  const [personTerm, setPersonTerm] = useState('');
  const [reason, setReason] = useState('');
  const login = useLoginAs();
  // Once Login As is under way the stored token becomes the person's, who may not search the
  // provider's directory: the searches stop rather than ask again with it and be refused.
  const isSearching = !login.isPending && !login.isSuccess;
  const organisations = useOrganisationSearch(orgTerm, { enabled: isSearching });
  const people = useUserSearch(personTerm, organisation?._id ?? null, { enabled: isSearching && organisation !== null });
  const isLoading = organisations.isFetching || people.isFetching || login.isPending;
  const canLogin = organisation !== null && person !== null && !isLoading;

  const submit = async () => {
    if (!organisation || !person) return;
    const trimmed = reason.trim();
    try {
      await login.mutateAsync({ orgId: organisation._id, email: person.email, ...(trimmed ? { reason: trimmed } : {}) });
      await navigate(paths.profile);
    } catch {
      // Shown inline from the mutation's error.
    }
  };

  return (
    <Stack
      component="form"
      noValidate
      spacing={1}
      sx={{ maxWidth: 520 }}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <OrganisationSearchField
        label="Organization"
        value={organisation}
        onChange={(next) => {
          setOrganisation(next);
          // People belong to one organisation: a new one starts the person over.
          setPerson(null);
          setPersonTerm('');
          login.reset();
        }}
        options={organisations.data ?? []}
        isLoading={organisations.isFetching}
        onSearch={setOrgTerm}
      />
      {organisations.isError ? <Alert severity="error">{messageOf(organisations.error)}</Alert> : null}
      <PersonSearchField
        // A new organisation clears what was typed for the previous one.
        key={organisation?._id ?? 'none'}
        label="User"
        value={person}
        onChange={(next) => {
          setPerson(next);
          login.reset();
        }}
        options={people.data ?? []}
        isLoading={people.isFetching}
        onSearch={setPersonTerm}
        disabled={organisation === null}
      />
      {people.isError ? <Alert severity="error">{messageOf(people.error)}</Alert> : null}
      <TextField
        label="Reason (optional)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: VIEW_AS_REASON_MAX } }}
        helperText="Kept in the audit trail with your name and the time."
      />
      {login.isError ? <Alert severity="error">{messageOf(login.error)}</Alert> : null}
      <div>
        <Button
          type="submit"
          variant="contained"
          disabled={!canLogin}
          startIcon={login.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : null}
        >
          Login As
        </Button>
      </div>
    </Stack>
  );
}
