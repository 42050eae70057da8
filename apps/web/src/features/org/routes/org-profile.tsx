import { ScreenHeader } from '../../../components/screen-header';
import { CurrentOrgLine } from '../components/current-org-line';

/** /org/profile: the key owner's organisation profile. */
export function OrgProfileRoute() {
  return (
    <>
      <ScreenHeader title="Org. Profile" />
      <CurrentOrgLine />
    </>
  );
}
