import { createHmac, randomBytes } from 'node:crypto';
import { isSameSecret } from '../lib/secrets.js';
import { COOKIE_PREFIX } from './auth.js';

/** How long a browser stays known to an account after its last sign-in or password reset. */
export const DEVICE_COOKIE_SECONDS = 180 * 24 * 60 * 60;

/** Only the sign-in and reset routes read it: no other request carries it. */
const COOKIE_PATH = '/api/users/auth';

/**
 * Device cookies (decision 0039): a browser that signed in to an account, or reset its password,
 * gets a cookie bound to that account, so that its sign-in attempts are counted apart from
 * everyone else's and the owner is not locked out by guesses made elsewhere. One cookie per
 * account (a shared browser can be known to several); its name and value are MACs under the
 * server secret, so nobody can make one for an account, and neither names the address.
 */
export function createDeviceCookies({ secret, isSecure }: { secret: string; isSecure: boolean }) {
  const mac = (purpose: string, value: string) =>
    createHmac('sha256', `${secret}:device-cookie`).update(`${purpose}\n${value}`).digest('base64url');
  const nameFor = (email: string) =>
    `${isSecure ? '__Secure-' : ''}${COOKIE_PREFIX}.device.${mac('name', email.toLowerCase()).slice(0, 16)}`;
  const signatureOf = (email: string, deviceId: string) => mac('value', `${email.toLowerCase()}\n${deviceId}`);

  return {
    /** The Set-Cookie line that makes this browser known to the account `email` (a new device id each time). */
    issue(email: string): string {
      const deviceId = randomBytes(16).toString('base64url');
      const attributes = [`Max-Age=${DEVICE_COOKIE_SECONDS}`, `Path=${COOKIE_PATH}`, 'HttpOnly', 'SameSite=Strict'];
      if (isSecure) attributes.push('Secure');
      return [`${nameFor(email)}=${deviceId}.${signatureOf(email, deviceId)}`, ...attributes].join('; ');
    },

    /** The id of the device the request's cookies name for the account `email`, or null when none is valid. */
    deviceOf(email: string, cookieHeader: string | undefined): string | null {
      if (!cookieHeader) return null;
      const name = nameFor(email);
      for (const pair of cookieHeader.split(';')) {
        const separator = pair.indexOf('=');
        if (separator < 0 || pair.slice(0, separator).trim() !== name) continue;
        const [deviceId, signature] = pair
          .slice(separator + 1)
          .trim()
          .split('.');
        if (!deviceId || !signature) return null;
        return isSameSecret(signatureOf(email, deviceId), signature) ? deviceId : null;
      }
      return null;
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
