import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { OrgMenu } from './org-menu';

export type NavBarProps = {
  /** Shows the button that opens the side navigation on small screens. */
  onOpenNavigation?: () => void;
  isNavigationOpen?: boolean;
  navigationId?: string;
};

export function NavBar({ onOpenNavigation, isNavigationOpen, navigationId }: NavBarProps) {
  return (
    <AppBar position="sticky" component="header" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar>
        {onOpenNavigation ? (
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Open navigation"
            aria-controls={navigationId}
            aria-expanded={isNavigationOpen}
            onClick={onOpenNavigation}
            sx={{ mr: 1, display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
        ) : null}
        <Typography component="p" variant="h6" sx={{ fontWeight: 700 }}>
          PatientSim
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <OrgMenu />
      </Toolbar>
    </AppBar>
  );
}
