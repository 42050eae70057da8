import { z } from 'zod';
import { IdSchema, TextSchema } from '../common/api.schemas.js';
import { ROLES } from '../roles/roles.js';
import { SignInAnswerSchema } from './auth.schemas.js';

/**
 * The second factor (decision 0066): an authenticator app (TOTP) with one-time recovery codes, and
 * passkeys. What the sign-in, the account's Security page and an organisation's requirement send
 * and receive.
 */

/** How a person proves the second factor at sign-in. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** A six-digit code of an authenticator app. */
export const TotpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');

/** A recovery code as shown once at enrolment (letters, digits and a dash); spaces are forgiven. */
export const RecoveryCodeSchema = z
  .string()
  .trim()
  .min(1, 'Enter a recovery code')
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'Enter a recovery code as it was shown');

/**
 * The sign-in's answer after a correct password when the account has a second factor: the
 * two-factor cookie is set alongside (10 minutes), no session yet. `methods` lists what the
 * account has enrolled (an authenticator app, passkeys); recovery codes come with the app.
 */
export const SecondFactorChallengeSchema = z.object({
  secondFactor: z.object({ methods: z.array(z.enum(SECOND_FACTOR_METHODS)).min(1) }),
});
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallengeSchema>;

/** The sign-in's answer: signed in (as before), or a second factor to prove. */
export const SignInResultSchema = z.union([SignInAnswerSchema, SecondFactorChallengeSchema]);
export type SignInResult = z.infer<typeof SignInResultSchema>;

/** POST /auth/sign-in/two-factor: the code of the app, or one recovery code. */
export const SecondFactorBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('totp'), code: TotpCodeSchema }),
  z.object({ kind: z.literal('recovery'), code: RecoveryCodeSchema }),
]);
export type SecondFactorBody = z.infer<typeof SecondFactorBodySchema>;

/**
 * A WebAuthn ceremony's options or the browser's answer, passed through as JSON between the
 * browser (`@simplewebauthn/browser`) and the identity library's passkey plugin, which checks them.
 */
export const WebAuthnJsonSchema = z.record(z.string(), z.unknown());

/** POST /auth/sign-in/passkey: the browser's answer to the authentication options. */
export const PasskeySignInBodySchema = z.object({ response: WebAuthnJsonSchema });
export type PasskeySignInBody = z.infer<typeof PasskeySignInBodySchema>;

/** One passkey of the account, as the Security page lists it. */
export const PasskeySchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** GET /account/two-factor: the person's factors and whether their organisations require one. */
export const TwoFactorStatusSchema = z.object({
  totp: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int().nonnegative() }),
  passkeys: z.array(PasskeySchema),
  /**
   * The organisations (names) whose requirement covers the person's role there, plus
   * 'PatientSim' for a super admin in production; empty when nothing requires a second factor.
   * While it is not empty, the last factor cannot be removed.
   */
  requiredBy: z.array(z.string()),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** Starting, removing or renewing the app's codes asks for the password again. */
export const PasswordConfirmationSchema = z.object({ password: z.string().min(1, 'Enter your password').max(128) });
export type PasswordConfirmation = z.infer<typeof PasswordConfirmationSchema>;

/** POST /account/two-factor/totp: the secret to scan (otpauth URI) and the recovery codes, shown once. */
export const TotpEnrolmentSchema = z.object({ totpUri: z.string(), recoveryCodes: z.array(z.string()) });
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

/** POST /account/two-factor/totp/verify: the first code proves the app holds the secret. */
export const TotpVerifyBodySchema = z.object({ code: TotpCodeSchema });
export type TotpVerifyBody = z.infer<typeof TotpVerifyBodySchema>;

/** POST /account/two-factor/recovery-codes: a new set, the old ones no longer work. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** POST /account/passkeys: the browser's answer to the registration options, and a name for it. */
export const PasskeyRegisterBodySchema = z.object({
  name: TextSchema.trim().min(1, 'Name the passkey').max(100),
  response: WebAuthnJsonSchema,
});
export type PasskeyRegisterBody = z.infer<typeof PasskeyRegisterBodySchema>;

export const PasskeyParamsSchema = z.object({ id: IdSchema });

/** The roles an organisation may require a second factor of (a super admin's is the platform's rule). */
export const REQUIRABLE_ROLES = ROLES.filter((role) => role !== 'SUPER_ADMIN') as readonly ('STUDENT' | 'USER' | 'ADMIN')[];

/** GET and PUT /extension/groups/:id/two-factor-requirement: the roles that must use a second factor. */
export const TwoFactorRequirementSchema = z.object({
  roles: z
    .array(z.enum(['STUDENT', 'USER', 'ADMIN']))
    .max(3)
    .refine((roles) => new Set(roles).size === roles.length, 'Each role at most once'),
});
export type TwoFactorRequirement = z.infer<typeof TwoFactorRequirementSchema>;
