import { ScreenHeader } from '../../../components/screen-header';
import { SecuritySettings } from '../components/security-settings';

/** /account/security: the person's second factors (decision 0066). */
export function SecurityRoute() {
  return (
    <>
      <ScreenHeader title="Security" />
      <SecuritySettings />
    </>
  );
}
