import { Outlet } from 'react-router';
import { SectionLayout } from '../../../components/section-layout';
import { SectionMenu } from '../../../components/section-menu';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/use-session';

const ACCOUNT_MENU = [
  { label: 'Profile', to: paths.profile },
  { label: 'Change password', to: paths.changePassword },
  { label: 'Sessions', to: paths.sessions },
] as const;

/** /account: left menu Profile, Change password (spec section 2) and Sessions (decision 0064). */
export function AccountLayout() {
  // A view of the product as someone else does not show their sessions (the server refuses them).
  const isViewAs = useCurrentUser()?.isImpersonated ?? false;
  const items = isViewAs ? ACCOUNT_MENU.filter((item) => item.to !== paths.sessions) : ACCOUNT_MENU;
  return (
    <SectionLayout menu={<SectionMenu label="Account" items={items} />}>
      <Outlet />
    </SectionLayout>
  );
}
