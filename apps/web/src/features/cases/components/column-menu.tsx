import ViewColumn from '@mui/icons-material/ViewColumn';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { CASE_COLUMNS, type CaseColumnKey, TOO_MANY_COLUMNS_TEXT } from '@patientsim/domain/cases/case-list';
import { useId, useState } from 'react';
import { toggleColumn } from './case-list-state';

/** The column chooser (spec section 5): at most four columns, said in the menu when one more is ticked. */
export function ColumnMenu({ shown, onChange }: { shown: readonly CaseColumnKey[]; onChange: (shown: CaseColumnKey[]) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [isRefused, setIsRefused] = useState(false);
  const menuId = useId();
  const messageId = useId();
  const close = () => {
    setAnchor(null);
    setIsRefused(false);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ViewColumn />}
        aria-haspopup="true"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Columns
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        slotProps={{ list: { 'aria-label': 'Columns shown', ...(isRefused ? { 'aria-describedby': messageId } : {}) } }}
      >
        {isRefused ? (
          <Typography id={messageId} role="alert" variant="body2" color="error" sx={{ px: 2, py: 1, maxWidth: 280 }}>
            {TOO_MANY_COLUMNS_TEXT}
          </Typography>
        ) : null}
        {CASE_COLUMNS.map((column) => {
          const isShown = shown.includes(column.key);
          return (
            <MenuItem
              key={column.key}
              role="menuitemcheckbox"
              aria-checked={isShown}
              onClick={() => {
                const next = toggleColumn(shown, column.key);
                setIsRefused(next.isRefused);
                if (!next.isRefused) onChange(next.shown);
              }}
            >
              <ListItemIcon>
                <Checkbox
                  edge="start"
                  checked={isShown}
                  tabIndex={-1}
                  disableRipple
                  size="small"
                  slotProps={{ input: { 'aria-hidden': true } }}
                />
              </ListItemIcon>
              <ListItemText primary={column.label} />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
