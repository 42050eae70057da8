/**
 * The base path of the authentication and account area (spec section 2). The router itself runs
 * at the root, so that it also serves the scenario library at /authoring/cases (decision 1) with
 * the same shell; every path below is a full path.
 */
export const APP_BASENAME = '/auth';

/** Routes of the /auth area (spec section 2, route table), as full paths. */
export const paths = {
  login: '/auth/login',
  signup: '/auth/signup',
  choosePassword: '/auth/choose-password',
  resetPassword: '/auth/reset-password',
  /** The "this wasn't me" link mailed to the old address after an admin changed it. */
  reclaimEmail: '/auth/reclaim-email',
  /** The sign-in's second step, after a correct password, for an account with a second factor. */
  loginTwoFactor: '/auth/login/two-factor',
  callback: '/auth/callback',
  /** Setting up a second factor that an organisation requires, before the first ID token. */
  twoFactorSetup: '/auth/two-factor/setup',
  orgSelection: '/auth/org-selection',
  license: '/auth/license',
  /** Route name verifyEmail. */
  verifyEmail: '/auth/verify',
  emailVerified: '/auth/emailVerified',
  acceptInvite: '/auth/accept-invite',
  account: '/auth/account',
  /** Route name profile: the fallback target of the navigation guard. */
  profile: '/auth/account/profile',
  changePassword: '/auth/account/change-password',
  /** The person's signed-in browsers and devices, each of which they can sign out. */
  sessions: '/auth/account/sessions',
  /** The person's second factors: an authenticator app and passkeys. */
  security: '/auth/account/security',
  org: '/auth/org',
  orgInvite: '/auth/org/invite',
  orgInviteSubscribed: '/auth/org/invite-subscribed',
  orgArchivedUsers: '/auth/org/archived-users',
  orgProfile: '/auth/org/profile',
  orgGroups: '/auth/org/groups',
  orgAudit: '/auth/org/audit',
  /** Which roles of the organisation must sign in with a second factor (its admins'). */
  orgSecurity: '/auth/org/security',
  groups: '/auth/groups',
  groupDetails: (orgId: string) => `/auth/groups/${encodeURIComponent(orgId)}`,
  access: '/auth/access',
  accessOrganizations: '/auth/access/organizations',
  organizationDetails: (orgId: string) => `/auth/access/organizations/${encodeURIComponent(orgId)}`,
  accessUsers: '/auth/access/users',
  accessCases: '/auth/access/cases',
  accessSkeleton: '/auth/access/skeleton',
  accessTemplates: '/auth/access/templates',
  accessNotifications: '/auth/access/notifications',
  accessAudit: '/auth/access/audit',
  accessApplications: '/auth/access/applications',
  paymentPortal: '/auth/payment/portal',
  manageUsers: '/auth/manage-users',
  manageUsersInvite: '/auth/manage-users/invite',
  /** The scenario library (decision 1): a page of this app outside /auth. */
  scenarios: '/authoring/cases',
} as const;

/** Full paths out of this app (spec section 2). */
export const externalPaths = {
  /** The scenario library, for document navigations (the sign-in redirect of the guard). */
  scenarios: '/authoring/cases',
  assignments: '/authoring/assignments',
  /** The grades of one user: `?userId=`. */
  grades: '/authoring/cases/grades',
  externalAccess: '/auth/access/organizations',
  cms: '/cms',
} as const;

/** The license screen with its token, going on to `next` (a full path) once accepted (decision 14). */
export function licensePath(licenseToken: string, next: string): string {
  return `${paths.license}?${new URLSearchParams({ token: licenseToken, next }).toString()}`;
}

/** The second factor's set-up that an organisation requires, going on to `next` (a full path) once done. */
export function twoFactorSetupPath(next: string): string {
  return `${paths.twoFactorSetup}?${new URLSearchParams({ next }).toString()}`;
}
