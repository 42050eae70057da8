/** The base path the router runs under (spec section 2). */
export const APP_BASENAME = '/auth';

/** Routes of this app, relative to APP_BASENAME (spec section 2, route table). */
export const paths = {
  login: '/login',
  signup: '/signup',
  choosePassword: '/choose-password',
  resetPassword: '/reset-password',
  callback: '/callback',
  orgSelection: '/org-selection',
  license: '/license',
  /** Route name verifyEmail. */
  verifyEmail: '/verify',
  emailVerified: '/emailVerified',
  acceptInvite: '/accept-invite',
  account: '/account',
  /** Route name profile: the fallback target of the navigation guard. */
  profile: '/account/profile',
  changePassword: '/account/change-password',
  org: '/org',
  orgInvite: '/org/invite',
  orgInviteSubscribed: '/org/invite-subscribed',
  orgArchivedUsers: '/org/archived-users',
  orgProfile: '/org/profile',
  orgGroups: '/org/groups',
  orgAudit: '/org/audit',
  groups: '/groups',
  groupDetails: (orgId: string) => `/groups/${encodeURIComponent(orgId)}`,
  access: '/access',
  accessOrganizations: '/access/organizations',
  organizationDetails: (orgId: string) => `/access/organizations/${encodeURIComponent(orgId)}`,
  accessUsers: '/access/users',
  accessCases: '/access/cases',
  accessSkeleton: '/access/skeleton',
  accessTemplates: '/access/templates',
  accessNotifications: '/access/notifications',
  accessAudit: '/access/audit',
  paymentPortal: '/payment/portal',
  manageUsers: '/manage-users',
  manageUsersInvite: '/manage-users/invite',
} as const;

/** Full paths out of this app (spec section 2). */
export const externalPaths = {
  scenarios: '/authoring/cases',
  assignments: '/authoring/assignments',
  /** The grades of one user: `?userId=`. */
  grades: '/authoring/cases/grades',
  externalAccess: '/auth/access/organizations',
  cms: '/cms',
} as const;

/** The full path (with base) of an app route, for links that leave the router or e-mails. */
export function appUrl(path: string): string {
  return `${APP_BASENAME}${path}`;
}
