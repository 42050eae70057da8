import { caseConfigurationsQueryOptions } from '../features/cases/api/get-case-configurations';
import { userInvitesQueryOptions } from '../features/invitations/api/get-user-invites';
import { notificationsQueryOptions } from '../features/notifications/api/get-notifications';
import { deriveCurrentUser } from '../lib/current-user';
import { getSessionSnapshot } from '../lib/session-store';
import { queryClient } from './providers';

/**
 * What the route loaders start reading once their guard has let the user in (`guarded` in the
 * route table), with the query options, and so the query keys, the pages read them through: the
 * page's chunk and its answers then arrive together. Not awaited: a page shows its own loading
 * state, and a failed read is the page's to show when it asks again.
 */

/** The signed-in shell: the notifications panel, and the pending-invitation mark of the side nav. */
export function startShellReads(): void {
  const { result, groups } = getSessionSnapshot();
  if (!result) return;
  void queryClient.prefetchQuery(notificationsQueryOptions());
  const user = deriveCurrentUser(result, groups);
  if (!user.isImpersonated) void queryClient.prefetchQuery(userInvitesQueryOptions(user.id));
}

/** The scenario library's first page, in its default order, unfiltered (what `CaseLibrary` asks first). */
export function startCaseListReads(): void {
  void queryClient.prefetchInfiniteQuery(caseConfigurationsQueryOptions({ sort: null, filters: {}, search: '' }));
}
