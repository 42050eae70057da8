import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { CASE_ENVIRONMENT_NAMES } from '@patientsim/domain/cases/case-copy.schemas';

/** An IP address, or a CIDR range such as 10.0.0.0/8 or fd00::/8. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  try {
    new BlockList().addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    return true;
  } catch {
    return false; // prefix out of range for the family
  }
}

/** The address of a sender such as `PatientSim <no-reply@example.com>` (or the whole text when bare). */
function addressOf(sender: string): string {
  return /<([^<>]+)>\s*$/.exec(sender)?.[1]?.trim() ?? sender.trim();
}

/** The deployments the case tools know (decision 17). */
export { CASE_ENVIRONMENT_NAMES };
const CaseEnvironmentsSchema = z.partialRecord(
  z.enum(CASE_ENVIRONMENT_NAMES),
  z.object({ url: z.url(), accessCode: z.string().min(16) }).strict(),
);

/**
 * The only reader of process.env (spec/demo-data.md, run contract). A bad value stops the start
 * with a list of every problem.
 */
const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    SEED: z.enum(['demo', 'none']).default('demo'),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('PatientSim <no-reply@localhost>'),
    /**
     * Where people reach the provider (shown to a person with no organisation); unset, the
     * address of MAIL_FROM, the one address a deployment always configures.
     */
    SUPPORT_EMAIL: z.email().optional(),
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Key that integrations present to provision accounts (decision 15). */
    INTEGRATION_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
    /** This deployment's access code: peers present it to GET /api/cases/{id} (decision 17). Unset, the route refuses everyone. */
    CASE_ACCESS_CODE: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * This deployment's own name among the case environments (decisions 0027 and 0041): the case
     * tools offer it as an environment and reach it in process rather than over HTTP. A fresh start
     * is the development deployment, so the tool works there with nothing configured.
     */
    CASE_ENVIRONMENT_NAME: z.enum(CASE_ENVIRONMENT_NAMES).default('dev'),
    /**
     * The peer deployments the case tools copy and compare with (decision 17): JSON
     * `{"<name>": {"url": "...", "accessCode": "..."}}`, names among dev, stable, staging, app.
     */
    CASE_ENVIRONMENTS: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (!value?.trim()) return {};
        let parsed: unknown;
        try {
          parsed = JSON.parse(value);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be JSON' });
          return z.NEVER;
        }
        const result = CaseEnvironmentsSchema.safeParse(parsed);
        if (!result.success) {
          for (const issue of result.error.issues) {
            ctx.addIssue({ code: 'custom', message: `${issue.path.join('.') || 'value'}: ${issue.message}` });
          }
          return z.NEVER;
        }
        return result.data;
      }),
    /**
     * Whether GraphQL introspection and the OpenAPI pages (/api/docs) answer: they map the API for
     * an attacker as well as for a developer, so production turns them on only when asked to.
     */
    API_INTROSPECTION: z.enum(['on', 'off']).optional(),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_API_BASE: z.url().optional(),
    /**
     * The reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For is
     * believed; unset, the client address is the connection's peer (decision 0010).
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const entries = (value ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '');
        for (const entry of entries.filter((e) => !isAddressOrRange(e))) {
          ctx.addIssue({ code: 'custom', message: `"${entry}" is not an IP address or CIDR range` });
        }
        return entries;
      }),
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    SUPPORT_EMAIL: env.SUPPORT_EMAIL ?? addressOf(env.MAIL_FROM),
    API_INTROSPECTION: env.API_INTROSPECTION === undefined ? env.NODE_ENV !== 'production' : env.API_INTROSPECTION === 'on',
  }))
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required when NODE_ENV=production' });
    }
    if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
      // Without SMTP, e-mails go to the development outbox and their reset links to the log.
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when NODE_ENV=production' });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default); throws ConfigError listing every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`));
  }
  return result.data;
}
