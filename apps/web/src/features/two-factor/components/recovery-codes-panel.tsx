import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useId, useState } from 'react';
import { saveBlob } from '../../../lib/browser';

export const RECOVERY_CODES_WARNING =
  'Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator app. They will not be shown again.';
export const SAVED_CODES_LABEL = 'I have saved my recovery codes';
export const RECOVERY_CODES_FILE_NAME = 'patientsim-recovery-codes.txt';

/**
 * Recovery codes, shown this once: Copy, Download (.txt), and a checkbox the person ticks before
 * going on, so that nobody leaves them behind by pressing a button.
 */
export function RecoveryCodesPanel({
  codes,
  continueLabel,
  onContinue,
}: {
  codes: readonly string[];
  continueLabel: string;
  onContinue: () => void;
}) {
  const [isSaved, setIsSaved] = useState(false);
  const [isCopied, setIsCopied] = useState(false);
  const listId = useId();
  const text = `${codes.join('\n')}\n`;
  const copy = () =>
    void navigator.clipboard
      .writeText(text)
      .then(() => setIsCopied(true))
      .catch(() => setIsCopied(false));

  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {RECOVERY_CODES_WARNING}
      </Alert>
      <Box
        component="ul"
        id={listId}
        aria-label="Recovery codes"
        sx={{
          listStyle: 'none',
          p: 2,
          m: 0,
          mb: 2,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 1,
          fontFamily: 'monospace',
          fontSize: '1rem',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Button variant="outlined" startIcon={<ContentCopy />} onClick={copy} aria-controls={listId}>
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
        <Button
          variant="outlined"
          startIcon={<Download />}
          onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), RECOVERY_CODES_FILE_NAME)}
        >
          Download
        </Button>
      </Box>
      <FormControlLabel
        control={<Checkbox checked={isSaved} onChange={(event) => setIsSaved(event.target.checked)} />}
        label={SAVED_CODES_LABEL}
      />
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" disabled={!isSaved} onClick={onContinue}>
          {continueLabel}
        </Button>
      </Box>
    </Box>
  );
}
