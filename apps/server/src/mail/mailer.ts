import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type MailMessage = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  send: (message: MailMessage) => Promise<void>;
  /** The messages sent through the development outbox (empty with SMTP). */
  outbox: MailMessage[];
  close: () => void;
};

const LINK_PATTERN = /https?:\/\/[^\s"'<>]+/g;

/**
 * Sends over SMTP when `smtpUrl` is set; otherwise keeps the message in the development outbox,
 * writes it to `outboxDir` and prints its links in the log.
 */
export function createMailer({
  smtpUrl,
  from,
  outboxDir,
  log,
}: {
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string | null;
  log: FastifyBaseLogger;
}): Mailer {
  const outbox: MailMessage[] = [];
  // The outbox holds reset and sign-up links: owner only, whatever the umask (and an outbox left
  // readable by an older version is made private once).
  let outboxReady: Promise<void> | null = null;
  const prepareOutbox = (dir: string) =>
    (outboxReady ??= mkdir(dir, { recursive: true, mode: 0o700 })
      .then(() => chmod(dir, 0o700))
      .catch((error: unknown) => {
        outboxReady = null;
        throw error;
      }));
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      outbox,
      async send(message) {
        await transport.sendMail({ from, ...message });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  return {
    outbox,
    async send(message) {
      outbox.push(message);
      if (outbox.length > 200) outbox.shift();
      const links = message.text.match(LINK_PATTERN) ?? [];
      log.info({ to: message.to, subject: message.subject, links }, 'mail (development outbox)');
      if (outboxDir) {
        await prepareOutbox(outboxDir);
        const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.to.replace(/[^a-z0-9@.-]/gi, '_')}.json`;
        await writeFile(path.join(outboxDir, file), JSON.stringify({ from, ...message }, null, 2), { mode: 0o600 });
      }
    },
    close: () => {},
  };
}
