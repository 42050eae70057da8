import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId, useRef } from 'react';
import { useHasOpened } from '../lib/use-has-opened';

export type ConfirmDialogProps = {
  isOpen: boolean;
  title: string;
  /** The question or warning, shown as the dialog's description. */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  isPending?: boolean;
  /** Keeps the confirm button disabled (a field in the dialog still needs a value). */
  isConfirmDisabled?: boolean;
  /** What has the focus on opening: Cancel, or a field of the content that has `autoFocus`. */
  initialFocus?: 'cancel' | 'content';
  onConfirm: () => void;
  onCancel: () => void;
};

/** A yes/no question before an action that cannot be undone; Cancel has the focus when it opens. */
export function ConfirmDialog({
  isOpen,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  isPending = false,
  isConfirmDisabled = false,
  initialFocus = 'cancel',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const hasOpened = useHasOpened(isOpen);
  if (!hasOpened) return null;
  return (
    <Dialog
      open={isOpen}
      onClose={isPending ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      maxWidth="xs"
      fullWidth
      slotProps={{
        transition: {
          // A menu that opened this dialog hands the focus back to its button as it closes, after
          // Cancel took it: Cancel takes it again once the dialog is in.
          onEntered: () => {
            if (initialFocus === 'cancel') cancelRef.current?.focus();
          },
        },
      }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={descriptionId} component="div">
          {children}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        {/* Cancel first: Enter on an opened confirmation must not destroy anything. */}
        <Button ref={cancelRef} onClick={onCancel} disabled={isPending} autoFocus={initialFocus === 'cancel'}>
          {cancelLabel}
        </Button>
        <Button variant="contained" onClick={onConfirm} loading={isPending} disabled={isConfirmDisabled}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
