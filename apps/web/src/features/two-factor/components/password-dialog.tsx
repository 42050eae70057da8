import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { PasswordConfirmation } from '@patientsim/domain/auth/two-factor.schemas';
import { type ReactNode, useId } from 'react';
import { PasswordForm } from './password-form';

/**
 * A change to the second factor confirmed with the password: the consequence, the password field
 * (which has the focus), Cancel and the verb. A refusal shows inside: a wrong password on the field,
 * anything else (the last factor an organisation requires) above it.
 */
export function PasswordDialog({
  isOpen,
  title,
  children,
  confirmLabel,
  error,
  isPending,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  error: Error | null;
  isPending: boolean;
  onConfirm: (values: PasswordConfirmation) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const formId = useId();
  return (
    <Dialog open={isOpen} onClose={isPending ? undefined : onCancel} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {isOpen ? (
          <PasswordForm id={formId} description={children} error={error} isPending={isPending} onSubmit={onConfirm} />
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={isPending}>
          Cancel
        </Button>
        <Button type="submit" form={formId} variant="contained" loading={isPending}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
