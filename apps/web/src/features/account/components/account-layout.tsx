import { Outlet } from 'react-router';
import { SectionLayout } from '../../../components/section-layout';
import { SectionMenu } from '../../../components/section-menu';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/use-session';

const ACCOUNT_MENU = [
  { label: 'Profile', to: paths.profile },
  { label: 'Change password', to: paths.changePassword },
  { label: 'Sessions', to: paths.sessions },
  { label: 'Security', to: paths.security },
] as const;

/** A view of the product as someone else shows neither their sessions nor their sign-in methods (the server refuses them). */
const OWN_ONLY: readonly string[] = [paths.sessions, paths.security];

/** /account: left menu Profile, Change password (spec section 2), Sessions (decision 0064) and Security (decision 0066). */
export function AccountLayout() {
  const isViewAs = useCurrentUser()?.isImpersonated ?? false;
  const items = isViewAs ? ACCOUNT_MENU.filter((item) => !OWN_ONLY.includes(item.to)) : ACCOUNT_MENU;
  return (
    <SectionLayout menu={<SectionMenu label="Account" items={items} />}>
      <Outlet />
    </SectionLayout>
  );
}
