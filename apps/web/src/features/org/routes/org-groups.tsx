import { ScreenHeader } from '../../../components/screen-header';
import { CurrentOrgLine } from '../components/current-org-line';

/** /org/groups: the groups of the user's organisation. */
export function OrgGroupsRoute() {
  return (
    <>
      <ScreenHeader title="Groups" />
      <CurrentOrgLine />
    </>
  );
}
