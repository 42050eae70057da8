import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

const silent = { info() {}, error() {}, warn() {}, debug() {} } as never;
const modeOf = (file: string) => statSync(file).mode & 0o777;
const message = { to: 'pat@example.test', subject: 'Reset', text: 'https://x.test/reset?token=abc', html: '' };

describe('development outbox', () => {
  it('writes mails readable by the owner only, in a private directory', async () => {
    const outboxDir = path.join(mkdtempSync(path.join(tmpdir(), 'patientsim-outbox-')), 'outbox');
    const mailer = createMailer({ from: 'PatientSim <no-reply@localhost>', outboxDir, log: silent });
    await mailer.send(message);
    await mailer.send({ ...message, to: 'sam@example.test' });
    expect(modeOf(outboxDir)).toBe(0o700);
    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(2);
    for (const file of files) expect(modeOf(path.join(outboxDir, file))).toBe(0o600);
  });

  it('makes an existing outbox private', async () => {
    const outboxDir = path.join(mkdtempSync(path.join(tmpdir(), 'patientsim-outbox-')), 'outbox');
    mkdirSync(outboxDir);
    chmodSync(outboxDir, 0o755);
    await createMailer({ from: 'PatientSim <no-reply@localhost>', outboxDir, log: silent }).send(message);
    expect(modeOf(outboxDir)).toBe(0o700);
  });
});
