import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

/**
 * Single sign-on (decision 0065): another of the platform's applications, played by a small
 * relying party built on openid-client, signs a person in through PatientSim's sign-in page.
 */

test.describe.configure({ timeout: 120_000 });

type RelyingParty = { server: Server; origin: string; configure: (clientId: string, clientSecret: string) => void };

/** The relying party: `/` starts a sign-in, `/callback` finishes it and shows who signed in. */
async function startRelyingParty(issuer: string): Promise<RelyingParty> {
  let config: oidc.Configuration | null = null;
  let client: { clientId: string; clientSecret: string } | null = null;
  const pending = new Map<string, { verifier: string; nonce: string }>();
  const server = createServer((request, response) => {
    const handle = async () => {
      if (!client) throw new Error('no client registered yet');
      config ??= await oidc.discovery(
        new URL(issuer),
        client.clientId,
        { id_token_signed_response_alg: 'EdDSA' },
        oidc.ClientSecretBasic(client.clientSecret),
        { execute: [oidc.allowInsecureRequests] },
      );
      const url = new URL(request.url ?? '/', origin);
      if (url.pathname === '/') {
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        pending.set(state, { verifier, nonce });
        const authorization = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${origin}/callback`,
          scope: 'openid profile email',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        response.writeHead(302, { location: authorization.href }).end();
        return;
      }
      if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const checks = pending.get(state);
        if (!checks) throw new Error('unknown state');
        const tokens = await oidc.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: checks.verifier,
          expectedState: state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        const text = (name: string) => {
          const value = claims?.[name];
          return typeof value === 'string' ? value : '';
        };
        const name = `${text('given_name')} ${text('family_name')}`;
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          `<!doctype html><html lang="en"><head><title>Scenario builder</title></head><body><main>` +
            `<h1>Scenario builder</h1><p>Signed in as <span id="name">${name}</span> ` +
            `(<span id="email">${text('email')}</span>), role <span id="role">${text('role')}</span></p>` +
            `</main></body></html>`,
        );
        return;
      }
      response.writeHead(404).end();
    };
    handle().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    configure: (clientId, clientSecret) => {
      client = { clientId, clientSecret };
    },
  };
}

test('a super admin registers an application, and a person signs in to it with their PatientSim account', async ({
  browser,
  baseURL,
}) => {
  const relyingParty = await startRelyingParty(baseURL ?? '');
  try {
    // The access area's Applications page: register the relying party, read its secret once.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInWithoutForm(admin, 'super@demo.test', { redirectUrl: '/auth/access/applications' });
    await expect(admin.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    await expectNoSeriousA11yViolations(admin, 'Applications');

    await admin.getByRole('button', { name: 'Register application' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Register application' });
    await dialog.getByLabel(/^Name/).fill('Scenario builder (e2e)');
    await dialog.getByRole('radio', { name: /Confidential/ }).check();
    // An address that is neither https nor localhost is refused in the form.
    await dialog.getByLabel(/^Redirect URIs/).fill('http://builder.example.test/callback');
    await dialog.getByRole('button', { name: 'Register' }).click();
    await expect(dialog.getByText(/Use an https address, or http:\/\/localhost for development/)).toBeVisible();
    await dialog.getByLabel(/^Redirect URIs/).fill(`${relyingParty.origin}/callback`);
    await expectNoSeriousA11yViolations(admin, 'Register application');
    await dialog.getByRole('button', { name: 'Register' }).click();

    const registered = admin.getByRole('dialog', { name: 'Application registered' });
    await expect(registered.getByText('it will not be shown again')).toBeVisible();
    const clientId = (await registered.getByTestId('Client ID value').textContent()) ?? '';
    const clientSecret = (await registered.getByTestId('Client secret value').textContent()) ?? '';
    expect(clientSecret.length).toBeGreaterThan(20);
    await expectNoSeriousA11yViolations(admin, 'Application registered');
    await registered.getByRole('button', { name: 'Done' }).click();
    const row = admin.getByRole('row').filter({ hasText: 'Scenario builder (e2e)' });
    await expect(row).toContainText(clientId);
    await expect(row).toContainText('Confidential');
    await expect(admin.getByText(clientSecret)).toHaveCount(0);
    await adminContext.close();

    // A person starts at the application, signs in on PatientSim's page, and comes back signed in.
    relyingParty.configure(clientId, clientSecret);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(relyingParty.origin);
    await expect(page).toHaveURL(/\/auth\/login\?.*client_id=/);
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await page.getByLabel(/^Email/).fill('admin@demo.test');
    await page.getByLabel(/^Password/).fill('Sim-Demo-2026');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(new RegExp(`^${relyingParty.origin}/callback`));
    await expect(page.locator('#email')).toHaveText('admin@demo.test');
    await expect(page.locator('#name')).not.toHaveText(/^\s*$/);
    await expect(page.locator('#role')).toHaveText('ADMIN');

    // Signed in to PatientSim now: the next sign-in to the application goes straight through.
    await page.goto(relyingParty.origin);
    await expect(page).toHaveURL(new RegExp(`^${relyingParty.origin}/callback`));
    await expect(page.locator('#email')).toHaveText('admin@demo.test');
    await context.close();
  } finally {
    relyingParty.server.close();
  }
});
