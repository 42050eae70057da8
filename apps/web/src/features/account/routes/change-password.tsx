import { ScreenHeader } from '../../../components/screen-header';

/** /account/change-password. */
export function ChangePasswordRoute() {
  return <ScreenHeader title="Change password" />;
}
