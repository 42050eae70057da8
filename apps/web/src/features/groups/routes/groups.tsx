import { ScreenHeader } from '../../../components/screen-header';

/** /groups. */
export function GroupsRoute() {
  return <ScreenHeader title="Groups" />;
}
