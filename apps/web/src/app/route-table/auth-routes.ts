import type { RouteObject } from 'react-router';
import { verifyEmailLoader } from '../guards';
import { indexPage, page } from './page';

const loginModule = () => import('../../features/auth/routes/login');

/** The public pages of signing in, signing up and accepting an invitation (spec section 2). */
export const authRoutes: RouteObject[] = [
  indexPage('public', loginModule, 'LoginRoute'),
  page('login', 'public', loginModule, 'LoginRoute', { id: 'login' }),
  page('signup', 'public', () => import('../../features/auth/routes/signup'), 'SignupRoute'),
  page('choose-password', 'public', () => import('../../features/auth/routes/choose-password'), 'ChoosePasswordRoute'),
  page('reset-password', 'public', () => import('../../features/auth/routes/reset-password'), 'ResetPasswordRoute'),
  page('callback', 'public', () => import('../../features/auth/routes/callback'), 'CallbackRoute'),
  page('license', 'public', () => import('../../features/auth/routes/license'), 'LicenseRoute'),
  // Public: the link decides whether to sign up, sign in first, or accept (decision 8).
  page('accept-invite', 'public', () => import('../../features/invitations/routes/accept-invite'), 'AcceptInviteRoute'),
  page('emailVerified', 'public', () => import('../../features/auth/routes/email-verified'), 'EmailVerifiedRoute'),
];

/** Signed-in pages before the app proper, open while the address awaits verification. */
export const verificationRoutes: RouteObject[] = [
  page('org-selection', 'unverified', () => import('../../features/auth/routes/org-selection'), 'OrgSelectionRoute'),
  // A verified user goes on to the scenarios (spec section 2).
  page('verify', 'unverified', () => import('../routes/verify-email'), 'VerifyEmailPage', {
    id: 'verifyEmail',
    loader: verifyEmailLoader,
  }),
];
