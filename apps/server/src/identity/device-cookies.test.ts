import { describe, expect, it } from 'vitest';
import { createDeviceCookies, DEVICE_COOKIE_SECONDS } from './device-cookies.js';

const SECRET = 'device-cookie-test-secret-0123456789abcdef';
const pairOf = (setCookie: string) => setCookie.split(';', 1)[0] ?? '';

describe('device cookies', () => {
  const cookies = createDeviceCookies({ secret: SECRET, isSecure: false });

  it('names the device for the account it was issued for, whatever the case of the address', () => {
    const line = cookies.issue('owner@example.test');
    const deviceId = cookies.deviceOf('Owner@Example.test', `other=1; ${pairOf(line)}`);
    expect(deviceId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(line).toContain(`Max-Age=${DEVICE_COOKIE_SECONDS}; Path=/api/users/auth; HttpOnly; SameSite=Strict`);
    expect(line).not.toContain('Secure');
    // Neither the name nor the value names the address.
    expect(line).not.toContain('owner');
    // A new device id each time.
    expect(cookies.deviceOf('owner@example.test', pairOf(cookies.issue('owner@example.test')))).not.toBe(deviceId);
  });

  it('counts for its own account only, and refuses a forged or altered one', () => {
    const pair = pairOf(cookies.issue('owner@example.test'));
    expect(cookies.deviceOf('someone-else@example.test', pair)).toBeNull();
    const [name, value] = pair.split('=') as [string, string];
    const [deviceId, signature] = value.split('.') as [string, string];
    expect(cookies.deviceOf('owner@example.test', `${name}=other${deviceId}.${signature}`)).toBeNull();
    expect(cookies.deviceOf('owner@example.test', `${name}=${deviceId}.${signature.slice(1)}x`)).toBeNull();
    expect(cookies.deviceOf('owner@example.test', `${name}=${deviceId}`)).toBeNull();
    const elsewhere = createDeviceCookies({ secret: `${SECRET}-other`, isSecure: false });
    expect(elsewhere.deviceOf('owner@example.test', pair)).toBeNull();
    expect(cookies.deviceOf('owner@example.test', undefined)).toBeNull();
  });

  it('is Secure and __Secure- prefixed over https', () => {
    const secure = createDeviceCookies({ secret: SECRET, isSecure: true });
    const line = secure.issue('owner@example.test');
    expect(line).toMatch(/^__Secure-patientsim\.device\./);
    expect(line).toMatch(/; Secure$/);
    expect(secure.deviceOf('owner@example.test', pairOf(line))).not.toBeNull();
  });
});
