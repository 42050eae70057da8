import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { DEMO_PASSWORD, SCENARIOS_URL, uniqueEmail } from './auth';

/** The integration key the runner gives the server (see run.mjs). */
export function integrationKey(): string {
  const key = process.env.E2E_INTEGRATION_KEY;
  if (!key) throw new Error('E2E_INTEGRATION_KEY is not set: run the browser tests with `npm run test:e2e`.');
  return key;
}

/** The claims of a user's ID token, signing in through the API (the browser's session is untouched). */
export async function tokenClaimsOf(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<{ sub: string; org: string | null; email: string }> {
  const signIn = await request.post('/api/users/auth/sign-in', { data: { email, password } });
  expect(signIn.ok(), `sign-in of ${email}`).toBe(true);
  const token = await request.post('/api/users/auth/token');
  expect(token.ok(), `token of ${email}`).toBe(true);
  return ((await token.json()) as { idTokenPayload: { sub: string; org: string | null; email: string } }).idTokenPayload;
}

/** An ID token for `email`, signing in through the API (the browser's session is untouched). */
export async function idTokenOf(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  const signedIn = await request.post('/api/users/auth/sign-in', { data: { email, password } });
  expect(signedIn.ok(), `sign-in of ${email}`).toBe(true);
  const token = await request.post('/api/users/auth/token');
  expect(token.ok(), `token of ${email}`).toBe(true);
  return ((await token.json()) as { idToken: string }).idToken;
}

export type Provisioned = { email: string; givenName: string; familyName: string; link: string };

/** Provisions a new person as an integration does (decision 15): answers the choose-password link. */
export async function provisionPerson(
  request: APIRequestContext,
  options: { orgId: string; role?: 'STUDENT' | 'USER' | 'ADMIN'; label: string; givenName?: string; familyName?: string },
): Promise<Provisioned> {
  const email = uniqueEmail(options.label);
  const givenName = options.givenName ?? 'Pat';
  const familyName = options.familyName ?? 'Provisioned';
  const response = await request.post('/api/users/integrations/provision', {
    headers: { 'x-integration-key': integrationKey() },
    data: { email, given_name: givenName, family_name: familyName, orgId: options.orgId, role: options.role ?? 'STUDENT' },
  });
  expect(response.ok(), 'provisioning').toBe(true);
  const { link } = (await response.json()) as { link: string };
  return { email, givenName, familyName, link };
}

/**
 * Provisions a person and completes the account through the API (the choose-password call the
 * page makes), so they are a member at once, without a browser.
 */
export async function provisionMember(
  request: APIRequestContext,
  options: Parameters<typeof provisionPerson>[1] & { password?: string },
): Promise<Provisioned & { password: string }> {
  const person = await provisionPerson(request, options);
  const password = options.password ?? 'Fresh-Pass-2026';
  const token = new URL(person.link, 'http://localhost').searchParams.get('token');
  const added = await request.post('/api/users/integrations/add-user', { data: { token, password } });
  expect(added.ok(), 'completing the provisioned account').toBe(true);
  return { ...person, password };
}

/** Chooses the password on a choose-password link, accepts the license, and lands on the scenarios. */
export async function completeProvisionedAccount(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel(/^Confirm password/).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
}

/**
 * A fresh account of its own, member of the organisation `orgOwnerEmail` works in, signed in on
 * `page`: for tests that change an account (names, e-mail, password, memberships) without
 * touching the demo accounts other specs rely on.
 */
export async function createSignedInAccount(
  page: Page,
  request: APIRequestContext,
  options: { label: string; orgOwnerEmail?: string; role?: 'STUDENT' | 'USER'; password?: string },
): Promise<Provisioned & { password: string; orgId: string }> {
  const { org } = await tokenClaimsOf(request, options.orgOwnerEmail ?? 'owner@demo.test');
  if (!org) throw new Error(`${options.orgOwnerEmail ?? 'owner@demo.test'} has no organisation`);
  const person = await provisionPerson(request, { orgId: org, role: options.role ?? 'STUDENT', label: options.label });
  const password = options.password ?? 'Fresh-Pass-2026';
  await completeProvisionedAccount(page, person.link, password);
  return { ...person, password, orgId: org };
}
