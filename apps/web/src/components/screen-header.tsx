import { PageTitle } from './page-title';
import { SignedInAs } from './signed-in-as';

/** A signed-in screen's title and who is signed in. */
export function ScreenHeader({ title }: { title: string }) {
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <SignedInAs />
    </>
  );
}
