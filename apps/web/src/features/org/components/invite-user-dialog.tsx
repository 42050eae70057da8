import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { EmailSchema } from '@patientsim/domain/auth/auth.schemas';
import { displayGroupName, type Group } from '@patientsim/domain/groups/group.schemas';
import type { SeatFigures } from '@patientsim/domain/groups/seats';
import { DEFAULT_INVITED_ROLE, ROLES, type Role } from '@patientsim/domain/roles/roles';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form-text-field';
import { isApiError } from '../../../lib/api-client';
import { useCreateInvitations } from '../api/create-invitations';
import { RoleSelect } from './role-select';
import { exceedsOpenSeats, SeatSummary, SUBSCRIBED_INVITE_CONFIRM } from './seat-summary';

const InviteUserFormSchema = z.object({
  email: EmailSchema,
  role: z.enum(ROLES),
  groupIds: z.array(z.string()),
});
type InviteUserForm = z.infer<typeof InviteUserFormSchema>;

export type InviteDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  orgId: string;
  inviterRole: Role;
  /** Invitations through a subscription: they skip the seat check and ask for a confirmation. */
  isSubscribed: boolean;
  /** The organisation's seat figures as the server counts them; null for subscribed invitations. */
  figures: SeatFigures | null;
  onInvited: (message: string) => void;
};

/** Invites one address with a role and, optionally, into sub-groups of the organisation. */
export function InviteUserDialog({
  isOpen,
  onClose,
  orgId,
  inviterRole,
  isSubscribed,
  figures,
  subgroups,
  onInvited,
}: InviteDialogProps & { subgroups: Group[] }) {
  const titleId = useId();
  const create = useCreateInvitations(orgId);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState<InviteUserForm | null>(null);
  const { control, handleSubmit, reset } = useForm<InviteUserForm>({
    resolver: zodResolver(InviteUserFormSchema),
    defaultValues: { email: '', role: DEFAULT_INVITED_ROLE, groupIds: [] },
  });
  const isOver = figures !== null && exceedsOpenSeats(figures, 1);
  const isSending = create.isPending;

  const close = () => {
    if (isSending) return;
    reset();
    setFailure(null);
    onClose();
  };

  const send = (values: InviteUserForm) => {
    setPending(null);
    setFailure(null);
    create.mutate(
      {
        users: [{ email: values.email, role: values.role }],
        org: orgId,
        throughSubscription: isSubscribed,
        groupMembership: values.groupIds,
      },
      {
        onSuccess: ([result]) => {
          if (result && (result.outcome === 'sent' || result.outcome === 'resent')) {
            reset();
            onClose();
            onInvited(`An invitation was sent to ${result.user.email}.`);
          } else {
            setFailure(result?.message ?? 'The invitation was not sent.');
          }
        },
        onError: (error) => setFailure(isApiError(error) ? error.message : 'Unknown error'),
      },
    );
  };

  return (
    <>
      <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <DialogTitle id={titleId}>Invite User</DialogTitle>
        {isSending && <LinearProgress aria-label="Sending invitation" />}
        <form
          noValidate
          onSubmit={(event) => void handleSubmit((values) => (isSubscribed ? setPending(values) : send(values)))(event)}
        >
          <DialogContent>
            <Stack spacing={2}>
              <FormTextField
                control={control}
                name="email"
                label="Email"
                type="email"
                autoFocus
                required
                disabled={isSending}
                fullWidth
              />
              <Controller
                control={control}
                name="role"
                render={({ field }) => (
                  <RoleSelect
                    label="Role"
                    value={field.value}
                    inviterRole={inviterRole}
                    isDisabled={isSending}
                    onChange={field.onChange}
                  />
                )}
              />
              {subgroups.length > 0 && (
                <Controller
                  control={control}
                  name="groupIds"
                  render={({ field }) => (
                    <Autocomplete
                      multiple
                      options={subgroups}
                      disabled={isSending}
                      getOptionLabel={(group) => displayGroupName(group.name)}
                      value={subgroups.filter((group) => field.value.includes(group._id))}
                      onChange={(_event, groups) => field.onChange(groups.map((group) => group._id))}
                      renderInput={(params) => <TextField {...params} label="Groups (optional)" />}
                    />
                  )}
                />
              )}
              {failure && <Alert severity="error">{failure}</Alert>}
              {figures && <SeatSummary figures={figures} added={1} />}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={isSending}>
              Cancel
            </Button>
            <Button type="submit" variant="contained" disabled={isOver} loading={isSending}>
              Send
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmDialog
        isOpen={pending !== null}
        title="Subscribed Invite"
        confirmLabel="Send"
        onConfirm={() => pending && send(pending)}
        onCancel={() => setPending(null)}
      >
        {SUBSCRIBED_INVITE_CONFIRM}
      </ConfirmDialog>
    </>
  );
}
