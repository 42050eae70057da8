import { UNKNOWN_ERROR_MESSAGE, isApiError } from './api-client';

export const PASSKEY_CANCELLED_MESSAGE = 'The passkey was not used: the request was cancelled or timed out. Try again.';
export const PASSKEY_ALREADY_REGISTERED_MESSAGE = 'This device already holds a passkey for your account.';
export const PASSKEY_UNSUPPORTED_MESSAGE = 'This browser cannot use passkeys. Use another method or another browser.';

/**
 * What to say when a passkey ceremony failed: the server's message for its refusals, else what the
 * browser's error means (the WebAuthn errors keep the browser's name: NotAllowedError when the
 * person cancelled or let it time out, InvalidStateError when the authenticator already holds one).
 */
export function passkeyErrorMessage(error: unknown): string {
  if (isApiError(error)) return error.message || UNKNOWN_ERROR_MESSAGE;
  // Not `instanceof Error`: a DOMException of another realm (a frame, a test's DOM) is not one.
  if (typeof error !== 'object' || error === null || !('name' in error)) return UNKNOWN_ERROR_MESSAGE;
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') return PASSKEY_CANCELLED_MESSAGE;
  if (error.name === 'InvalidStateError') return PASSKEY_ALREADY_REGISTERED_MESSAGE;
  if (error.name === 'NotSupportedError' || error.name === 'SecurityError') return PASSKEY_UNSUPPORTED_MESSAGE;
  return 'message' in error && typeof error.message === 'string' && error.message ? error.message : UNKNOWN_ERROR_MESSAGE;
}
