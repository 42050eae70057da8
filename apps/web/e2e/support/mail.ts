import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from '@playwright/test';
import { e2eServerOf } from './servers';

/** A message caught by one of the runner's SMTP catchers (see run.mjs), bodies decoded. */
export type CaughtMail = {
  id: string;
  receivedAt: string;
  envelope: { from: string | null; to: string[] };
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
};

/** Where the SMTP catcher of the running test's server files its mail (each server has its own). */
function mailDir(): string {
  return e2eServerOf(test.info().parallelIndex).mailDir;
}

async function readAllMail(): Promise<CaughtMail[]> {
  const dir = mailDir();
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CaughtMail));
}

/**
 * Waits for the newest message to `to` received after `after` (default: any time), optionally
 * with a subject matching `subject`.
 */
export async function waitForMail(options: {
  to: string;
  after?: Date;
  subject?: RegExp;
  timeoutMs?: number;
}): Promise<CaughtMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const recipient = options.to.toLowerCase();
  while (Date.now() < deadline) {
    const matches = (await readAllMail()).filter(
      (mail) =>
        mail.envelope.to.some((address) => address.toLowerCase() === recipient) &&
        (!options.after || Date.parse(mail.receivedAt) >= options.after.getTime()) &&
        (!options.subject || options.subject.test(mail.subject)),
    );
    const newest = matches.at(-1);
    if (newest) return newest;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No e-mail to ${options.to} arrived in time.`);
}

const LINK_PATTERN = /https?:\/\/[^\s"'<>]+/g;

/** The first link of the message whose URL contains `fragment` (e.g. '/auth/reset-password?'). */
export function findLink(mail: CaughtMail, fragment: string): string {
  const fromText = mail.text.match(LINK_PATTERN) ?? [];
  const fromHtml = (mail.html.match(LINK_PATTERN) ?? []).map((link) => link.replace(/&amp;/g, '&'));
  const link = [...fromText, ...fromHtml]
    .map((candidate) => candidate.replace(/[.,;:)\]]+$/, ''))
    .find((candidate) => candidate.includes(fragment));
  if (!link) throw new Error(`The e-mail "${mail.subject}" to ${mail.to} has no link containing ${fragment}.`);
  return link;
}
