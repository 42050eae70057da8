import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { Link, useLocation } from 'react-router';

export type SectionMenuItem = { label: string; to: string };

/** The left menu of an area (account, org management, access). */
export function SectionMenu({ label, items }: { label: string; items: readonly SectionMenuItem[] }) {
  const { pathname } = useLocation();
  return (
    <Paper variant="outlined" component="nav" aria-label={label}>
      <List>
        {items.map((item) => {
          const isCurrent = pathname === item.to || pathname.startsWith(`${item.to}/`);
          return (
            <li key={item.to}>
              <ListItemButton component={Link} to={item.to} selected={isCurrent} aria-current={isCurrent ? 'page' : undefined}>
                <ListItemText primary={item.label} />
              </ListItemButton>
            </li>
          );
        })}
      </List>
    </Paper>
  );
}
