import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { LoginAsBodySchema, VIEW_AS_REASON_MAX } from '@patientsim/domain/auth/view-as.schemas';
import type { Group } from '@patientsim/domain/groups/group.schemas';
import type { FoundUser } from '@patientsim/domain/users/users.schemas';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { OrganisationSearchField } from '../../../components/organisation-search-field';
import { PersonSearchField } from '../../../components/person-search-field';
import { paths } from '../../../config/paths';
import { useOrganisationSearch } from '../../../lib/organisation-search';
import { useUserSearch } from '../../../lib/user-search';
import { useLoginAs } from '../api/login-as';

/**
 * The chosen organisation and person become the request body, checked with the server's own
 * LoginAsBodySchema; an empty reason is left out.
 */
const ViewAsFormSchema = z
  .object({ organisation: z.custom<Group>().nullable(), person: z.custom<FoundUser>().nullable(), reason: z.string() })
  .transform(({ organisation, person, reason }) => ({
    orgId: organisation?._id ?? '',
    email: person?.email ?? '',
    ...(reason.trim() ? { reason } : {}),
  }))
  .pipe(LoginAsBodySchema);
type ViewAsFormInput = z.input<typeof ViewAsFormSchema>;
type ViewAsFormValues = z.output<typeof ViewAsFormSchema>;

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}

/**
 * View As User (spec sections 2 and 5): an organisation, then one of its people; 'Login As' only
 * when both are chosen and nothing is loading. An optional reason goes to the audit trail.
 */
export function ViewAsForm() {
  const navigate = useNavigate();
  const { control, handleSubmit, setValue } = useForm<ViewAsFormInput, unknown, ViewAsFormValues>({
    resolver: zodResolver(ViewAsFormSchema),
    defaultValues: { organisation: null, person: null, reason: '' },
  });
  const organisation = useWatch({ control, name: 'organisation' });
  const person = useWatch({ control, name: 'person' });
  // What is typed in the two search boxes: search terms, not values of the form.
  const [orgTerm, setOrgTerm] = useState('');
  const [personTerm, setPersonTerm] = useState('');
  const login = useLoginAs();
  // Once Login As is under way the stored token becomes the person's, who may not search the
  // provider's directory: the searches stop rather than ask again with it and be refused.
  const isSearching = !login.isPending && !login.isSuccess;
  const organisations = useOrganisationSearch(orgTerm, { enabled: isSearching });
  const people = useUserSearch(personTerm, organisation?._id ?? null, { enabled: isSearching && organisation !== null });
  const isLoading = organisations.isFetching || people.isFetching || login.isPending;
  const canLogin = organisation !== null && person !== null && !isLoading;

  return (
    <Stack
      component="form"
      noValidate
      spacing={1}
      sx={{ maxWidth: 520 }}
      onSubmit={handleSubmit((body) => login.mutate(body, { onSuccess: () => void navigate(paths.profile) }))}
    >
      <Controller
        control={control}
        name="organisation"
        render={({ field }) => (
          <OrganisationSearchField
            label="Organization"
            value={field.value}
            onChange={(next) => {
              field.onChange(next);
              // People belong to one organisation: a new one starts the person over.
              setValue('person', null);
              setPersonTerm('');
              login.reset();
            }}
            options={organisations.data ?? []}
            isLoading={organisations.isFetching}
            onSearch={setOrgTerm}
          />
        )}
      />
      {organisations.isError ? <Alert severity="error">{messageOf(organisations.error)}</Alert> : null}
      <Controller
        control={control}
        name="person"
        render={({ field }) => (
          <PersonSearchField
            // A new organisation clears what was typed for the previous one.
            key={organisation?._id ?? 'none'}
            label="User"
            value={field.value}
            onChange={(next) => {
              field.onChange(next);
              login.reset();
            }}
            options={people.data ?? []}
            isLoading={people.isFetching}
            onSearch={setPersonTerm}
            disabled={organisation === null}
          />
        )}
      />
      {people.isError ? <Alert severity="error">{messageOf(people.error)}</Alert> : null}
      <FormTextField
        control={control}
        name="reason"
        label="Reason (optional)"
        margin="none"
        slotProps={{ input: { multiline: true, minRows: 2 }, htmlInput: { maxLength: VIEW_AS_REASON_MAX } }}
        hint="Kept in the audit trail with your name and the time."
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
