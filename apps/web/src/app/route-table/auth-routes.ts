import type { RouteObject } from 'react-router';
import { LoginRoute } from '../../features/auth/routes/login';
import { firstLoadPage, guardLoader, page } from './page';

/** The public pages of signing in, signing up and accepting an invitation (spec section 2). */
export const authRoutes: RouteObject[] = [
  // Sign-in is the page most visits open first: it comes with the app's entry (no second round trip).
  firstLoadPage({ index: true }, 'public', LoginRoute),
  firstLoadPage('login', 'public', LoginRoute, { id: 'login' }),
  // The second factor after a correct password (decision 0066): no session until it is proved.
  page('login/two-factor', 'public', () => import('../../features/auth/routes/login-two-factor'), 'LoginTwoFactorRoute'),
  page('signup', 'public', () => import('../../features/auth/routes/signup'), 'SignupRoute'),
  page('choose-password', 'public', () => import('../../features/auth/routes/choose-password'), 'ChoosePasswordRoute'),
  page('reset-password', 'public', () => import('../../features/auth/routes/reset-password'), 'ResetPasswordRoute'),
  page('reclaim-email', 'public', () => import('../../features/auth/routes/reclaim-email'), 'ReclaimEmailRoute'),
  page('callback', 'public', () => import('../../features/auth/routes/callback'), 'CallbackRoute'),
  page('license', 'public', () => import('../../features/auth/routes/license'), 'LicenseRoute'),
  // A second factor an organisation requires, set up before the first ID token (decision 0066): the
  // session cookie alone opens it, as it opens the license screen.
  page('two-factor/setup', 'public', () => import('../../features/two-factor/routes/two-factor-setup'), 'TwoFactorSetupRoute'),
  // Another application asking to use the account (decision 0065); the provider checks the session.
  page('oauth/consent', 'public', () => import('../../features/oauth/routes/consent'), 'ConsentRoute'),
  // Public: the link decides whether to sign up, sign in first, or accept (decision 8).
  page('accept-invite', 'public', () => import('../../features/invitations/routes/accept-invite'), 'AcceptInviteRoute'),
  page('emailVerified', 'public', () => import('../../features/auth/routes/email-verified'), 'EmailVerifiedRoute'),
];

/** Signed-in pages before the app proper, open while the address awaits verification. */
export const verificationRoutes: RouteObject[] = [
  page('org-selection', 'unverified', () => import('../../features/auth/routes/org-selection'), 'OrgSelectionRoute'),
  // A verified user goes on to the scenarios (spec section 2).
  page('verify', 'unverified', () => import('../../features/auth/routes/verify-email'), 'VerifyEmailRoute', {
    id: 'verifyEmail',
    loader: guardLoader('verifyEmailLoader'),
  }),
];
