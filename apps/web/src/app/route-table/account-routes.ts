import type { RouteObject } from 'react-router';
import { paths } from '../../config/paths';
import { AREA_ACCESS } from '../route-access';
import { page, redirectRoute } from './page';

/** The user's own account and billing (spec section 2): every role. */
export const accountRoutes: RouteObject[] = [
  page('account', AREA_ACCESS.account, () => import('../../features/account/components/account-layout'), 'AccountLayout', {
    children: [
      redirectRoute({ index: true }, paths.profile, AREA_ACCESS.account),
      page('profile', AREA_ACCESS.account, () => import('../routes/profile'), 'ProfileRoute', { id: 'profile' }),
      page(
        'change-password',
        AREA_ACCESS.account,
        () => import('../../features/account/routes/change-password'),
        'ChangePasswordRoute',
      ),
      page('sessions', AREA_ACCESS.account, () => import('../../features/account/routes/sessions'), 'SessionsRoute'),
      page('security', AREA_ACCESS.account, () => import('../../features/two-factor/routes/security'), 'SecurityRoute'),
    ],
  }),
  page('payment/portal', AREA_ACCESS.account, () => import('../../features/payment/routes/payment-portal'), 'PaymentPortalRoute'),
];
