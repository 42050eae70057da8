/** Business constants and limits (spec section 9, decisions 2, 8 and 14). */
export const STUDENT_SESSION_SECONDS = 1200;
export const TOKEN_LIFETIME_SECONDS = 3600;
export const IMPERSONATION_MAX_SECONDS = 3600;
/** A session slides with use but never outlives this, counted from sign-in. */
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
export const SESSION_POLL_MS = 3000;
export const ACTIVITY_THROTTLE_MS = 1000;
export const VERIFIED_REDIRECT_MS = 1500;
export const LICENSE_VERSION = '1.0';
export const LICENSE_TOKEN_SECONDS = 600;
export const PASSWORD_RESET_TOKEN_SECONDS = 3600;
export const EMAIL_VERIFICATION_TOKEN_SECONDS = 24 * 3600;
/** How long the last proven address can take an account back after an admin changed it. */
export const EMAIL_RECLAIM_SECONDS = 30 * 24 * 3600;
export const INVITATION_TOKEN_SECONDS = 7 * 24 * 3600;
export const PAGE_SIZE_USERS = 50;
export const MAX_PAGE_SIZE = 100;
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_DEBOUNCE_MS = 500;
export const GROUP_NAME_MAX = 40;
/** An organisation's (or group's) free-text description, as its profile shows it. */
export const GROUP_ABOUT_MAX = 500;
export const BULK_INVITE_MAX = 50;
export const NOTIFICATION_HEADER_MAX = 25;
export const NOTIFICATION_BODY_MAX = 500;
/** localStorage namespace of the product (spec section 9). */
export const AUTH_NAMESPACE = 'patientsim.auth';
export const STORAGE_KEYS = {
  result: `${AUTH_NAMESPACE}.result`,
  productType: `${AUTH_NAMESPACE}.productType`,
  groupsData: `${AUTH_NAMESPACE}.groupsData`,
  activeGroupsData: `${AUTH_NAMESPACE}.activeGroupsData`,
  disablePopupNotifications: 'disablePopupNotifications',
} as const;
/** The ID token's audience; the issuer is the server's PUBLIC_URL. */
export const ID_TOKEN_AUDIENCE = 'patientsim';
