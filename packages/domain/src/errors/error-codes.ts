/**
 * The one catalogue of API error codes: each maps to an HTTP status and a default message.
 * The web client branches on `code`, never on message text.
 */
export const ERROR_CODES = {
  // generic
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid.' },
  /** A JSON body nested deeper than the server reads (decision 0034). */
  JSON_TOO_DEEP: { status: 400, message: 'The JSON is nested too deeply.' },
  /** A GraphQL query over one of the endpoint's bounds: depth, size, cost, repeats, mutations (decision 0034). */
  QUERY_TOO_COMPLEX: { status: 400, message: 'The query asks for more than one request may.' },
  UNAUTHENTICATED: { status: 401, message: 'You must be signed in.' },
  TOKEN_INVALID: { status: 401, message: 'The token is invalid or has expired.' },
  SESSION_ENDED: { status: 401, message: 'Your session has ended. Please sign in again.' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this.' },
  /** A View-As-User token on a route that changes something (only the routes the view needs let it through). */
  VIEW_AS_READ_ONLY: { status: 403, message: 'Nothing can be changed while viewing PatientSim as another user.' },
  /** A signed-in browser request (session cookie) that another site's page sent. */
  CROSS_SITE_REQUEST: { status: 403, message: 'This request must come from PatientSim.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state.' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts. Please try again later.' },
  /** Overload: the server turned the request away before doing any of its work (decision 0018). */
  SERVER_BUSY: { status: 503, message: 'The server is busy. Please try again shortly.' },
  /** PostgreSQL or Redis could not be reached for a moment. */
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is briefly unavailable. Please try again shortly.' },
  INTERNAL: { status: 500, message: 'An internal error occurred.' },
  // identity
  invalid_password: { status: 400, message: 'Password is too weak' },
  INVALID_CREDENTIALS: { status: 401, message: 'Wrong email or password.' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists.' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Your email address is not verified.' },
  CURRENT_PASSWORD_WRONG: { status: 403, message: 'The current password is wrong.' },
  LICENSE_NOT_ACCEPTED: { status: 403, message: 'You must accept the license agreement.' },
  LICENSE_TOKEN_INVALID: { status: 400, message: 'The license link is invalid or has expired.' },
  LICENSE_VERSION_UNKNOWN: { status: 400, message: 'Unknown license version.' },
  RESET_TOKEN_INVALID: { status: 400, message: 'The password reset link is invalid or has expired.' },
  VERIFICATION_TOKEN_INVALID: { status: 400, message: 'The verification link is invalid or has expired.' },
  /** A View-As-User token asking for the viewed person's sessions: they are not part of the view. */
  /** The session list's own session: ended by signing out, which also clears the browser's cookie. */
  SESSION_IS_CURRENT: { status: 422, message: 'This is the session you are using. Sign out to end it.' },
  NOT_A_MEMBER: { status: 404, message: 'Organization not found.' },
  // second factor (decision 0066)
  /** The two-factor step of a sign-in: a wrong, used or expired code of the app or a recovery code. */
  SECOND_FACTOR_INVALID: { status: 401, message: 'That code is not valid. Check it and try again.' },
  /** The two-factor step after its 10 minutes, or without the password step before it. */
  SECOND_FACTOR_EXPIRED: { status: 401, message: 'Your sign-in has expired. Please sign in again.' },
  /** A session without a second factor of a person who must use one: enrol before anything else. */
  TWO_FACTOR_ENROLMENT_REQUIRED: {
    status: 403,
    message: 'Your organization requires a second factor. Set one up to continue.',
  },
  /** An authenticator app already set up: remove it first. */
  TOTP_ALREADY_ENABLED: { status: 409, message: 'An authenticator app is already set up.' },
  /** A code to confirm an app that is not being set up, or one that is not enabled. */
  TOTP_NOT_ENABLED: { status: 422, message: 'No authenticator app is set up.' },
  /** Removing the last factor while an organisation (or the platform) requires one. */
  LAST_FACTOR_REQUIRED: {
    status: 422,
    message: 'A second factor is required for your account, so your last one cannot be removed.',
  },
  /** A passkey ceremony the identity library could not verify (expired options, another device). */
  PASSKEY_INVALID: { status: 400, message: 'The passkey could not be verified. Please try again.' },
  /** A "this wasn't me" link that is unknown, used, or past its 30 days. */
  RECLAIM_TOKEN_INVALID: { status: 400, message: 'This link is invalid, was already used or has expired.' },
  // invitations
  INVITATION_INVALID: { status: 400, message: 'The invitation is invalid or has expired.' },
  INVITATION_EMAIL_MISMATCH: { status: 403, message: 'This invitation was sent to another email address.' },
  SEATS_EXCEEDED: {
    status: 422,
    message: 'Invitations exceed open seats for your organization. Reduce invites or request more seats.',
  },
  // organisations
  KEY_OWNER_ROLE_LOCKED: { status: 403, message: "Only the key owner can lower the key owner's role." },
  /**
   * An organisation may change the address only of an account that is its own alone, ranks below
   * the actor, owns no organisation and holds no provider role.
   */
  MEMBER_EMAIL_LOCKED: {
    status: 403,
    message: 'You cannot change the email address of this user. They can change it from their own profile.',
  },
  /**
   * An organisation signs out only members within its reach: not the caller (their own sessions are
   * in their account), the key owner, a member ranked above the caller, or a provider account.
   */
  MEMBER_SIGN_OUT_LOCKED: {
    status: 403,
    message: 'You cannot sign out this user. They can end their sessions from their own account.',
  },
  KEY_OWNER_CANNOT_LEAVE: { status: 422, message: "You can't leave an organization you are a key owner of" },
  ORGANIZATION_INACTIVE: { status: 422, message: 'This organization is inactive.' },
  GROUP_NAME_TAKEN: { status: 409, message: 'A group with this name already exists in this organization.' },
  SUBGROUP_REQUIRED: { status: 422, message: 'Only a group inside an organization can be changed this way.' },
  KEY_OWNER_MUST_BE_ADMIN: { status: 422, message: 'The key owner must be an admin of the organization.' },
  // payment
  NO_PAYMENT_CUSTOMER: { status: 422, message: 'No payment customer exists for this account.' },
  PAYMENT_PROVIDER_UNAVAILABLE: { status: 503, message: 'The billing portal is not available.' },
  // cases
  /** Template listing without an organisation (spec section 5). */
  CASE_NO_ORGANIZATION: { status: 403, message: 'User does not belong to an organization' },
  /** Template listing by a student (spec section 5). */
  CASE_STUDENT_REFUSED: { status: 403, message: 'Student cannot retrieve this info' },
  CASE_NOT_TEMPLATE: { status: 422, message: 'Only a template can be changed this way.' },
  CASE_NO_APP_LAB: { status: 422, message: 'This product type has no App Lab organization.' },
  /** GET /api/cases/{id} without this deployment's access code (decision 17). */
  CASE_ACCESS_CODE_INVALID: { status: 403, message: 'The access code is missing or wrong.' },
  /** The Cases tool names an environment this deployment does not know (decision 0027). */
  CASE_ENVIRONMENT_UNKNOWN: { status: 400, message: 'This environment is not configured on this deployment.' },
  /** A case could not be read in the source environment (spec section 8; the message carries the cause). */
  CASE_SOURCE_FETCH_FAILED: { status: 502, message: 'Error when fetching case in source environment: unknown error' },
  /** A case could not be restored or read in the target environment (spec section 8). */
  CASE_TARGET_FETCH_FAILED: { status: 502, message: 'Error when fetching case in target environment: unknown error' },
  /** An effect-chain decision on a case the caller reads but may not edit: only write access updates a case. */
  CASE_UPDATE_REFUSED: {
    status: 403,
    message: "Only the case's author, or someone they gave edit access, can update this case.",
  },
  /** An effect-chain decision on a case without a pending update (none needed, or declined). */
  CASE_UPDATE_NOT_PENDING: { status: 409, message: 'This case has no pending update.' },
  CASE_JSON_NOT_EQUAL: {
    status: 422,
    message: 'Case data is not the same after copy. Please take a screenshot of the diff below and contact support.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The JSON body of every error answer. */
export type ErrorBody = {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_CODES;
}
