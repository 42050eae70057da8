import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { PendingInvitationNoticeFor, pendingInvitationMessage } from './pending-invitation-notice';

describe('PendingInvitationNoticeFor', () => {
  it("asks the server for the user's pending invitations and shows the notice", async () => {
    writeLoginResult(buildLoginResult({ email: 'unverified@demo.test' }));
    const api = stubApi(
      [
        {
          method: 'POST',
          path: '/api/users/invites/pending',
          respond: () =>
            jsonResponse({
              data: {
                pending: [
                  {
                    _id: 'i1',
                    org_id: 'o1',
                    org_name: 'Northgate Nursing School',
                    email: 'unverified@demo.test',
                    role: 'STUDENT',
                    dismissed: false,
                    declined: false,
                    user_id: null,
                    throughSubscription: false,
                  },
                ],
              },
            }),
        },
      ],
      { withShell: false },
    );
    renderWithRouter(<PendingInvitationNoticeFor email="unverified@demo.test" />);
    expect(
      await screen.findByText(
        'You have a pending invitation to unverified@demo.test. Please follow the link in your invite email to accept it.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/invites/pending')[0]?.body).toEqual({ email: 'unverified@demo.test' });
    expect(pendingInvitationMessage('a@b.c')).toBe(
      'You have a pending invitation to a@b.c. Please follow the link in your invite email to accept it.',
    );
  });

  it('shows nothing without pending invitations', async () => {
    writeLoginResult(buildLoginResult());
    const api = stubApi();
    const { container } = renderWithRouter(<PendingInvitationNoticeFor email="admin@demo.test" />);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.callsTo('POST', '/api/users/invites/pending')).toHaveLength(1);
    expect(container).toBeEmptyDOMElement();
  });
});
