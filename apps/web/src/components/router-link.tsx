import Link, { type LinkProps } from '@mui/material/Link';
import { Link as RouterDomLink } from 'react-router';

/** An MUI-styled link to a route of this app (path relative to the app base). */
export function RouterLink({ to, ...props }: Omit<LinkProps, 'href' | 'component'> & { to: string }) {
  return <Link component={RouterDomLink} to={to} {...props} />;
}
