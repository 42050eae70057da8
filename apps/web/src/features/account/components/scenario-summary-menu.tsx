import Download from '@mui/icons-material/Download';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useDownloadScenarioSummary } from '../api/download-scenario-summary';

/** Verbatim from the spec (section 2, Profile). */
export const SUMMARY_SELF_LABEL = 'Scenario Summary (self)';
export const SUMMARY_ALL_MEMBERS_LABEL = 'Scenario Summary (all members)';

/** The Summaries menu of a super admin in a dev organisation: CSV downloads named summary.csv. */
export function ScenarioSummaryMenu() {
  const download = useDownloadScenarioSummary();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const isOpen = anchor !== null;

  const pick = (allMembers: boolean) => {
    setAnchor(null);
    download.mutate({ allMembers });
  };

  return (
    <Box sx={{ mb: 3 }}>
      <Button
        id={buttonId}
        variant="outlined"
        startIcon={<Download />}
        endIcon={<ExpandMore />}
        aria-haspopup="menu"
        aria-controls={isOpen ? menuId : undefined}
        aria-expanded={isOpen}
        loading={download.isPending}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Summaries
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={isOpen}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        <MenuItem onClick={() => pick(false)}>{SUMMARY_SELF_LABEL}</MenuItem>
        <MenuItem onClick={() => pick(true)}>{SUMMARY_ALL_MEMBERS_LABEL}</MenuItem>
      </Menu>
      {download.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessage(download.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
    </Box>
  );
}
