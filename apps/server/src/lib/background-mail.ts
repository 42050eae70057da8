import type { Mailer, MailMessage } from '../mail/mailer.js';

/** Sends without waiting, so that answers take the same time whether or not a mail goes out. */
export function sendInBackground(ctx: { mailer: Mailer }, message: MailMessage) {
  void ctx.mailer.send(message).catch(() => {});
}
