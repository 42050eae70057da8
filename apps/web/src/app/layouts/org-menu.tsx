import ExpandMore from '@mui/icons-material/ExpandMore';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useHasOpened } from '../../lib/use-has-opened';
import { useLogout } from '../../lib/logout';
import { useCurrentUser } from '../../lib/use-session';

/** The nav bar's compact organisation menu: the current organisation's name and a Logout item. */
export function OrgMenu() {
  const user = useCurrentUser();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const isOpen = anchor !== null;
  const hasOpened = useHasOpened(isOpen);
  if (!user) return null;

  const label = user.activeOrg?.name ?? user.displayName;
  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        endIcon={<ExpandMore />}
        aria-haspopup="menu"
        aria-controls={isOpen ? menuId : undefined}
        aria-expanded={isOpen}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ maxWidth: 320 }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>
      </Button>
      {hasOpened ? (
        <Menu
          id={menuId}
          anchorEl={anchor}
          open={isOpen}
          onClose={() => setAnchor(null)}
          slotProps={{ list: { 'aria-labelledby': buttonId } }}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <MenuItem disabled>
            <ListItemText primary={user.displayName} secondary={user.email} />
          </MenuItem>
          <Divider />
          <MenuItem
            onClick={() => {
              setAnchor(null);
              void logout();
            }}
          >
            Logout
          </MenuItem>
        </Menu>
      ) : null}
    </>
  );
}
