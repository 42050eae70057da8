import { pendingInvitationMessage } from '@patientsim/domain/invitations/invitation.schemas';
import type { MailMessage } from './mailer.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function layout({
  heading,
  intro,
  action,
  url,
  outro,
}: {
  heading: string;
  intro: string;
  action: string;
  url: string;
  outro: string;
}) {
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1f2933">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#1565c0;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action)}</a></p>
<p>If the button does not work, copy this link into your browser:<br>${escapeHtml(url)}</p>
<p style="color:#52606d">${escapeHtml(outro)}</p>
</body></html>`;
  const text = `${heading}\n\n${intro}\n\n${action}: ${url}\n\n${outro}\n`;
  return { html, text };
}

export function verificationEmail({ to, url }: { to: string; url: string }): MailMessage {
  return {
    to,
    subject: 'Verify your PatientSim email address',
    ...layout({
      heading: 'Confirm your email address',
      intro: 'Please confirm that this is your email address to finish setting up your PatientSim account.',
      action: 'Verify email',
      url,
      outro: 'If you did not ask for this, you can ignore this email.',
    }),
  };
}

export function passwordResetEmail({ to, url }: { to: string; url: string }): MailMessage {
  return {
    to,
    subject: 'Reset your PatientSim password',
    ...layout({
      heading: 'Reset your password',
      intro: 'Someone asked to reset the password of your PatientSim account. The link works once and expires in 1 hour.',
      action: 'Choose a new password',
      url,
      outro: 'If you did not ask for this, you can ignore this email; your password stays the same.',
    }),
  };
}

const inWords = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
};

/**
 * To an account's owner when repeated wrong passwords lock its sign-in (once per lockout): from one
 * client (that client alone is locked out), or from several (clients the account does not know are
 * paused; decision 0039).
 */
export function signInLockedEmail({
  to,
  url,
  lockedForSeconds,
  isAccountWide,
}: {
  to: string;
  url: string;
  lockedForSeconds: number;
  isAccountWide: boolean;
}): MailMessage {
  const intro = isAccountWide
    ? `Someone has repeatedly tried to sign in to your PatientSim account with a wrong password from several places, so signing in from a browser that has not signed in to it before is paused for ${inWords(lockedForSeconds)}. Browsers you signed in with before still work, and choosing a new password lifts the pause. If this was not you, we suggest you choose a new password.`
    : `Someone has repeatedly tried to sign in to your PatientSim account with a wrong password, so signing in from where they tried is paused for ${inWords(lockedForSeconds)}. If this was not you, we suggest you choose a new password.`;
  return {
    to,
    subject: 'Someone is trying to sign in to your PatientSim account',
    ...layout({
      heading: 'Repeated sign-in attempts',
      intro,
      action: 'Reset my password',
      url,
      outro:
        'If it was you, you can sign in again when the pause is over, or at once with a new password. Your password has not been changed.',
    }),
  };
}

export function signUpEmail({ to, url }: { to: string; url: string }): MailMessage {
  return {
    to,
    subject: 'Finish creating your PatientSim account',
    ...layout({
      heading: 'Welcome to PatientSim',
      intro: 'Follow the link to choose your name and password. The link expires in 7 days.',
      action: 'Create my account',
      url,
      outro: 'If you did not ask for an account, you can ignore this email.',
    }),
  };
}

export function existingAccountEmail({ to, url }: { to: string; url: string }): MailMessage {
  return {
    to,
    subject: 'You already have a PatientSim account',
    ...layout({
      heading: 'You already have an account',
      intro:
        'Someone asked to create a PatientSim account for this email address, but one already exists. Sign in, or reset your password if you forgot it.',
      action: 'Sign in',
      url,
      outro: 'If you did not ask for this, you can ignore this email.',
    }),
  };
}

/**
 * To an address with a pending invitation when someone asks to sign it up without it: the spec's
 * pending-invitation text (section 8), by e-mail so that the sign-up answer says nothing of it.
 */
export function pendingInvitationReminderEmail({
  to,
  url,
  orgNames,
}: {
  to: string;
  url: string;
  orgNames: readonly string[];
}): MailMessage {
  const from = orgNames.length > 0 ? ` It is from ${orgNames.join(', ')}.` : '';
  return {
    to,
    subject: 'You have a pending invitation to PatientSim',
    ...layout({
      heading: 'You have a pending invitation',
      intro: `${pendingInvitationMessage(to)}${from} If you already have a PatientSim account, you can also sign in and accept it from your profile.`,
      action: 'Sign in',
      url,
      outro:
        'If you cannot find the invitation, ask the person who invited you to send it again. If you did not ask to sign up, you can ignore this email.',
    }),
  };
}

export function invitationEmail({ to, url, orgName }: { to: string; url: string; orgName: string }): MailMessage {
  return {
    to,
    subject: `You are invited to join ${orgName} on PatientSim`,
    ...layout({
      heading: `Join ${orgName}`,
      intro: `You have been invited to join ${orgName} on PatientSim. The invitation expires in 7 days.`,
      action: 'Accept the invitation',
      url,
      outro: 'If you were not expecting this invitation, you can ignore this email.',
    }),
  };
}

/** To the old address when an account's e-mail address is changed: the owner hears of it. */
export function emailChangeNoticeEmail({ to, newEmail, url }: { to: string; newEmail: string; url: string }): MailMessage {
  return {
    to,
    subject: 'Your PatientSim email address is being changed',
    ...layout({
      heading: 'Your email address is being changed',
      intro: `Someone signed in to your PatientSim account with its password and asked to change its email address to ${newEmail}. Until that address is verified, the account can do nothing but verify it.`,
      action: 'Open PatientSim',
      url,
      outro:
        'If this was you, there is nothing to do. If it was not, someone knows your password: contact your organization administrator or PatientSim support at once.',
    }),
  };
}

/** To an address that already belongs to an account when another account asks to move onto it. */
export function addressInUseEmail({ to, url }: { to: string; url: string }): MailMessage {
  return {
    to,
    subject: 'Your email address was entered on another PatientSim account',
    ...layout({
      heading: 'This address already has an account',
      intro:
        'Someone asked to move another PatientSim account onto this email address. It already belongs to your account, so nothing was changed.',
      action: 'Sign in',
      url,
      outro: 'If this was you, sign in with this address. Otherwise you can ignore this email.',
    }),
  };
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * To the last proven address when an organisation changed the account's address: who did it, and
 * a single-use link that takes the account back. `changedBy` reads like "an admin of {organisation},
 * {name} ({e-mail})".
 */
export function emailChangedByOrganisationEmail({
  to,
  newEmail,
  changedBy,
  url,
  expiresAt,
}: {
  to: string;
  newEmail: string;
  changedBy: string;
  url: string;
  expiresAt: Date;
}): MailMessage {
  return {
    to,
    subject: 'Your PatientSim email address was changed',
    ...layout({
      heading: 'Your email address was changed',
      intro: `${capitalised(changedBy)}, changed the email address of your PatientSim account to ${newEmail}. You have been signed out.`,
      action: "This wasn't me",
      url,
      outro: `If you agreed to this, there is nothing to do. If not, the link gives the account back to this address, signs it out everywhere and lets you choose a new password. It works once, until ${dayOf(expiresAt)}.`,
    }),
  };
}

/**
 * A password reset asked for an address an organisation moved the account away from: the way back
 * is the link that takes the account back, then a new password.
 */
export function reclaimResetEmail({
  to,
  newEmail,
  changedBy,
  changedAt,
  url,
  expiresAt,
}: {
  to: string;
  newEmail: string;
  changedBy: string;
  changedAt: Date;
  url: string;
  expiresAt: Date;
}): MailMessage {
  return {
    to,
    subject: 'Reset your PatientSim password',
    ...layout({
      heading: 'Take your account back',
      intro: `Someone asked to reset the password of the PatientSim account that used this address. On ${dayOf(changedAt)}, ${changedBy}, changed its address to ${newEmail}. Until ${dayOf(expiresAt)}, this address can take the account back: the link makes this its address again, signs it out everywhere and lets you choose a new password.`,
      action: 'Take my account back',
      url,
      outro: 'If you did not ask for this, you can ignore this email; nothing changes.',
    }),
  };
}
