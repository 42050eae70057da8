import AccountCircle from '@mui/icons-material/AccountCircle';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Assignment from '@mui/icons-material/Assignment';
import CorporateFare from '@mui/icons-material/CorporateFare';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import Web from '@mui/icons-material/Web';
import Badge from '@mui/material/Badge';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { VisuallyHidden } from '../../components/visually-hidden';
import { useHasPendingInvitation } from '../../features/invitations/api/get-user-invites';
import type { CurrentUser } from '../../lib/current-user';
import { type SideNavItem, type SideNavKey, sideNavItems } from './side-nav-items';

const ICONS: Record<SideNavKey, ComponentType> = {
  scenarios: LibraryBooks,
  assignments: Assignment,
  account: AccountCircle,
  orgManagement: CorporateFare,
  access: AdminPanelSettings,
  cms: Web,
};

/** First path segment under /auth (or the top one outside it): items are "current" for their whole area. */
function areaOf(path: string): string {
  const segments = path.split('/');
  return (segments[1] === 'auth' ? segments[2] : segments[1]) ?? '';
}

function SideNavLink({ item, isCurrent, onNavigate }: { item: SideNavItem; isCurrent: boolean; onNavigate?: () => void }) {
  const Icon = ICONS[item.key];
  const icon = item.badge ? (
    <Badge badgeContent={item.badge.content} color="error">
      <Icon />
    </Badge>
  ) : (
    <Icon />
  );
  const text = (
    <>
      <ListItemIcon aria-hidden="true">{icon}</ListItemIcon>
      <ListItemText
        primary={
          <>
            {item.label}
            {item.badge ? <VisuallyHidden> ({item.badge.description})</VisuallyHidden> : null}
          </>
        }
      />
    </>
  );
  const shared = { selected: isCurrent, onClick: onNavigate, sx: { borderRadius: 1, mx: 1 } } as const;
  return item.isExternal ? (
    <ListItemButton component="a" href={item.to} {...shared}>
      {text}
    </ListItemButton>
  ) : (
    <ListItemButton component={Link} to={item.to} aria-current={isCurrent ? 'page' : undefined} {...shared}>
      {text}
    </ListItemButton>
  );
}

/** The side nav buttons of the signed-in user. */
export function SideNavList({ user, onNavigate }: { user: CurrentUser; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const hasPendingInvitation = useHasPendingInvitation(user.isImpersonated ? null : user.id);
  return (
    <List>
      {sideNavItems(user, { hasPendingInvitation }).map((item) => (
        <li key={item.key}>
          <SideNavLink
            item={item}
            isCurrent={!item.isExternal && areaOf(item.to) === areaOf(pathname)}
            {...(onNavigate ? { onNavigate } : {})}
          />
        </li>
      ))}
    </List>
  );
}
