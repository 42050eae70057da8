import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { EmailSchema, NameSchema } from '@patientsim/domain/auth/auth.schemas';
import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import type { OrgUser, UpdateOrgUserBody } from '@patientsim/domain/users/org-users.schemas';
import { useId } from 'react';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateOrgUser } from '../api/update-org-user';
import { RoleSelect } from './role-select';

const EditOrgUserFormSchema = z.object({
  given_name: NameSchema,
  family_name: NameSchema,
  email: EmailSchema,
  role: z.enum(ROLES),
});
type EditOrgUserForm = z.input<typeof EditOrgUserFormSchema>;
type EditOrgUserValues = z.output<typeof EditOrgUserFormSchema>;

/** Only what changed is sent (spec section 5); the e-mail in particular only if it changed. */
export function changedFields(user: OrgUser, values: EditOrgUserValues): UpdateOrgUserBody {
  return {
    ...(values.given_name !== user.given_name ? { given_name: values.given_name } : {}),
    ...(values.family_name !== user.family_name ? { family_name: values.family_name } : {}),
    ...(values.email !== user.email ? { email: values.email } : {}),
    ...(values.role !== user.role ? { role: values.role } : {}),
  };
}

/**
 * An admin's edit of a member: first and last name, e-mail, and the role up to the actor's rank.
 * Instructors edit names and e-mail only (decision 3).
 */
export function EditOrgUserDialog({
  orgId,
  user,
  actorRole,
  canEditRole,
  onClose,
}: {
  orgId: string;
  user: OrgUser & { user_id: string };
  actorRole: Role;
  canEditRole: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  const update = useUpdateOrgUser();
  const form = useForm<EditOrgUserForm, unknown, EditOrgUserValues>({
    resolver: zodResolver(EditOrgUserFormSchema),
    defaultValues: { given_name: user.given_name, family_name: user.family_name, email: user.email, role: user.role },
  });
  const role = useController({ control: form.control, name: 'role' });

  const submit = form.handleSubmit((values) => {
    const changes = changedFields(user, values);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    update.mutate({ orgId, userId: user.user_id, changes }, { onSuccess: onClose });
  });

  return (
    <Dialog open onClose={update.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Edit user</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {update.error ? <Alert severity="error">{errorMessage(update.error, 'Unknown error')}</Alert> : null}
            <FormTextField control={form.control} name="given_name" label="First name" required autoFocus />
            <FormTextField control={form.control} name="family_name" label="Last name" required />
            <FormTextField
              control={form.control}
              name="email"
              label="Email"
              type="email"
              required
              hint="A changed address must be verified; the user is signed out and their old address is told."
            />
            {canEditRole ? (
              <RoleSelect label="Role" value={role.field.value} inviterRole={actorRole} onChange={role.field.onChange} />
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
