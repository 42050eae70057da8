import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import {
  REQUIRABLE_ROLES,
  type TwoFactorRequirement,
  TwoFactorRequirementSchema,
} from '@patientsim/domain/auth/two-factor.schemas';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import { useId, useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { touchTargetSx } from '../../../components/use-is-phone';
import { errorMessage } from '../../../lib/api-client';
import { useTwoFactorRequirement } from '../api/get-two-factor-requirement';
import { useUpdateTwoFactorRequirement } from '../api/update-two-factor-requirement';

export const SECOND_FACTOR_TITLE = 'Second factor';
export const REQUIRE_FOR_LABEL = 'Require a second factor for';

type RequirableRole = TwoFactorRequirement['roles'][number];

/** Highest rank first, as the role selects list them. */
const ROLES_SHOWN: readonly RequirableRole[] = [...REQUIRABLE_ROLES].reverse();

/** "Admins", "Admins and Students": the roles a confirmation names. */
function roleNames(roles: readonly RequirableRole[]): string {
  const names = roles.map((role) => `${ROLE_LABEL[role]}s`);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * An organisation's second-factor requirement (decision 0066): a checkbox per role and Save.
 * Turning a role on asks first, since its members without a factor must set one up at their next
 * sign-in.
 */
export function TwoFactorRequirementCard({ orgId }: { orgId: string }) {
  const titleId = useId();
  const requirement = useTwoFactorRequirement(orgId);
  // Kept here: the form starts over from what is saved, once it is.
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography variant="h2" id={titleId} sx={{ mb: 1 }}>
          {SECOND_FACTOR_TITLE}
        </Typography>
        {requirement.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void requirement.refetch()}>
                Retry
              </Button>
            }
          >
            An error occurred: {errorMessage(requirement.error, 'Unknown error')}
          </Alert>
        ) : requirement.isPending ? (
          <Box role="status" aria-label="Loading the second factor requirement">
            <Skeleton variant="text" width={240} />
            <Skeleton variant="rounded" height={96} />
          </Box>
        ) : (
          <RequirementForm
            key={requirement.data.roles.join()}
            orgId={orgId}
            saved={requirement.data.roles}
            labelId={titleId}
            onSaved={() => setNotice('Second factor requirement saved.')}
          />
        )}
      </CardContent>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Card>
  );
}

function RequirementForm({
  orgId,
  saved,
  labelId,
  onSaved,
}: {
  orgId: string;
  saved: RequirableRole[];
  labelId: string;
  onSaved: () => void;
}) {
  const update = useUpdateTwoFactorRequirement();
  const groupLabelId = useId();
  const [pending, setPending] = useState<TwoFactorRequirement | null>(null);
  const { control, handleSubmit } = useForm<TwoFactorRequirement>({
    resolver: zodResolver(TwoFactorRequirementSchema),
    defaultValues: { roles: saved },
  });
  const { field } = useController({ control, name: 'roles' });
  const chosen = field.value;
  const isUnchanged = chosen.length === saved.length && chosen.every((role) => saved.includes(role));
  const added = pending ? pending.roles.filter((role) => !saved.includes(role)) : [];

  const save = (values: TwoFactorRequirement) =>
    update.mutate(
      { orgId, requirement: values },
      {
        onSuccess: () => {
          setPending(null);
          onSaved();
        },
      },
    );

  const onSubmit = handleSubmit((values) => {
    // Turning a role on changes its members' next sign-in: ask first. Turning one off does not.
    if (values.roles.some((role) => !saved.includes(role))) {
      update.reset();
      setPending(values);
    } else save(values);
  });

  const toggle = (role: RequirableRole, isChecked: boolean) => {
    const next = isChecked ? [...chosen, role] : chosen.filter((other) => other !== role);
    // Kept in the order shown, so that what is saved reads as the form does.
    field.onChange(ROLES_SHOWN.filter((shown) => next.includes(shown)));
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={labelId}>
      <Typography id={groupLabelId} sx={{ mb: 0.5 }}>
        {REQUIRE_FOR_LABEL}
      </Typography>
      <FormGroup aria-labelledby={groupLabelId} row>
        {ROLES_SHOWN.map((role) => (
          <FormControlLabel
            key={role}
            label={ROLE_LABEL[role]}
            control={
              <Checkbox
                checked={chosen.includes(role)}
                onChange={(event) => toggle(role, event.target.checked)}
                disabled={update.isPending}
              />
            }
          />
        ))}
      </FormGroup>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Members of these roles sign in with their password and an authenticator app or a passkey.
      </Typography>
      {update.isError && pending === null ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(update.error, 'Unknown error')}
        </Alert>
      ) : null}
      <Button
        type="submit"
        variant="outlined"
        loading={update.isPending && pending === null}
        disabled={isUnchanged || update.isPending}
        sx={{ mt: 2, ...touchTargetSx }}
      >
        Save
      </Button>
      <ConfirmDialog
        isOpen={pending !== null}
        title="Require a second factor"
        confirmLabel="Require"
        isPending={update.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => (pending ? save(pending) : undefined)}
      >
        {`${roleNames(added)} of this organization without a second factor will have to set one up at their next sign-in.`}
        {update.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(update.error, 'Unknown error')}
          </Alert>
        ) : null}
      </ConfirmDialog>
    </Box>
  );
}
