import { SignJWT, jwtVerify } from 'jose';
import { LICENSE_TOKEN_SECONDS } from '@patientsim/domain/common/constants';
import { AppError } from '../lib/errors.js';

const PURPOSE = 'license';

/** Short-lived token that lets a signed-in user accept the license (decision 14). */
export function createLicenseTokens(secret: string) {
  const key = new TextEncoder().encode(`${secret}:license`);
  return {
    issue(userId: string): Promise<string> {
      return new SignJWT({ purpose: PURPOSE })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${LICENSE_TOKEN_SECONDS}s`)
        .sign(key);
    },
    async verify(token: string): Promise<string> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (payload.purpose !== PURPOSE || !payload.sub) throw new AppError('LICENSE_TOKEN_INVALID');
        return payload.sub;
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('LICENSE_TOKEN_INVALID');
      }
    },
  };
}

export type LicenseTokens = ReturnType<typeof createLicenseTokens>;
