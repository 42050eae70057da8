import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import { useId } from 'react';

/** The sticky bar confirming the Y/N choices of the Update column (spec section 2). */
export function UpdateConfirmBar({
  count,
  isPending,
  onConfirm,
  onClear,
}: {
  count: number;
  isPending: boolean;
  onConfirm: () => void;
  onClear: () => void;
}) {
  const titleId = useId();
  return (
    <Paper
      elevation={6}
      role="region"
      aria-labelledby={titleId}
      sx={{ position: 'sticky', bottom: 16, zIndex: 2, mt: 2, p: 2, borderLeft: 4, borderColor: 'primary.main' }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <div style={{ flexGrow: 1 }}>
          <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {CASE_TEXTS.confirmSelection}
          </Typography>
          <Typography variant="body2">{CASE_TEXTS.confirmSelectionBody}</Typography>
          <Typography variant="body2" color="text.secondary">
            {count} {count === 1 ? 'case' : 'cases'} selected
          </Typography>
        </div>
        <Button onClick={onClear} disabled={isPending}>
          Clear selection
        </Button>
        <Button
          variant="contained"
          onClick={onConfirm}
          disabled={isPending}
          startIcon={isPending ? <CircularProgress size={16} color="inherit" /> : null}
        >
          {CASE_TEXTS.confirm}
        </Button>
      </Stack>
    </Paper>
  );
}
