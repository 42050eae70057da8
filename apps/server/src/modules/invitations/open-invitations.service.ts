/**
 * Open (pending or declined) invitations of an organisation, for the organisation's users list,
 * and those that take a seat (for moving a person in).
 * Other modules read them here, never through the repository.
 */
export {
  countOpenInvitations,
  countSeatTakingInvitations,
  findOpenInvitationsPage,
  type OpenInvitationFilter,
} from './invitations.repository.js';
