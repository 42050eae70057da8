import { ScreenHeader } from '../../../components/screen-header';
import { SessionsList } from '../components/sessions-list';

/** /account/sessions: where the person is signed in, and signing out elsewhere. */
export function SessionsRoute() {
  return (
    <>
      <ScreenHeader title="Sessions" />
      <SessionsList />
    </>
  );
}
