/** Where verification links land: verified or not, the browser goes on to /auth/emailVerified. */
export const VERIFY_EMAIL_PATH = '/api/auth/verify-email';

/** The e-mail verification link (its token is bound to one account and one address). */
export const verificationLink = (publicUrl: string, token: string) =>
  `${publicUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
