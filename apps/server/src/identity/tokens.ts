import { desc } from 'drizzle-orm';
import { symmetricDecrypt } from 'better-auth/crypto';
import {
  type CryptoKey,
  type JWK,
  type JWTPayload,
  SignJWT,
  createLocalJWKSet,
  errors as joseErrors,
  importJWK,
  jwtVerify,
} from 'jose';
import { ID_TOKEN_AUDIENCE, STUDENT_SESSION_SECONDS, TOKEN_LIFETIME_SECONDS } from '@patientsim/domain/common/constants';
import { IdTokenPayloadSchema, type IdTokenPayload } from '@patientsim/domain/identity/token.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import type { Database } from '../db/client.js';
import { jwks } from '../db/schema/auth.js';
import { AppError } from '../lib/errors.js';
import { createLocalInvalidations, type Invalidations } from '../lib/invalidation.js';
import type { Auth } from './auth.js';
import type { ProductClaims } from '../modules/users/claims.js';

const ALGORITHM = 'EdDSA';
/** How long a loaded key set is trusted before the table is read again (key rotation). */
const KEY_CACHE_MS = 60_000;
/** How often an unknown key id may send the verifier back to the key table. */
const UNKNOWN_KID_RELOAD_MS = 5_000;
/** Bound on remembered verified tokens (each is checked for expiry on every use). */
const VERIFIED_CACHE_MAX = 20_000;

type SigningKey = { kid: string; key: CryptoKey | Uint8Array };

/**
 * The `kid` of a token's header, or undefined for any header that is not a JSON object naming one
 * (`null`, an array, bytes that are not JSON): jwtVerify then refuses the token itself.
 */
function kidOf(token: string): string | undefined {
  try {
    const header: unknown = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    const kid = header !== null && typeof header === 'object' ? (header as { kid?: unknown }).kid : undefined;
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/** ID token lifetime by role (ARCHITECTURE.md: students 1200 s, everyone else 1 h). */
export function tokenLifetimeSeconds(role: ProductClaims['role']): number {
  return hasPermission(role, 'session:lasting') ? TOKEN_LIFETIME_SECONDS : STUDENT_SESSION_SECONDS;
}

/**
 * The database's signing keys cannot be decrypted with this process's secret: they were made by a
 * server with another AUTH_SECRET (a new DATA_DIR, which generated a new secret, on a PostgreSQL
 * database an earlier data directory's server had used).
 */
export class SigningKeyError extends Error {
  constructor(cause: unknown) {
    super(
      "The database's signing keys were made with another AUTH_SECRET and cannot be read with this one. Start the server with the AUTH_SECRET the database was first used with, or with the DATA_DIR that holds it (its auth-secret file).",
      { cause },
    );
    this.name = 'SigningKeyError';
  }
}

/**
 * Signs ID tokens with the key better-auth's jwt plugin keeps in the `jwks` table (published at
 * /api/auth/jwks), and verifies bearer tokens against the same key set. Keys are cached in
 * memory: signing and verifying never touch the database on the hot path. A process that creates a
 * key announces it (`invalidations`, topic `keys`), and every process then forgets its keys and the
 * tokens it remembers as verified.
 */
export function createTokenService({
  db,
  auth,
  secret,
  issuer,
  invalidations = createLocalInvalidations(),
}: {
  db: Database;
  auth: Auth;
  secret: string;
  issuer: string;
  invalidations?: Invalidations;
}) {
  let signing: { value: SigningKey; loadedAt: number } | null = null;
  let verifying: { value: ReturnType<typeof createLocalJWKSet>; kids: Set<string>; loadedAt: number } | null = null;
  /** Tokens whose signature, issuer, audience and claims checked out, with their key (see `verify`). */
  const verified = new Map<string, { payload: IdTokenPayload; kid: string | undefined }>();
  /** Counts `forgetKeys` calls: keys read before one are used once but not kept. */
  let generation = 0;

  function forgetKeys() {
    generation += 1;
    signing = null;
    verifying = null;
    verified.clear();
  }
  invalidations.listen('keys', forgetKeys);

  async function loadRows() {
    let rows = await db.select().from(jwks).orderBy(desc(jwks.createdAt));
    if (rows.length === 0) {
      // Let the plugin mint its first key pair, then read it back. Another process may be doing the
      // same: both keys are valid, and the announcement makes every process sign with the newest.
      await auth.api.signJWT({ body: { payload: { purpose: 'key-bootstrap' } } });
      invalidations.announce('keys');
      rows = await db.select().from(jwks).orderBy(desc(jwks.createdAt));
    }
    return rows.filter((row) => !row.expiresAt || row.expiresAt > new Date());
  }

  async function signingKey(): Promise<SigningKey> {
    if (signing && Date.now() - signing.loadedAt < KEY_CACHE_MS) return signing.value;
    const loadedIn = generation;
    const [row] = await loadRows();
    if (!row) throw new Error('no signing key available');
    const privateJwk = await symmetricDecrypt({ key: secret, data: JSON.parse(row.privateKey) as string }).catch(
      (error: unknown) => {
        throw new SigningKeyError(error);
      },
    );
    const key = await importJWK(JSON.parse(privateJwk) as JWK, row.alg ?? ALGORITHM);
    const value = { kid: row.id, key };
    if (loadedIn === generation) signing = { value, loadedAt: Date.now() };
    return value;
  }

  async function keySet(kid: string | undefined) {
    const age = verifying ? Date.now() - verifying.loadedAt : Number.POSITIVE_INFINITY;
    // An unknown kid reloads the keys (a rotation), but at most once a few seconds: a flood of junk
    // tokens does not cost a database read each.
    if (verifying && age < KEY_CACHE_MS && (!kid || verifying.kids.has(kid) || age < UNKNOWN_KID_RELOAD_MS)) {
      return verifying.value;
    }
    const loadedIn = generation;
    const rows = await loadRows();
    const keys = rows.map((row) => ({ ...(JSON.parse(row.publicKey) as JWK), kid: row.id, alg: row.alg ?? ALGORITHM }));
    const value = createLocalJWKSet({ keys });
    const kids = new Set(rows.map((r) => r.id));
    if (loadedIn !== generation) return value;
    // A key that left the table takes the tokens it signed with it.
    for (const [token, entry] of verified) if (!entry.kid || !kids.has(entry.kid)) verified.delete(token);
    verifying = { value, kids, loadedAt: Date.now() };
    return value;
  }

  return {
    /**
     * Reads and decrypts the newest signing key (minting the first one on a new database); throws
     * SigningKeyError when the database's keys were encrypted with another secret. Called at start,
     * so that such a server stops with the remedy instead of failing every sign-in.
     */
    async checkSigningKey(): Promise<void> {
      await signingKey();
    },

    /**
     * Mints an ID token bound to the session `sessionId` (it is refused once that session ends);
     * `act` marks a View-As-User token and `maxSeconds` caps its lifetime.
     */
    async sign(
      claims: ProductClaims,
      options: { sessionId: string; act?: { sub: string }; maxSeconds?: number; amr?: readonly string[] | null },
    ) {
      const { kid, key } = await signingKey();
      const now = Math.floor(Date.now() / 1000);
      const lifetime = Math.min(tokenLifetimeSeconds(claims.role), options.maxSeconds ?? Number.POSITIVE_INFINITY);
      // How the session was signed in (decision 0066); a View-As-User token's session has none.
      const amr = options.amr && options.amr.length > 0 ? { amr: [...options.amr] } : {};
      const payload: JWTPayload = { ...claims, ...amr, sid: options.sessionId, ...(options.act ? { act: options.act } : {}) };
      const idToken = await new SignJWT(payload)
        .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(ID_TOKEN_AUDIENCE)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + lifetime)
        .sign(key);
      const idTokenPayload: IdTokenPayload = {
        ...claims,
        ...amr,
        sid: options.sessionId,
        ...(options.act ? { act: options.act } : {}),
        iss: issuer,
        aud: ID_TOKEN_AUDIENCE,
        iat: now,
        exp: now + lifetime,
      };
      return { idToken, idTokenPayload };
    },

    /** Verifies signature (EdDSA only), issuer, audience and expiry; throws TOKEN_INVALID. */
    async verify(token: string): Promise<IdTokenPayload> {
      // A token already verified is the same bytes under the same signature: only its expiry, or its
      // key leaving the table, can change the answer.
      const known = verified.get(token);
      if (known) {
        if (known.payload.exp <= Date.now() / 1000) verified.delete(token);
        else {
          // Keys are read again every minute; one that left the table takes its tokens with it.
          await keySet(known.kid);
          if (verified.get(token) === known) return known.payload;
        }
      }
      try {
        const kid = kidOf(token);
        const loadedIn = generation;
        const set = await keySet(kid);
        const { payload } = await jwtVerify(token, set, {
          algorithms: [ALGORITHM],
          issuer,
          audience: ID_TOKEN_AUDIENCE,
          requiredClaims: ['exp', 'iat', 'sub'],
        });
        const parsed = IdTokenPayloadSchema.safeParse(payload);
        if (!parsed.success) throw new AppError('TOKEN_INVALID');
        if (verified.size >= VERIFIED_CACHE_MAX) verified.clear();
        if (loadedIn === generation) verified.set(token, { payload: parsed.data, kid });
        return parsed.data;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof joseErrors.JOSEError || error instanceof SyntaxError) throw new AppError('TOKEN_INVALID');
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
