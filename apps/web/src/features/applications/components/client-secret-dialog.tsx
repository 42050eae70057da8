import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { RegisteredApplication } from '@patientsim/domain/applications/application.schemas';
import { useId, useState } from 'react';

export const SECRET_WARNING = 'Copy the client secret now: it will not be shown again.';

/** A value to copy, with its label and a copy button. */
function CopyableValue({ label, value }: { label: string; value: string }) {
  const [isCopied, setIsCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard
      .writeText(value)
      .then(() => setIsCopied(true))
      .catch(() => setIsCopied(false));
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="p">
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Box component="code" data-testid={`${label} value`} sx={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>
          {value}
        </Box>
        <Button size="small" startIcon={<ContentCopy />} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </Box>
    </Box>
  );
}

/** What a registration gave: the client id, and a confidential application's secret, shown this once. */
export function ClientSecretDialog({ registered, onClose }: { registered: RegisteredApplication | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={registered !== null} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Application registered</DialogTitle>
      {registered ? (
        <DialogContent>
          <Typography component="p" sx={{ mb: 2 }}>
            {registered.application.name} can now sign people in through PatientSim.
          </Typography>
          <CopyableValue label="Client ID" value={registered.application.clientId} />
          {registered.clientSecret ? (
            <>
              <Alert severity="warning" sx={{ mb: 2 }}>
                {SECRET_WARNING}
              </Alert>
              <CopyableValue label="Client secret" value={registered.clientSecret} />
            </>
          ) : null}
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
