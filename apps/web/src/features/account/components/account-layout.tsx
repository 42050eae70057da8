import { Outlet } from 'react-router';
import { SectionLayout } from '../../../components/section-layout';
import { SectionMenu } from '../../../components/section-menu';
import { paths } from '../../../config/paths';

const ACCOUNT_MENU = [
  { label: 'Profile', to: paths.profile },
  { label: 'Change password', to: paths.changePassword },
] as const;

/** /account: left menu Profile and Change password (spec section 2). */
export function AccountLayout() {
  return (
    <SectionLayout menu={<SectionMenu label="Account" items={ACCOUNT_MENU} />}>
      <Outlet />
    </SectionLayout>
  );
}
