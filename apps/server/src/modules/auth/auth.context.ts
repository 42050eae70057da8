import type { Services } from '../../plugins/app/services.js';

/** What the identity services use of the app's services. */
export type AuthCtx = Pick<
  Services,
  'db' | 'auth' | 'tokens' | 'licenseTokens' | 'verificationTokens' | 'deviceCookies' | 'mailer' | 'limiter' | 'env' | 'cache'
>;
