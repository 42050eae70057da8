import Check from '@mui/icons-material/Check';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useSwitchOrg } from '../../features/auth/api/change-org';
import { errorMessage } from '../../lib/api-client';
import { useHasOpened } from '../../lib/use-has-opened';
import { useLogout } from '../../lib/logout';
import { useCurrentUser } from '../../lib/use-session';

export const SWITCH_ORG_FALLBACK_ERROR = 'The organization could not be switched. Please try again.';

/**
 * The nav bar's compact organisation menu: the current organisation's name, the user's other
 * organisations to switch to (not in a View-As session: the server refuses writes through a view)
 * and a Logout item. The menu stays open while a switch runs, so its progress and any error show
 * where the user chose.
 */
export function OrgMenu() {
  const user = useCurrentUser();
  const logout = useLogout();
  const switchOrg = useSwitchOrg();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const errorId = useId();
  const isOpen = anchor !== null;
  const hasOpened = useHasOpened(isOpen);
  if (!user) return null;

  const label = user.activeOrg?.name ?? user.displayName;
  const canSwitch = user.organisations.length > 1 && !user.isImpersonated;
  const targetOrgId = switchOrg.variables?.orgId;
  const close = () => {
    if (switchOrg.isPending) return;
    switchOrg.reset();
    setAnchor(null);
  };

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
          onClose={close}
          slotProps={{ list: { 'aria-labelledby': buttonId, 'aria-busy': switchOrg.isPending } }}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <MenuItem disabled>
            <ListItemText primary={user.displayName} secondary={user.email} />
          </MenuItem>
          <Divider />
          {canSwitch
            ? user.organisations.map((org, index) => {
                const nameId = `${menuId}-org-${index}`;
                const isActive = org.id === user.activeOrg?.id;
                const isTarget = org.id === targetOrgId;
                const hasFailed = isTarget && switchOrg.isError;
                return (
                  <MenuItem
                    key={org.id}
                    role="menuitemradio"
                    aria-checked={isActive}
                    aria-labelledby={nameId}
                    aria-describedby={hasFailed ? errorId : undefined}
                    disabled={switchOrg.isPending}
                    onClick={() => {
                      if (isActive) {
                        close();
                        return;
                      }
                      switchOrg.mutate({ orgId: org.id }, { onSuccess: () => setAnchor(null) });
                    }}
                  >
                    <ListItemIcon>
                      {isTarget && switchOrg.isPending ? (
                        <CircularProgress size={20} aria-label={`Switching to ${org.name}`} />
                      ) : isActive ? (
                        <Check fontSize="small" />
                      ) : null}
                    </ListItemIcon>
                    <ListItemText
                      primary={<span id={nameId}>{org.name}</span>}
                      secondary={
                        hasFailed ? (
                          <span id={errorId} role="alert">
                            {errorMessage(switchOrg.error, SWITCH_ORG_FALLBACK_ERROR)}
                          </span>
                        ) : null
                      }
                      slotProps={{ secondary: { color: 'error', sx: { whiteSpace: 'normal', maxWidth: 280 } } }}
                    />
                  </MenuItem>
                );
              })
            : null}
          {canSwitch ? <Divider /> : null}
          <MenuItem
            disabled={switchOrg.isPending}
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
