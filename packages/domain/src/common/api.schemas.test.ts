import { describe, expect, it } from 'vitest';
import { UpdateProfileBodySchema, MemberIdsBodySchema } from '../account/account.schemas.js';
import { ProvisionBodySchema } from '../account/provisioning.schemas.js';
import {
  ChangeOrgBodySchema,
  ResetPasswordBodySchema,
  SignUpBodySchema,
  VerificationEmailBodySchema,
} from '../auth/auth.schemas.js';
import { DeclineInviteBodySchema, InviteIdParamsSchema } from '../invitations/invitation.schemas.js';
import { NewNotificationBodySchema } from '../notifications/notification.schemas.js';
import { IdParamsSchema, UserIdParamsSchema } from './api.schemas.js';

const NUL = '\u0000';

describe('ids', () => {
  it('accept what the server generates and the pseudo-group names', () => {
    for (const id of ['65a1b2c3d4e5f6a7b8c9d0e1', 'ALL_ADMINS', '65a1b2c3d4e5f6a7b8c9d0e1_INSTRUCTORS', 'a-b']) {
      expect(IdParamsSchema.safeParse({ id }).success, id).toBe(true);
    }
  });

  it('refuse control characters and anything outside [A-Za-z0-9_-]', () => {
    for (const id of [`a${NUL}b`, 'a\nb', 'a b', 'a/b', 'a.b', 'é', '']) {
      expect(IdParamsSchema.safeParse({ id }).success, JSON.stringify(id)).toBe(false);
      expect(UserIdParamsSchema.safeParse({ userId: id }).success, JSON.stringify(id)).toBe(false);
    }
    expect(MemberIdsBodySchema.safeParse(['abc', `a${NUL}`]).success).toBe(false);
    expect(ChangeOrgBodySchema.safeParse({ orgId: `a${NUL}` }).success).toBe(false);
    expect(VerificationEmailBodySchema.safeParse({ user_id: `a${NUL}` }).success).toBe(false);
    expect(InviteIdParamsSchema.safeParse({ inviteId: `a${NUL}` }).success).toBe(false);
    expect(DeclineInviteBodySchema.safeParse({ inviteId: 'a;b' }).success).toBe(false);
    expect(
      ProvisionBodySchema.safeParse({ email: 'a@b.test', given_name: 'A', family_name: 'B', orgId: `o${NUL}` }).success,
    ).toBe(false);
  });
});

describe('stored text', () => {
  it('names refuse control characters, keep other letters', () => {
    expect(UpdateProfileBodySchema.safeParse({ given_name: 'Zoë-Ann O’Neil' }).success).toBe(true);
    for (const name of [`a${NUL}b`, 'a\u0007b', 'a\tb', 'a\u007fb']) {
      expect(UpdateProfileBodySchema.safeParse({ given_name: name }).success, JSON.stringify(name)).toBe(false);
    }
    const signUp = { token: 'x'.repeat(20), email: 'a@b.test', given_name: 'A', family_name: `B${NUL}`, password: 'Abcdefg1' };
    expect(SignUpBodySchema.safeParse(signUp).success).toBe(false);
  });

  it('free text and link tokens refuse NUL', () => {
    const notification = {
      title: 'Hello',
      message: 'Line one\nLine two',
      targets: [{ principalType: 'GROUP', principalId: 'ALL_USERS' }],
    };
    expect(NewNotificationBodySchema.safeParse(notification).success).toBe(true);
    expect(NewNotificationBodySchema.safeParse({ ...notification, title: `He${NUL}llo` }).success).toBe(false);
    expect(NewNotificationBodySchema.safeParse({ ...notification, message: `a${NUL}` }).success).toBe(false);
    expect(
      NewNotificationBodySchema.safeParse({
        ...notification,
        actions: [{ label: 'Go to', type: 'URL', metadata: { url: `x${NUL}` } }],
      }).success,
    ).toBe(false);
    expect(
      NewNotificationBodySchema.safeParse({ ...notification, targets: [{ principalType: 'USER', principalId: `a${NUL}` }] })
        .success,
    ).toBe(false);
    expect(ResetPasswordBodySchema.safeParse({ token: `${'x'.repeat(20)}${NUL}`, newPassword: 'Abcdefg1' }).success).toBe(false);
    expect(VerificationEmailBodySchema.safeParse({ user_id: 'abc', client_id: `c${NUL}` }).success).toBe(false);
  });
});
