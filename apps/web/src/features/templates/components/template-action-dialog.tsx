import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorMessage } from '../../../lib/api-client';
import type { ActionTexts } from './template-actions';

export type TemplateActionDialogProps = {
  texts: ActionTexts | null;
  isPending: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
};

/** The confirmation before an action that reaches every customer; a refusal shows in it. */
export function TemplateActionDialog({ texts, isPending, error, onConfirm, onCancel }: TemplateActionDialogProps) {
  return (
    <ConfirmDialog
      isOpen={texts !== null}
      title={texts?.label ?? ''}
      confirmLabel={texts?.label ?? ''}
      isPending={isPending}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <Typography component="span" sx={{ display: 'block', fontWeight: 500, mb: 1 }}>
        {texts?.question}
      </Typography>
      <Typography component="span" sx={{ display: 'block' }}>
        {texts?.consequence}
      </Typography>
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(error, 'Unknown error')}
        </Alert>
      ) : null}
    </ConfirmDialog>
  );
}
