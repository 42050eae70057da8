/**
 * Open (pending or declined) invitations of an organisation, for the organisation's users list.
 * Other modules read them here, never through the repository; the seats they keep are read
 * through seats.service.
 */
export { countOpenInvitations, findOpenInvitationsPage } from './invitations.repository.js';

/** The pending invitations the sign-up and the verify screen read, and their writes there. */
export {
  findPendingInvitationByTokenHash,
  findPendingInvitationsFor,
  insertInvitation,
  settleInvitation,
} from './invitations.repository.js';
