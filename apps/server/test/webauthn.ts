import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { TEST_PUBLIC_URL } from './build-app.js';

/**
 * A software passkey for tests: an ES256 key pair that answers WebAuthn registration options with a
 * real 'none' attestation and authentication options with a real assertion, as a browser's
 * authenticator would through @simplewebauthn/browser. The server side checks them unmocked.
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** The little CBOR a WebAuthn attestation needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Uint8Array {
  const head = (major: number, length: number): Uint8Array => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [key, entry] of value) parts.push(cbor(key), cbor(entry as Parameters<typeof cbor>[0]));
  return Buffer.concat(parts);
}

const origin = new URL(TEST_PUBLIC_URL).origin;
const rpIdHash = sha256(new URL(TEST_PUBLIC_URL).hostname);

export type SoftPasskey = {
  credentialId: string;
  /** The browser's answer to registration options (startRegistration's result). */
  register: (options: { challenge: string }) => Record<string, unknown>;
  /** The browser's answer to authentication options (startAuthentication's result). */
  authenticate: (options: { challenge: string }) => Record<string, unknown>;
};

/** A new software passkey with an ES256 key of its own. */
export function createSoftPasskey(): SoftPasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rawId = randomBytes(16);
  const credentialId = b64url(rawId);
  let signCount = 0;
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const cosePublicKey = (key: KeyObject) => {
    const jwk = key.export({ format: 'jwk' });
    return cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  };
  const counter = () => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(signCount);
    return bytes;
  };
  return {
    credentialId,
    register: ({ challenge }) => {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(rawId.length);
      // Flags: user present, user verified, attested credential data.
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x45]),
        counter(),
        Buffer.alloc(16),
        idLength,
        rawId,
        cosePublicKey(publicKey),
      ]);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    authenticate: ({ challenge }) => {
      signCount += 1;
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), counter()]);
      const clientDataJSON = clientData('webauthn.get', challenge);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
